package orders

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/allocation"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Shipment error messages of spec 4.7.
const (
	MsgNoItems       = "Please include order items to be shipped"
	MsgOrderNotFound = "Order is not found."
	MsgNotOpen       = "Only open orders can be shipped"
)

// maxShipmentItems bounds a shipment's lines, so its effects fit in one
// transaction.
const maxShipmentItems = 50

// kindShipment is the partition of an account's shipments.
const kindShipment = "SHP"

// Shipment is a stored shipment.
type Shipment struct {
	ID             string         `json:"shipment_id" dynamodbav:"shipment_id"`
	Seq            int64          `json:"sb_order_seq" dynamodbav:"sb_order_seq"`
	CarrierName    string         `json:"carrier_name" dynamodbav:"carrier_name"`
	CarrierGiven   string         `json:"carrier_name_given" dynamodbav:"carrier_name_given"`
	TrackingNumber string         `json:"tracking_number" dynamodbav:"tracking_number"`
	TrackingURL    *string        `json:"tracking_url" dynamodbav:"tracking_url"`
	ShippingMethod *string        `json:"shipping_method" dynamodbav:"shipping_method"`
	WarehouseUUID  *string        `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Items          []ShipmentLine `json:"items" dynamodbav:"items"`
	CreatedAt      string         `json:"created_at" dynamodbav:"created_at"`
}

// ShipmentLine is what left one warehouse for one inventory SKU.
type ShipmentLine struct {
	SKU           string `json:"sku" dynamodbav:"sku"`
	WarehouseUUID string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Quantity      int    `json:"quantity" dynamodbav:"quantity"`
}

// shipRequest is a validated POST /shipments body.
type shipRequest struct {
	Seq       int64
	Warehouse string
	Shipment  Shipment
	Items     []shipItem
	// invalid is the first 422 of the fields, answered only once the order
	// and the warehouse are known to exist (DESIGN.md's order of checks).
	invalid error
}

// CreateShipment serves POST /shipments (spec 4.7, DESIGN.md section 6):
// one read of the order and one transaction with every effect (quantities,
// stock, allocations, statuses, the shipment record). Shipping unassigned
// units without a warehouse_uuid also reads the warehouse list.
func (s Service) CreateShipment(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	req, err := parseShipment(body)
	if err != nil {
		return nil, err
	}
	var freed []inventory.SKUWarehouse
	err = retry(ctx, func() error {
		var err error
		freed, err = s.ship(ctx, r.Account.ID, req)
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(freed) > 0 {
		if err := s.StockAvailable(ctx, r.Account.ID, freed); err != nil {
			api.Log(ctx).Error("allocate released stock", "error", err)
		}
	}
	return api.OK(map[string]string{"body": "Shipment created", "shipment_id": req.Shipment.ID}), nil
}

// ship makes one attempt at the shipment.
func (s Service) ship(ctx context.Context, account string, req *shipRequest) ([]inventory.SKUWarehouse, error) {
	cur, err := Get(ctx, s.Table, account, req.Seq)
	if errors.Is(err, ErrNotFound) {
		return nil, api.NotFound(MsgOrderNotFound)
	}
	if err != nil {
		return nil, err
	}
	if !cur.open() {
		return nil, api.Invalid(MsgNotOpen)
	}
	if req.Warehouse != "" && !store.ValidID(req.Warehouse) {
		return nil, api.NotFound(warehouses.NotFoundMessage)
	}
	if req.invalid != nil {
		return nil, s.afterWarehouse(ctx, account, req, req.invalid)
	}
	next := cur.clone()
	moves, err := applyShipment(&next, req.Items, req.Warehouse, "")
	if errors.Is(err, errNeedFallback) {
		whs, werr := warehouses.ByPriority(ctx, s.Table, account)
		if werr != nil {
			return nil, werr
		}
		if len(whs) == 0 {
			return nil, api.Invalid("the account has no warehouse to ship unallocated items from")
		}
		next = cur.clone()
		moves, err = applyShipment(&next, req.Items, "", whs[0].UUID)
	}
	if err != nil {
		return nil, s.afterWarehouse(ctx, account, req, err)
	}
	now := api.FormatTime(time.Now())
	next.ShippedAt = &now
	extra, records, err := s.shipmentWrites(account, req, moves, now)
	if err != nil {
		return nil, err
	}
	err = save(ctx, s.Table, account, cur, &next, extra, covered(moves))
	if err != nil {
		return nil, shipFailure(err, len(extra), records)
	}
	return released(cur, &next, covered(moves)), nil
}

// afterWarehouse returns err, unless the named warehouse is unknown: that
// 404 comes first.
func (s Service) afterWarehouse(ctx context.Context, account string, req *shipRequest, err error) error {
	if req.Warehouse == "" {
		return err
	}
	if _, gerr := warehouses.Get(ctx, s.Table, account, req.Warehouse); errors.Is(gerr, warehouses.ErrNotFound) {
		return api.NotFound(warehouses.NotFoundMessage)
	} else if gerr != nil {
		return gerr
	}
	return err
}

// shipmentWrites are the transaction items of the shipment besides the
// order: one inventory.Ship per record, the shipment record, and a check
// that the named warehouse exists. records names the Ship items in order.
func (s Service) shipmentWrites(account string, req *shipRequest, moves map[allocation.Record]move, now string) ([]types.TransactWriteItem, []allocation.Record, error) {
	records := make([]allocation.Record, 0, len(moves))
	for r := range moves {
		records = append(records, r)
	}
	sort.Slice(records, func(i, j int) bool { return describe(records[i]) < describe(records[j]) })
	var extra []types.TransactWriteItem
	sh := req.Shipment
	sh.Seq, sh.CreatedAt, sh.Items = req.Seq, now, []ShipmentLine{}
	for _, r := range records {
		m := moves[r]
		extra = append(extra, inventory.Ship(s.Table, account, r.SKU, r.Warehouse, m.Qty, m.FromReserved))
		sh.Items = append(sh.Items, ShipmentLine{SKU: r.SKU, WarehouseUUID: r.Warehouse, Quantity: m.Qty})
	}
	item, err := attributevalue.MarshalMap(sh)
	if err != nil {
		return nil, nil, fmt.Errorf("marshal shipment: %w", err)
	}
	for k, v := range store.Key(store.PK(account, kindShipment), sh.ID) {
		item[k] = v
	}
	extra = append(extra, types.TransactWriteItem{Put: &types.Put{
		TableName: s.Table.TableName(), Item: item, ConditionExpression: aws.String("attribute_not_exists(PK)"),
	}})
	if req.Warehouse != "" {
		extra = append(extra, types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
			TableName: s.Table.TableName(), Key: warehouses.Key(account, req.Warehouse),
			ConditionExpression: aws.String("attribute_exists(PK)"),
		}})
	}
	return extra, records, nil
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
		return api.NotFound(warehouses.NotFoundMessage)
	}
	for i, reason := range tail[:len(records)] {
		if reason == "ConditionalCheckFailed" {
			return &api.Error{Status: http.StatusUnprocessableEntity,
				Message: "Not enough stock to ship " + describe(records[i])}
		}
	}
	return err
}

// parseShipment validates a POST /shipments body in the order of DESIGN.md
// section 6 that needs no read: items first (400), then the fields.
func parseShipment(body api.Object) (*shipRequest, error) {
	sf := body.Field("shipment")
	sh, err := sf.Object()
	if err != nil {
		return nil, err
	}
	if sh == nil {
		sh = api.Object{}
	}
	elems, err := sh.Field("items").Array()
	if err != nil {
		return nil, err
	}
	if len(elems) == 0 {
		return nil, api.BadRequest(MsgNoItems)
	}
	req := &shipRequest{Shipment: Shipment{ID: store.NewID()}}
	seqField := sh.Field("sb_order_seq")
	seqText, err := seqField.String()
	if err != nil || seqText == nil {
		if err == nil {
			err = api.Invalid("shipment.sb_order_seq is required")
		}
		return nil, err
	}
	var ok bool
	if req.Seq, ok = ParseSeq(*seqText); !ok {
		return nil, api.NotFound(MsgOrderNotFound)
	}
	texts := []struct {
		name string
		dst  *string
		opt  **string
	}{
		{name: "carrier_name", dst: &req.Shipment.CarrierGiven},
		{name: "tracking_number", dst: &req.Shipment.TrackingNumber},
		{name: "warehouse_uuid", dst: &req.Warehouse},
		{name: "tracking_url", opt: &req.Shipment.TrackingURL},
		{name: "shipping_method", opt: &req.Shipment.ShippingMethod},
	}
	fail := func(err error) {
		if req.invalid == nil {
			req.invalid = err
		}
	}
	for _, tf := range texts {
		v, err := sh.Field(tf.name).String()
		if err != nil {
			fail(api.Invalid("shipment.%s must be a string", tf.name))
			continue
		}
		if v == nil || strings.TrimSpace(*v) == "" {
			if tf.dst != nil && tf.name != "warehouse_uuid" {
				fail(api.Invalid("shipment.%s is required", tf.name))
			}
			continue
		}
		if len(*v) > maxText {
			fail(api.Invalid("shipment.%s must be at most %d characters", tf.name, maxText))
			continue
		}
		t := strings.TrimSpace(*v)
		if tf.dst != nil {
			*tf.dst = t
		} else {
			*tf.opt = &t
		}
	}
	req.Shipment.CarrierName, _ = NormalizeCarrier(req.Shipment.CarrierGiven)
	if req.Warehouse != "" {
		req.Shipment.WarehouseUUID = &req.Warehouse
	}
	if len(elems) > maxShipmentItems {
		fail(api.Invalid("shipment.items may hold at most %d lines", maxShipmentItems))
	}
	for i, e := range elems {
		it, err := parseShipItem(e, i)
		if err != nil {
			fail(err)
		}
		req.Items = append(req.Items, it)
	}
	return req, nil
}

func parseShipItem(e api.Field, i int) (shipItem, error) {
	obj, err := e.Object()
	if err != nil || obj == nil {
		return shipItem{}, api.Invalid("items[%d] must be an object with sku and quantity", i)
	}
	sku, err := obj.Field("sku").String()
	if err != nil {
		return shipItem{}, api.Invalid("items[%d].sku must be a string", i)
	}
	if sku == nil {
		return shipItem{}, api.Invalid("items[%d].sku is required", i)
	}
	if err := api.CheckSKU(fmt.Sprintf("items[%d].sku", i), *sku); err != nil {
		return shipItem{}, err
	}
	q, err := obj.Field("quantity").Int()
	if err != nil || q == nil || *q < 1 || *q > maxQuantity {
		return shipItem{}, api.Invalid("items[%d].quantity must be an integer of at least 1", i)
	}
	return shipItem{SKU: *sku, Qty: int(*q)}, nil
}
