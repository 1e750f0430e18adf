package shipments

import (
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/orders"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
)

// Shipment error messages: the texts the API answers with
// (docs/shipments.md).
const (
	MsgNoItems       = "Please include order items to be shipped"
	MsgOrderNotFound = "Order is not found."
	MsgNotOpen       = "Only open orders can be shipped"
)

// Request limits.
const (
	// maxShipmentItems bounds a shipment's lines, so its effects fit in one
	// transaction.
	maxShipmentItems = 50
	// maxText bounds a text field, as it does an order's.
	maxText = 4096
	// maxQuantity bounds an item's quantity, as it does an order line's.
	maxQuantity = 1_000_000
)

// Request is a validated shipment request, the body of POST /shipments
// read by ParseShipment.
type Request struct {
	Seq       int64
	Warehouse string
	Shipment  Shipment
	Items     []shipItem
	// invalid is the first 422 of the fields, answered only once the order
	// and the warehouse are known to exist (the order of the checks in
	// docs/shipments.md).
	invalid error
}

// ParseShipment validates a POST /shipments body, read through pkg/lenient,
// in the order of the checks (docs/shipments.md) as far as they need no
// read: items first (400), then the fields.
func ParseShipment(body lenient.Object) (*Request, error) {
	sf := body.Field("shipment")
	sh, err := sf.Object()
	if err != nil {
		return nil, err
	}
	if sh == nil {
		sh = lenient.Object{}
	}
	elems, err := sh.Field("items").Array()
	if err != nil {
		return nil, err
	}
	if len(elems) == 0 {
		return nil, errs.Malformed(MsgNoItems)
	}
	req := &Request{Shipment: Shipment{ID: store.NewID()}}
	seqField := sh.Field("sb_order_seq")
	seqText, err := seqField.String()
	if err != nil || seqText == nil {
		if err == nil {
			err = errs.Invalid("shipment.sb_order_seq is required")
		}
		return nil, err
	}
	var ok bool
	if req.Seq, ok = orders.ParseSeq(*seqText); !ok {
		return nil, errs.NotFound(MsgOrderNotFound)
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
		f := sh.Field(tf.name)
		f.Name = "shipment." + tf.name
		v, err := f.String()
		if err != nil {
			fail(err)
			continue
		}
		if v == nil || strings.TrimSpace(*v) == "" {
			if tf.dst != nil && tf.name != "warehouse_uuid" {
				fail(errs.Invalid("shipment.%s is required", tf.name))
			}
			continue
		}
		if len(*v) > maxText {
			fail(errs.Invalid("shipment.%s must be at most %d characters", tf.name, maxText))
			continue
		}
		t := strings.TrimSpace(*v)
		if tf.dst != nil {
			*tf.dst = t
		} else {
			*tf.opt = &t
		}
	}
	req.Shipment.CarrierName, _ = carriers.Normalize(req.Shipment.CarrierGiven)
	if req.Warehouse != "" {
		req.Shipment.WarehouseUUID = &req.Warehouse
	}
	if len(elems) > maxShipmentItems {
		fail(errs.Invalid("shipment.items may hold at most %d lines", maxShipmentItems))
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

func parseShipItem(e lenient.Field, i int) (shipItem, error) {
	obj, err := e.Object()
	if err != nil || obj == nil {
		return shipItem{}, errs.Invalid("items[%d] must be an object with sku and quantity", i)
	}
	f := obj.Field("sku")
	f.Name = fmt.Sprintf("items[%d].sku", i)
	code, err := f.String()
	if err != nil {
		return shipItem{}, err
	}
	if code == nil {
		return shipItem{}, errs.Invalid("items[%d].sku is required", i)
	}
	if err := sku.Check(fmt.Sprintf("items[%d].sku", i), *code); err != nil {
		return shipItem{}, err
	}
	q, err := obj.Field("quantity").Int()
	if err != nil || q == nil || *q < 1 || *q > maxQuantity {
		return shipItem{}, errs.Invalid("items[%d].quantity must be an integer of at least 1", i)
	}
	return shipItem{SKU: *code, Qty: int(*q)}, nil
}
