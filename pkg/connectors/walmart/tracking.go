package walmart

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/connectors"
)

// rules are multisell's carrier rules of Walmart (docs/shipments.md): Walmart's carrier list
// (carriers' walmartCodes), a tracking URL and a shipping method with any other carrier.
var rules = carriers.RulesFor("Walmart")

// MethodCodes are Walmart's shipping method codes (TrackingInfoType.methodCode).
var MethodCodes = []string{"Standard", "Express", "OneDay", "Freight", "WhiteGlove", "Value"}

// PostTracking implements connectors.Connector: one shippingUpdates on the purchase order
// with the shipment's lines only (their order_item_ref is Walmart's lineNumber), each with
// its quantity Shipped and the tracking: the ship time, Walmart's name of the carrier (or
// otherCarrier with the name given, for a carrier Walmart does not list), the method code
// and the tracking number and URL. The push is idempotent: when Walmart refuses it (the
// lines are shipped already) or its answer is lost, getAnOrder tells whether the lines show
// the same tracking number on the shipment's quantities, and then it is done; otherwise
// Walmart's refusal stands.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	in, err := shipment(t)
	if err != nil {
		return err
	}
	path := ordersPath + "/" + url.PathEscape(t.DisplayRef)
	_, err = call(ctx, s, OpShipping, http.MethodPost, path+"/shipping", in)
	var ae *connectors.AuthError
	var th *connectors.Throttled
	if err == nil || errors.As(err, &ae) || errors.As(err, &th) || ctx.Err() != nil {
		return err
	}
	resp, lookErr := call(ctx, s, OpOrders, http.MethodGet, path, nil)
	if lookErr != nil {
		return err
	}
	var got OrderAnswer
	if connectors.DecodeAnswer("walmart", "getAnOrder", resp.Body, &got) != nil || !shipped(got.Order, t) {
		return err
	}
	return nil
}

// shipment is the shippingUpdates body of a shipment.
func shipment(t connectors.Tracking) (Shipment, error) {
	var out Shipment
	if len(t.Items) == 0 {
		return out, errors.New("walmart shipping update: the shipment has no lines")
	}
	info := TrackingInfo{CarrierName: carrierName(t), MethodCode: MethodCode(t.ShippingMethod),
		TrackingNumber: t.TrackingNumber, TrackingURL: t.TrackingURL, ShipDateTime: now().UnixMilli()}
	if at, err := time.Parse(time.RFC3339Nano, t.ShippedAt); err == nil {
		info.ShipDateTime = at.UnixMilli()
	}
	for _, it := range t.Items {
		l := ShipLine{LineNumber: it.OrderItemRef, SellerOrderID: sellerOrderID(t.DisplayRef)}
		l.OrderLineStatuses.OrderLineStatus = []LineStatus{{Status: StatusShipped,
			StatusQuantity: Quantity{UnitOfMeasurement: "EACH", Amount: strconv.FormatInt(it.Quantity, 10)}, TrackingInfo: &info}}
		out.OrderShipment.OrderLines.OrderLine = append(out.OrderShipment.OrderLines.OrderLine, l)
	}
	return out, nil
}

// sellerOrderID is the sellerOrderId of a purchase order's shipment lines (Walmart prints
// it on the return label; at most 30 characters): the purchase order id.
func sellerOrderID(po string) string {
	if len(po) > 30 {
		return po[:30]
	}
	return po
}

// carrierName is Walmart's carrier of a shipment: its name in Walmart's list under the
// carrier rules, else otherCarrier with the name the merchant gave.
func carrierName(t connectors.Tracking) CarrierName {
	given := t.CarrierNameGiven
	if given == "" {
		given = t.CarrierName
	}
	if rules.Carrier(given) == carriers.Other {
		return CarrierName{OtherCarrier: strings.TrimSpace(given)}
	}
	return CarrierName{Carrier: rules.Code(given)}
}

// methodWords are the words of a carrier's shipping method that say which of Walmart's
// method codes it is, looked for in order.
var methodWords = []struct {
	code  string
	words []string
}{
	{"Freight", []string{"freight", "ltl"}},
	{"WhiteGlove", []string{"white glove", "whiteglove"}},
	{"OneDay", []string{"next day", "overnight", "one day", "1 day", "same day"}},
	{"Express", []string{"2nd day", "2day", "2 day", "3 day", "express", "priority", "expedited", "sunrise"}},
	{"Value", []string{"media mail", "surepost", "economy", "value", "parcel select", "saver"}},
}

// MethodCode is Walmart's method code of a shipment's shipping method: the code itself when
// the merchant gave one, else the code its words say (a UPS Next Day Air is OneDay, a FedEx
// 2Day Express, USPS Media Mail Value), else Standard.
func MethodCode(method string) string {
	m := strings.ToLower(strings.TrimSpace(method))
	for _, c := range MethodCodes {
		if strings.EqualFold(m, c) {
			return c
		}
	}
	for _, mw := range methodWords {
		for _, w := range mw.words {
			if strings.Contains(m, w) {
				return mw.code
			}
		}
	}
	return "Standard"
}

// shipped reports whether the order's lines show the tracking's number Shipped (or later) on
// at least the shipment's quantity of each of its lines.
func shipped(o Order, t connectors.Tracking) bool {
	have := map[string]int64{}
	for _, l := range o.OrderLines.OrderLine {
		for _, st := range l.OrderLineStatuses.OrderLineStatus {
			if st.TrackingInfo == nil || st.TrackingInfo.TrackingNumber != t.TrackingNumber {
				continue
			}
			n, _ := strconv.ParseInt(strings.TrimSpace(st.StatusQuantity.Amount), 10, 64)
			have[l.LineNumber] += n
		}
	}
	for _, it := range t.Items {
		if have[it.OrderItemRef] < it.Quantity {
			return false
		}
	}
	return true
}
