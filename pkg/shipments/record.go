package shipments

import (
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// kindShipment is the partition of an account's shipments.
const kindShipment = "SHP"

// Shipment is a stored shipment.
type Shipment struct {
	ID             string  `json:"shipment_id" dynamodbav:"shipment_id"`
	Seq            int64   `json:"sb_order_seq" dynamodbav:"sb_order_seq"`
	CarrierName    string  `json:"carrier_name" dynamodbav:"carrier_name"`
	CarrierGiven   string  `json:"carrier_name_given" dynamodbav:"carrier_name_given"`
	TrackingNumber string  `json:"tracking_number" dynamodbav:"tracking_number"`
	TrackingURL    *string `json:"tracking_url" dynamodbav:"tracking_url"`
	ShippingMethod *string `json:"shipping_method" dynamodbav:"shipping_method"`
	WarehouseUUID  *string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Items          []Line  `json:"items" dynamodbav:"items"`
	CreatedAt      string  `json:"created_at" dynamodbav:"created_at"`
}

// Line is what left one warehouse for one inventory SKU.
type Line struct {
	SKU           string `json:"sku" dynamodbav:"sku"`
	WarehouseUUID string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Quantity      int    `json:"quantity" dynamodbav:"quantity"`
}

// shipmentWrites are the transaction items of the shipment besides the
// order: one inventory.Ship per record, the shipment record, and a check
// that the named warehouse exists. records names the Ship items in order.
func (s Service) shipmentWrites(account string, req *shipRequest, moves map[allocation.Record]move, now string) ([]store.Write, []allocation.Record, error) {
	records := make([]allocation.Record, 0, len(moves))
	for r := range moves {
		records = append(records, r)
	}
	sort.Slice(records, func(i, j int) bool { return describe(records[i]) < describe(records[j]) })
	var extra []store.Write
	sh := req.Shipment
	sh.Seq, sh.CreatedAt, sh.Items = req.Seq, now, []Line{}
	for _, r := range records {
		m := moves[r]
		extra = append(extra, inventory.Service{Table: s.Table}.Ship(account, r.SKU, r.Warehouse, m.Qty, m.FromReserved))
		sh.Items = append(sh.Items, Line{SKU: r.SKU, WarehouseUUID: r.Warehouse, Quantity: m.Qty})
	}
	item, err := attributevalue.MarshalMap(sh)
	if err != nil {
		return nil, nil, fmt.Errorf("marshal shipment: %w", err)
	}
	for k, v := range store.Key(store.PK(account, kindShipment), sh.ID) {
		item[k] = v
	}
	extra = append(extra, store.Put(item, "attribute_not_exists(PK)", nil))
	if req.Warehouse != "" {
		extra = append(extra, warehouses.Service{Table: s.Table}.Exists(account, req.Warehouse))
	}
	return extra, records, nil
}
