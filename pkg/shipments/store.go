package shipments

import (
	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// kindShipment is the partition of an account's shipments (see
// docs/data-model.md).
const kindShipment = "SHP"

// shipmentWrites are the writes of shipment sh besides the order's, in
// this order: one inventory.Ship per record of records (the moves), the
// shipment record (which must be new), and, when sh names its warehouse, a
// check that the warehouse exists. shipFailure reads a cancellation by
// that order.
func (s Service) shipmentWrites(account string, sh Shipment, moves map[allocation.Record]move, records []allocation.Record) ([]store.Write, error) {
	stock := inventory.Service{Table: s.Table}
	var writes []store.Write
	for _, r := range records {
		m := moves[r]
		writes = append(writes, stock.Ship(account, r.SKU, r.Warehouse, m.Qty, m.FromReserved))
	}
	item, err := store.Marshal(sh, store.Key(store.PK(account, kindShipment), sh.ID))
	if err != nil {
		return nil, err
	}
	writes = append(writes, store.Put(item, "attribute_not_exists(PK)", nil))
	if sh.WarehouseUUID != nil {
		writes = append(writes, warehouses.Service{Table: s.Table}.Exists(account, *sh.WarehouseUUID))
	}
	return writes, nil
}

// shipFailure maps a failed shipment transaction of nWrites shipment
// writes (shipmentWrites) whose moves are at records: an unknown warehouse
// is 404, a record without the stock is 422, a change of the order is a
// retry.
func shipFailure(err error, nWrites int, records []allocation.Record) error {
	reasons := store.CancellationReasons(err)
	if len(reasons) < nWrites || reasons[0] == "ConditionalCheckFailed" || store.TransactionConflict(err) {
		return err
	}
	tail := reasons[len(reasons)-nWrites:]
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
