package channels

import (
	"context"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Service is the channels domain: every operation on an account's channels.
type Service struct {
	Table store.Table
	// Warehouses lists the account's warehouses (the warehouses service,
	// wired in pkg/app).
	Warehouses WarehouseLister
}

// WarehouseLister lists the account's warehouses, archived ones included.
type WarehouseLister interface {
	List(ctx context.Context, account string) ([]warehouses.Warehouse, error)
}

// Create stores a new channel of the account.
func (s Service) Create(ctx context.Context, account string, in Input) (Channel, error) {
	c, err := newChannel(store.NewID(), isotime.Format(time.Now()), in)
	if err != nil {
		return Channel{}, err
	}
	if err := put(ctx, s.Table, account, c); err != nil {
		return Channel{}, err
	}
	return c, nil
}

// Get reads one channel of the account: ErrNotFound for a uuid the account
// does not have (without a read when it is not shaped like one of ours).
func (s Service) Get(ctx context.Context, account, uuid string) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	return get(ctx, s.Table, account, uuid)
}

// List returns every channel of the account in creation order: one Query.
func (s Service) List(ctx context.Context, account string) ([]Channel, error) {
	return list(ctx, s.Table, account)
}

// SetRules replaces the channel's inventory rules whole and returns the
// channel: one Query of the warehouses when the rules name some, one
// UpdateItem, one GetItem. Its listings are re-synced from the table's
// stream.
func (s Service) SetRules(ctx context.Context, account, uuid string, r Rules) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	if err := s.CheckWarehouses(ctx, account, "inventory_rules.warehouses", r.Warehouses); err != nil {
		return Channel{}, err
	}
	if err := setRules(ctx, s.Table, account, uuid, r); err != nil {
		return Channel{}, err
	}
	return get(ctx, s.Table, account, uuid)
}

// CheckWarehouses returns a 422 naming field unless every uuid is one of
// the account's warehouses (archived ones included): one Query, none for an
// empty list.
func (s Service) CheckWarehouses(ctx context.Context, account, field string, uuids []string) error {
	if len(uuids) == 0 {
		return nil
	}
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return err
	}
	for _, u := range uuids {
		if !slices.ContainsFunc(whs, func(w warehouses.Warehouse) bool { return w.UUID == u }) {
			return errs.Invalid("%s: %q is not one of your warehouses", field, u)
		}
	}
	return nil
}
