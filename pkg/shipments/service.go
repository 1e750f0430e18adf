package shipments

import (
	"context"
	"errors"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Service makes shipments.
type Service struct {
	Table store.Table
	// Stock is told the records where a shipment released stock (given
	// back allocations), to allocate it to waiting orders: the orders
	// service, wired in pkg/app. Nil: the stock waits for the next change.
	Stock inventory.StockListener
}

// Create makes the shipment req in the account (docs/shipments.md): a read
// of the order and one transaction with every effect, tried again when the
// order changed meanwhile; then the stock the shipment released is offered
// to waiting orders (a failure there is logged: the shipment is made). The
// new shipment's id is req.Shipment.ID.
func (s Service) Create(ctx context.Context, account string, req *Request) error {
	var freed []inventory.SKUWarehouse
	err := orders.Retry(ctx, func() error {
		var err error
		freed, err = s.attempt(ctx, account, req)
		return err
	})
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
	ordersSvc := orders.Service{Table: s.Table}
	cur, err := ordersSvc.Get(ctx, account, req.Seq)
	if errors.Is(err, orders.ErrNotFound) {
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
	next := cur.Clone()
	moves, err := applyShipment(&next, req.Items, req.Warehouse, "")
	if errors.Is(err, errNeedFallback) {
		whs, werr := warehouses.Service{Table: s.Table}.ByPriority(ctx, account)
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
	now := isotime.Format(time.Now())
	next.ShippedAt = &now
	sh, records := record(req, moves, now)
	writes, err := s.shipmentWrites(account, sh, moves, records)
	if err != nil {
		return nil, err
	}
	freed, err := ordersSvc.SaveShipment(ctx, account, cur, &next, writes, covered(moves))
	if err != nil {
		return nil, shipFailure(err, len(writes), records)
	}
	return freed, nil
}

// afterWarehouse returns err, unless the named warehouse is unknown: that
// 404 comes first.
func (s Service) afterWarehouse(ctx context.Context, account string, req *Request, err error) error {
	if req.Warehouse == "" {
		return err
	}
	if _, gerr := (warehouses.Service{Table: s.Table}).Get(ctx, account, req.Warehouse); errors.Is(gerr, warehouses.ErrNotFound) {
		return errs.NotFound(warehouses.NotFoundMessage)
	} else if gerr != nil {
		return gerr
	}
	return err
}
