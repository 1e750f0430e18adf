package shipments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Errors a connector's message can meet (logged and counted by the inbox).
var (
	// ErrStale is a result or retry for a shipment that was confirmed or
	// failed again meanwhile: it changes nothing.
	ErrStale = errors.New("stale: the shipment's tracking has moved on")
	// ErrNotFound is an unknown shipment (or another channel's).
	ErrNotFound error = errs.NotFound("Shipment not found")
)

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
	// Outbox is the channel outbox (FIFO, plain JSON); Retries the retry
	// queue (delayed messages).
	Outbox, Retries queue.Sender
	// RetryBase is the wait before the first retry of a failed post
	// (doubled per attempt); queue.DefaultRetryBase when zero.
	RetryBase time.Duration
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
	err := orders.Retry(ctx, func() error {
		var err error
		freed, err = s.attempt(ctx, account, req)
		return err
	})
	if errors.Is(err, errRepeat) || errs.KindOf(err) == errs.KindInvalid {
		id, found, ferr := findRepeat(ctx, s.Table, account, req.Seq, repeatOf(req.Shipment.CarrierGiven, req.Shipment.TrackingNumber, req.Items))
		if ferr != nil {
			return ferr
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
	method, err := RulesFor(cur.ChannelTypeDisplayName).Check(req.Shipment.CarrierGiven, req.Shipment.TrackingURL, req.Shipment.ShippingMethod)
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
// (store.Table.Page), and their number (a bounded count: -1 past it).
func (s Service) List(ctx context.Context, account string, f Filter, p paging.Page) (paging.Listing[View], error) {
	recs, total, err := listPage(ctx, s.Table, account, f, p)
	if err != nil {
		return paging.Listing[View]{}, err
	}
	out := make([]View, 0, len(recs))
	for _, sh := range recs {
		out = append(out, sh.view())
	}
	return paging.Listing[View]{Items: out, Total: total}, nil
}

// Carriers returns every preferred carrier with its aliases and shipping
// methods, by name.
func (s Service) Carriers() []Carrier { return CarrierList() }

// Track is channel sync's work on one account's stream records of a batch
// (called by the listings service, which owns the stream): it posts the
// tracking of new shipments, and of failed ones whose retry came, to the
// outbox, and schedules the retries of failed posts. An error fails the
// account's records, which come again: a message may go twice (with the
// same deduplication id), never zero times.
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
			err := s.Outbox.SendMessage(ctx, queue.Message{
				Group: group(account, sh.Seq), Dedup: dedup(sh.ID, sh.Push), Account: account, Body: tracking(account, sh),
			})
			if err != nil {
				return fmt.Errorf("send shipment.tracking: %w", err)
			}
		}
		if sc.retry {
			err := s.Retries.SendMessage(ctx, queue.Message{
				Delay: queue.Backoff(s.RetryBase, sh.Attempts), Account: account,
				Body: Retry{Type: TypeRetry, ShipmentID: sh.ID, Attempt: sh.Attempts},
			})
			if err != nil {
				return fmt.Errorf("schedule a retry: %w", err)
			}
		}
	}
	return nil
}

// Confirm applies a connector's result for a shipment's tracking: ok makes
// it synced, an error failed (retried from the stream). A shipment the
// account does not have, or of another channel, is ErrNotFound; a failure
// for a synced shipment is ErrStale and changes nothing.
func (s Service) Confirm(ctx context.Context, account string, res Result) error {
	return s.update(ctx, account, res.ShipmentID, func(sh *Shipment) error {
		if sh.ChannelUUID != res.ChannelUUID {
			return ErrNotFound
		}
		switch {
		case res.OK && sh.SyncStatus == StatusSynced:
			return ErrStale
		case res.OK:
			sh.SyncStatus, sh.SyncError, sh.Attempts = StatusSynced, nil, 0
		case sh.SyncStatus == StatusSynced:
			return ErrStale
		default:
			msg := "the channel refused the tracking"
			if res.Error != nil && *res.Error != "" {
				msg = *res.Error
			}
			sh.SyncStatus, sh.SyncError = StatusFailed, &msg
			sh.Attempts++
		}
		return nil
	})
}

// Resend posts a failed shipment's tracking again (the retry queue's
// delayed message): unless it was confirmed or failed again meanwhile
// (ErrStale), it counts one more push, which the stream sends.
func (s Service) Resend(ctx context.Context, account string, m Retry) error {
	return s.update(ctx, account, m.ShipmentID, func(sh *Shipment) error {
		if sh.SyncStatus != StatusFailed || sh.Attempts != m.Attempt {
			return ErrStale
		}
		sh.Push++
		return nil
	})
}

// update reads the shipment, changes it with change and saves it on the
// revision read, again when another write came between.
func (s Service) update(ctx context.Context, account, id string, change func(*Shipment) error) error {
	return orders.Retry(ctx, func() error {
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
		if err := save(ctx, s.Table, account, sh, was); errors.Is(err, errRaced) {
			return orders.ErrRetry
		} else if err != nil {
			return err
		}
		return nil
	})
}
