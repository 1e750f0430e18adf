package warehouses

import (
	"context"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Service is the warehouses domain: every operation on an account's
// warehouses.
type Service struct {
	Table store.Table
	// OnArchive, if set, runs after a warehouse is archived.
	OnArchive ArchiveHook
}

// ArchiveHook is told when a warehouse becomes archived, so that what it
// held can be allocated elsewhere (the orders domain sets it).
type ArchiveHook func(ctx context.Context, account, uuid string) error

// Create stores a new warehouse of the account and returns its uuid, and
// drops this process's copy of the account's list (Cached).
// Without a priority the warehouse comes last: its priority is the number
// of warehouses the account then has (one more Query).
func (s Service) Create(ctx context.Context, account string, in Input) (string, error) {
	if err := in.check(true); err != nil {
		return "", err
	}
	priority := 0
	if in.Priority != nil {
		priority = *in.Priority
	} else {
		existing, err := s.List(ctx, account)
		if err != nil {
			return "", err
		}
		priority = len(existing) + 1
	}
	w := newWarehouse(store.NewID(), isotime.Format(time.Now()), priority, in)
	if err := put(ctx, s.Table, account, w); err != nil {
		return "", err
	}
	forget(account)
	return w.UUID, nil
}

// Update changes only what in sets or clears, with one conditional write,
// drops this process's copy of the account's list (Cached), and
// runs OnArchive when the change archives the warehouse. A uuid the
// account does not have is 404; an Input that changes nothing still is.
func (s Service) Update(ctx context.Context, account, uuid string, in Input) error {
	if err := in.check(false); err != nil {
		return err
	}
	if !store.ValidID(uuid) {
		return errs.NotFound(NotFoundMessage)
	}
	if in.empty() {
		_, err := s.Get(ctx, account, uuid)
		return err
	}
	wasArchived, err := update(ctx, s.Table, account, uuid, in)
	if err != nil {
		return err
	}
	forget(account)
	if s.OnArchive != nil && in.archives() && !wasArchived {
		if err := s.OnArchive(ctx, account, uuid); err != nil {
			return fmt.Errorf("re-allocate archived warehouse: %w", err)
		}
	}
	return nil
}

// Get reads one warehouse of the account: errs.NotFound for a uuid the
// account does not have (without a read when it is not shaped like one of
// ours).
func (s Service) Get(ctx context.Context, account, uuid string) (Warehouse, error) {
	if !store.ValidID(uuid) {
		return Warehouse{}, errs.NotFound(NotFoundMessage)
	}
	return get(ctx, s.Table, account, uuid)
}

// List returns every warehouse of the account in creation order: one Query.
func (s Service) List(ctx context.Context, account string) ([]Warehouse, error) {
	return list(ctx, s.Table, account)
}

// ByPriority returns the account's non-archived warehouses in allocation
// order: priority 1 first, ties by creation.
func (s Service) ByPriority(ctx context.Context, account string) ([]Warehouse, error) {
	all, err := s.List(ctx, account)
	if err != nil {
		return nil, err
	}
	return Allocatable(all), nil
}

// Exists is a condition that the warehouse exists, for a transaction of
// another domain that must not act on an unknown warehouse (a shipment from
// it).
func (s Service) Exists(account, uuid string) store.Write {
	return store.Check(key(account, uuid), "attribute_exists(PK)", nil)
}
