package shipments

import (
	"context"
	"errors"

	"time"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Shipment error messages of spec 4.7.
const (
	MsgNoItems       = "Please include order items to be shipped"
	MsgOrderNotFound = "Order is not found."
	MsgNotOpen       = "Only open orders can be shipped"
)

// Handlers serves POST /shipments over the Service.
type Handlers struct{ Service }

// Service serves POST /shipments.
type Service struct {
	Table store.Table
	// Stock is told the records where a shipment released stock (given
	// back allocations), to allocate it to waiting orders: the orders
	// service, wired in pkg/app. Nil: the stock waits for the next change.
	Stock inventory.StockListener
}

// Create serves POST /shipments (spec 4.7, DESIGN.md section 6): one read
// of the order and one transaction with every effect (quantities, stock,
// allocations, statuses, the shipment record). Shipping unassigned units
// without a warehouse_uuid also reads the warehouse list.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	req, err := parseShipment(body)
	if err != nil {
		return nil, err
	}
	var freed []inventory.SKUWarehouse
	err = orders.Retry(ctx, func() error {
		var err error
		freed, err = h.ship(ctx, r.Account.ID, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(freed) > 0 && h.Stock != nil {
		if err := h.Stock.StockAvailable(ctx, r.Account.ID, freed); err != nil {
			logctx.From(ctx).Error("allocate released stock", "error", err)
		}
	}
	return api.OK(map[string]string{"body": "Shipment created", "shipment_id": req.Shipment.ID}), nil
}

// ship makes one attempt at the shipment.
func (s Service) ship(ctx context.Context, account string, req *shipRequest) ([]inventory.SKUWarehouse, error) {
	cur, err := orders.Service{Table: s.Table}.Get(ctx, account, req.Seq)
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
	extra, records, err := s.shipmentWrites(account, req, moves, now)
	if err != nil {
		return nil, err
	}
	freed, err := orders.Service{Table: s.Table}.SaveShipment(ctx, account, cur, &next, extra, covered(moves))
	if err != nil {
		return nil, shipFailure(err, len(extra), records)
	}
	return freed, nil
}

// afterWarehouse returns err, unless the named warehouse is unknown: that
// 404 comes first.
func (s Service) afterWarehouse(ctx context.Context, account string, req *shipRequest, err error) error {
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

// shipFailure maps a failed shipment transaction: an unknown warehouse is
// 404, a record without the stock is 422, a change of the order is a retry.
func shipFailure(err error, nExtra int, records []allocation.Record) error {
	reasons := store.CancellationReasons(err)
	if len(reasons) < nExtra || reasons[0] == "ConditionalCheckFailed" || store.TransactionConflict(err) {
		return err
	}
	tail := reasons[len(reasons)-nExtra:]
	if len(tail) > len(records)+1 && tail[len(records)+1] == "ConditionalCheckFailed" {
		return errs.NotFound(warehouses.NotFoundMessage)
	}
	for i, reason := range tail[:len(records)] {
		if reason == "ConditionalCheckFailed" {
			return errs.Invalid("Not enough stock to ship %s", describe(records[i]))
		}
	}
	return err
}
