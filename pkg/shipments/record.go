package shipments

import (
	"sort"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/push"
)

// Sync statuses of a shipment's tracking (pkg/push).
const (
	// StatusPending: the tracking was sent, not confirmed yet.
	StatusPending = push.Pending
	// StatusSynced: the channel confirmed the tracking.
	StatusSynced = push.Synced
	// StatusFailed: the connector reported an error; the send is retried.
	StatusFailed = push.Failed
)

// statuses lists every sync status, for the filter's validation.
var statuses = []string{StatusPending, StatusSynced, StatusFailed}

// Shipment is a stored shipment: what the request gave, what left which
// warehouse, the order lines it carries as the channel knows them, and the
// state of its tracking's sync to the channel.
type Shipment struct {
	ID             string  `dynamodbav:"shipment_id"`
	Seq            int64   `dynamodbav:"sb_order_seq"`
	CarrierName    string  `dynamodbav:"carrier_name"`
	CarrierGiven   string  `dynamodbav:"carrier_name_given"`
	TrackingNumber string  `dynamodbav:"tracking_number"`
	TrackingURL    *string `dynamodbav:"tracking_url"`
	ShippingMethod *string `dynamodbav:"shipping_method"`
	WarehouseUUID  *string `dynamodbav:"warehouse_uuid"`
	// Items are what left which warehouse for which inventory SKU.
	Items     []Line `dynamodbav:"items"`
	CreatedAt string `dynamodbav:"created_at"`
	// ChannelUUID, ChannelType and DisplayRef are the order's channel, the
	// channel's type and the order's reference on it, copied for the
	// tracking message.
	ChannelUUID string `dynamodbav:"channel_uuid"`
	ChannelType string `dynamodbav:"channel_type"`
	DisplayRef  string `dynamodbav:"display_ref"`
	// OrderItems are the order lines the shipment carries, with the
	// quantity of each.
	OrderItems []OrderItem `dynamodbav:"order_items"`
	ShippedAt  string      `dynamodbav:"shipped_at"`
	// SyncStatus, SyncError, Attempts and Push are the push state of the
	// tracking (PushState).
	SyncStatus string  `dynamodbav:"sync_status"`
	SyncError  *string `dynamodbav:"sync_error"`
	Attempts   int64   `dynamodbav:"attempts"`
	Push       int64   `dynamodbav:"push"`
	// Rev counts the item's writes; each write is conditioned on the one it
	// read.
	Rev int64 `dynamodbav:"rev"`
}

// Line is what left one warehouse for one inventory SKU.
type Line struct {
	SKU           string `dynamodbav:"sku"`
	WarehouseUUID string `dynamodbav:"warehouse_uuid"`
	Quantity      int    `dynamodbav:"quantity"`
}

// OrderItem is an order line a shipment carries: the channel's reference
// of the line, its channel SKU, and how many of it the shipment carries.
type OrderItem struct {
	OrderItemRef string `dynamodbav:"order_item_ref"`
	SKU          string `dynamodbav:"sku"`
	// InventorySKU is the line's inventory SKU (nil: none), for the items
	// GET /shipments shows.
	InventorySKU *string `dynamodbav:"inventory_sku"`
	Quantity     int     `dynamodbav:"quantity"`
}

// View is a shipment as GET /shipments returns it.
type View struct {
	ID             string     `json:"shipment_id"`
	Seq            int64      `json:"sb_order_seq"`
	CarrierName    string     `json:"carrier_name"`
	CarrierGiven   string     `json:"carrier_name_given"`
	TrackingNumber string     `json:"tracking_number"`
	TrackingURL    *string    `json:"tracking_url"`
	ShippingMethod *string    `json:"shipping_method"`
	WarehouseUUID  *string    `json:"warehouse_uuid"`
	Items          []ViewItem `json:"items"`
	ShippedAt      string     `json:"shipped_at"`
	SyncStatus     string     `json:"sync_status"`
	SyncError      *string    `json:"sync_error"`
}

// ViewItem is how many units of one SKU a shipment carries: the inventory
// SKU of the lines, or the line's SKU for a line without one.
type ViewItem struct {
	SKU      string `json:"sku"`
	Quantity int    `json:"quantity"`
}

// view is the shipment as GET /shipments returns it.
func (sh *Shipment) view() View {
	v := View{
		ID: sh.ID, Seq: sh.Seq, CarrierName: sh.CarrierName, CarrierGiven: sh.CarrierGiven,
		TrackingNumber: sh.TrackingNumber, TrackingURL: sh.TrackingURL, ShippingMethod: sh.ShippingMethod,
		WarehouseUUID: sh.WarehouseUUID, Items: []ViewItem{}, ShippedAt: sh.ShippedAt,
		SyncStatus: sh.SyncStatus, SyncError: sh.SyncError,
	}
	if v.ShippedAt == "" {
		v.ShippedAt = sh.CreatedAt
	}
	if v.SyncStatus == "" {
		// Recorded before tracking went to channels: nothing is owed to the
		// channel any more (docs/shipments.md).
		v.SyncStatus = StatusSynced
	}
	at := map[string]int{}
	for _, it := range sh.OrderItems {
		code := it.SKU
		if it.InventorySKU != nil {
			code = *it.InventorySKU
		}
		i, ok := at[code]
		if !ok {
			i = len(v.Items)
			at[code] = i
			v.Items = append(v.Items, ViewItem{SKU: code})
		}
		v.Items[i].Quantity += it.Quantity
	}
	return v
}

// record returns the shipment record of req on the order cur, shipped as
// next at now with moves, and the records the moves take stock from, in a
// fixed order (the order of the record's lines and of the stock writes).
func record(req *Request, cur, next *orders.Order, moves map[allocation.Record]move, now string) (Shipment, []allocation.Record) {
	records := make([]allocation.Record, 0, len(moves))
	for r := range moves {
		records = append(records, r)
	}
	sort.Slice(records, func(i, j int) bool { return describe(records[i]) < describe(records[j]) })
	sh := req.Shipment
	sh.Seq, sh.CreatedAt, sh.ShippedAt, sh.Items = req.Seq, now, now, []Line{}
	for _, r := range records {
		sh.Items = append(sh.Items, Line{SKU: r.SKU, WarehouseUUID: r.Warehouse, Quantity: moves[r].Qty})
	}
	sh.ChannelUUID, sh.ChannelType, sh.DisplayRef = cur.ChannelUUID, cur.ChannelTypeDisplayName, cur.DisplayRef
	sh.OrderItems = []OrderItem{}
	for i, it := range next.Items {
		if q := it.QuantityFulfilled - cur.Items[i].QuantityFulfilled; q > 0 {
			sh.OrderItems = append(sh.OrderItems, OrderItem{OrderItemRef: it.OrderItemRef, SKU: it.SKU, InventorySKU: it.InventorySKU, Quantity: q})
		}
	}
	sh.SyncStatus = StatusPending
	return sh, records
}

// PushState is the push state of the shipment's tracking (push.Item): one
// version, as the tracking never changes. A shipment recorded before
// tracking went to channels has no status: a connector's result for it
// applies as to a pending one.
func (sh *Shipment) PushState() push.State {
	status := sh.SyncStatus
	if status == "" {
		status = StatusPending
	}
	return push.State{Status: status, Error: sh.SyncError, Version: 1, Attempts: sh.Attempts, Push: sh.Push}
}

// SetPushState stores st as the push state of the shipment's tracking.
func (sh *Shipment) SetPushState(st push.State) {
	sh.SyncStatus, sh.SyncError, sh.Attempts, sh.Push = st.Status, st.Error, st.Attempts, st.Push
}
