package shipments

import (
	"sort"

	"github.com/multisell/multisell/pkg/allocation"
)

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

// record returns the shipment record of req, made at now with moves, and
// the records the moves take stock from, in a fixed order (the order of the
// record's lines and of the stock writes).
func record(req *Request, moves map[allocation.Record]move, now string) (Shipment, []allocation.Record) {
	records := make([]allocation.Record, 0, len(moves))
	for r := range moves {
		records = append(records, r)
	}
	sort.Slice(records, func(i, j int) bool { return describe(records[i]) < describe(records[j]) })
	sh := req.Shipment
	sh.Seq, sh.CreatedAt, sh.Items = req.Seq, now, []Line{}
	for _, r := range records {
		sh.Items = append(sh.Items, Line{SKU: r.SKU, WarehouseUUID: r.Warehouse, Quantity: moves[r].Qty})
	}
	return sh, records
}
