package shipments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// ErrNotFound is an unknown shipment (or another channel's).
var ErrNotFound error = errs.NotFound("Shipment not found")

// Service makes shipments and sends their tracking to the channels.
type Service struct {
	Table store.Table
	// Stock is told the records where a shipment released stock (given
	// back allocations), to allocate it to waiting orders: the orders
	// service, wired in pkg/app. Nil: the stock waits for the next change.
	Stock inventory.StockListener
	// Orders, Warehouses and Inventory are the neighbours a shipment reads
	// and commits with (wired in pkg/app).
	Orders     orders.Service
	Warehouses warehouses.Service
	Inventory  inventory.Service
	// Push is where the tracking goes: the channel outbox and the retry
	// queue.
	Push push.Queues
	// Now is the clock of a new shipment's shipped_at; nil means time.Now
	// (the demo data ships its past orders in the past).
	Now func() time.Time
}

// Create makes the shipment req in the account (docs/shipments.md): a read
// of the order and one transaction with every effect, tried again when the
// order changed meanwhile; then the stock the shipment released is offered
// to waiting orders (a failure there is logged: the shipment is made). The
// new shipment's id is req.Shipment.ID. A request that repeats one of the
// order's shipments (the same tracking number and items: a client's retry)
// ships nothing and answers that shipment's id: the transaction's mark of
// what a shipment ships refuses a second one, and a refusal for the order
// or the stock looks for the mark before it is an error.
func (s Service) Create(ctx context.Context, account string, req *Request) error {
	var freed []inventory.SKUWarehouse
	err := store.Retry(ctx, store.BusyAttempts, store.Raced, func() error {
		var err error
		freed, err = s.attempt(ctx, account, req)
		return err
	})
	if errors.Is(err, errRepeat) || errs.KindOf(err) == errs.KindInvalid {
		id, found, rerr := s.repeated(ctx, account, req)
		if _, client := errs.As(rerr); rerr != nil && (!client || errors.Is(err, errRepeat)) {
			return rerr // a refusal for the order's state keeps its place in the order of the checks
		}
		if found {
			req.Shipment.ID = id
			return nil
		}
	}
	if err != nil {
		return err
	}
	if len(freed) > 0 && s.Stock != nil {
		if err := s.Stock.StockAvailable(ctx, account, freed); err != nil {
			logctx.From(ctx).Error("allocate released stock", "error", err)
		}
	}
	return nil
}

// attempt makes one attempt at the shipment, returning the records where
// it released stock.
func (s Service) attempt(ctx context.Context, account string, req *Request) ([]inventory.SKUWarehouse, error) {
	cur, err := s.Orders.Get(ctx, account, req.Seq)
	if errs.KindOf(err) == errs.KindNotFound {
		return nil, errs.NotFound(MsgOrderNotFound)
	}
	if err != nil {
		return nil, err
	}
	if cur.Status != orders.StatusOpen {
		return nil, errs.Invalid(MsgNotOpen)
	}
	if req.Warehouse != "" && !store.ValidID(req.Warehouse) {
		return nil, errs.NotFound(warehouses.NotFoundMessage)
	}
	if req.invalid != nil {
		return nil, s.afterWarehouse(ctx, account, req, req.invalid)
	}
	method, err := carriers.RulesFor(cur.ChannelTypeDisplayName).Check(req.Shipment.CarrierGiven, req.Shipment.TrackingURL, req.Shipment.ShippingMethod)
	if err != nil {
		return nil, s.afterWarehouse(ctx, account, req, err)
	}
	req.Shipment.ShippingMethod = method
	next := cur.Clone()
	moves, err := applyShipment(&next, req.Items, req.Warehouse, "")
	if errors.Is(err, errNeedFallback) {
		whs, werr := s.Warehouses.ByPriority(ctx, account)
		if werr != nil {
			return nil, werr
		}
		if len(whs) == 0 {
			return nil, errs.Invalid("the account has no warehouse to ship unallocated items from")
		}
		next = cur.Clone()
		moves, err = applyShipment(&next, req.Items, "", whs[0].UUID)
	}
	if err != nil {
		return nil, s.afterWarehouse(ctx, account, req, err)
	}
	now := isotime.Format(s.now())
	next.ShippedAt = &now
	sh, records := record(req, cur, &next, moves, now)
	writes, err := s.shipmentWrites(account, sh, repeatOf(req.Shipment.CarrierGiven, req.Shipment.TrackingNumber, req.Items), moves, records)
	if err != nil {
		return nil, err
	}
	freed, err := s.Orders.SaveShipment(ctx, account, cur, &next, writes, covered(moves))
	if err != nil {
		return nil, shipFailure(err, len(writes), records)
	}
	return freed, nil
}

// repeated returns the id of the order's shipment that req repeats, if one
// does and req is valid on its own: its fields, its warehouse (in this
// account) and the order's channel's carrier rules, as a new shipment's
// would be. A repeat that is not is answered its error, never the first
// shipment's id. Only a request whose mark exists pays the checks' reads.
func (s Service) repeated(ctx context.Context, account string, req *Request) (string, bool, error) {
	id, found, err := findRepeat(ctx, s.Table, account, req.Seq, repeatOf(req.Shipment.CarrierGiven, req.Shipment.TrackingNumber, req.Items))
	if err != nil || !found {
		return "", false, err
	}
	if req.Warehouse != "" && !store.ValidID(req.Warehouse) {
		return "", false, errs.NotFound(warehouses.NotFoundMessage)
	}
	if err := s.afterWarehouse(ctx, account, req, req.invalid); err != nil {
		return "", false, err
	}
	o, err := s.Orders.Get(ctx, account, req.Seq)
	if err != nil {
		return "", false, err
	}
	if _, err := carriers.RulesFor(o.ChannelTypeDisplayName).Check(req.Shipment.CarrierGiven, req.Shipment.TrackingURL, req.Shipment.ShippingMethod); err != nil {
		return "", false, err
	}
	return id, true, nil
}

// errRepeat is the failure of a shipment whose order has a shipment of the
// same things (its mark exists).
var errRepeat = errors.New("the order has this shipment already")

// now is the time of a new shipment (Now, or time.Now).
func (s Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// afterWarehouse returns err, unless the named warehouse is unknown: that
// 404 comes first.
func (s Service) afterWarehouse(ctx context.Context, account string, req *Request, err error) error {
	if req.Warehouse == "" {
		return err
	}
	if _, gerr := s.Warehouses.Get(ctx, account, req.Warehouse); gerr != nil {
		return gerr
	}
	return err
}

// List returns a page of the shipments the filter selects, oldest first:
// one Query (of GSI1 for one order) from where the page starts
// (store.Table.PageOf), their number (a bounded count: -1 past it) and the
// next page's cursor.
func (s Service) List(ctx context.Context, account string, f Filter, p paging.Page) (paging.Listing[View], error) {
	recs, total, next, err := listPage(ctx, s.Table, account, f, p)
	if err != nil {
		return paging.Listing[View]{}, err
	}
	out := make([]View, 0, len(recs))
	for _, sh := range recs {
		out = append(out, sh.view())
	}
	return paging.Listing[View]{Items: out, Total: total, Next: next}, nil
}

// Carriers returns every preferred carrier with its aliases and shipping
// methods, by name.
func (s Service) Carriers() []carriers.Carrier { return carriers.List() }

// Track is channel sync's work on one account's stream records of a batch
// (called by the listings service, which owns the stream): it posts the
// tracking of new shipments, and of failed ones whose retry came, to the
// outbox, and schedules the retries of failed posts (push.Due). An error
// fails the account's records, which come again: a message may go twice
// (with the same deduplication id), never zero times.
func (s Service) Track(ctx context.Context, account string, changes []store.Change) error {
	for _, c := range changes {
		sc, ok, err := decodeShipmentChange(c)
		if err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		sh := sc.sh
		if sc.send {
			if err := s.Push.Send(ctx, account, group(account, sh.Seq), dedup(sh.ID, sh.Push), tracking(account, sh)); err != nil {
				return fmt.Errorf("send shipment.tracking: %w", err)
			}
		}
		if sc.retry {
			if err := s.Push.Schedule(ctx, account, sh.Attempts, Retry{Type: TypeRetry, ShipmentID: sh.ID, Attempt: sh.Attempts}); err != nil {
				return fmt.Errorf("retry shipment %s: %w", sh.ID, err)
			}
		}
	}
	return nil
}

// Confirm applies a connector's result for a shipment's tracking
// (push.Confirm): ok makes it synced, an error failed (retried from
// the stream). A shipment the account does not have, or of another
// channel, is ErrNotFound; a result for a synced shipment (a success
// reports nothing new for it) is push.ErrStale and changes nothing.
func (s Service) Confirm(ctx context.Context, account string, res Result) error {
	return s.update(ctx, account, res.ShipmentID, func(sh *Shipment) error {
		if sh.ChannelUUID != res.ChannelUUID {
			return ErrNotFound
		}
		if sh.SyncStatus == StatusSynced {
			return push.ErrStale
		}
		return push.Confirm(sh, push.Result{Version: sh.PushState().Version, OK: res.OK, Error: res.Error}, "the channel refused the tracking")
	})
}

// Resend posts a failed shipment's tracking again (the retry queue's
// delayed message): unless it was confirmed or failed again meanwhile
// (push.ErrStale), it counts one more push, which the stream sends.
func (s Service) Resend(ctx context.Context, account string, m Retry) error {
	return s.update(ctx, account, m.ShipmentID, func(sh *Shipment) error {
		return push.Resend(sh, push.Retry{Version: sh.PushState().Version, Attempt: m.Attempt})
	})
}

// update reads the shipment, changes it with change and saves it on the
// revision read, again when another write came between.
func (s Service) update(ctx context.Context, account, id string, change func(*Shipment) error) error {
	return store.Retry(ctx, store.BusyAttempts, store.Raced, func() error {
		sh, err := get(ctx, s.Table, account, id)
		if err != nil {
			return err
		}
		if sh == nil {
			return ErrNotFound
		}
		was := sh.SyncStatus
		if err := change(sh); err != nil {
			return err
		}
		return save(ctx, s.Table, account, sh, was)
	})
}
