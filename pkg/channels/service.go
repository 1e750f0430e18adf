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
	// Verifier checks a connected channel's credentials with its connector
	// (pkg/connectors' runtime, wired in pkg/app).
	Verifier Verifier
	// Sealer seals channel credentials for their account and channel
	// (pkg/secrets, KMS, wired in pkg/app).
	Sealer Sealer
	// Migrator migrates listings into the marketplace's listing API on the
	// merchant's request (pkg/connectors' runtime, wired in pkg/app).
	Migrator Migrator
}

// Verifier finds the connector of a channel type and checks a channel's
// credentials with it before anything of them is stored.
type Verifier interface {
	// Connector returns the name of the connector of the channel type typ
	// (its name or display name, any case) and the type's display name;
	// false when no connector serves it.
	Connector(typ string) (name, displayName string, ok bool)
	// Verify parses the credentials (plaintext JSON) for the connector,
	// checks the endpoints and makes one verification call to the channel:
	// errs.Invalid naming a field or quoting the channel's refusal.
	Verify(ctx context.Context, v Verification) error
	// MarketplaceAccount names the marketplace account v's credentials
	// are ("" when the connector names none), asking the channel when only
	// it knows (an eBay user), as Verify does.
	MarketplaceAccount(ctx context.Context, v Verification) (string, error)
}

// Verification is what Verifier.Verify checks: the account's channel uuid,
// its connector, its new credentials (plaintext JSON) and its endpoints.
type Verification struct {
	Account, UUID, Connector string
	Credentials              []byte
	Endpoints                Endpoints
}

// Sealer seals a channel's credentials for its account and channel (envelope
// encryption under KMS, docs/connectors.md).
type Sealer interface {
	Seal(ctx context.Context, account, channel string, plaintext []byte) ([]byte, error)
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
// UpdateItem, one Query of the channel and its status. Its listings are re-synced from the table's
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
	return getWithStatus(ctx, s.Table, account, uuid)
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
