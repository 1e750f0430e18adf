package ebay

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/connectors"
)

// rules are multisell's carrier rules of eBay (docs/shipments.md).
var rules = carriers.RulesFor("eBay")

// PostTracking implements connectors.Connector: one createShippingFulfillment on the order
// with the shipment's lines (their order_item_ref is eBay's lineItemId) and quantities, the
// carrier code of the shipment's carrier under eBay's rules, the tracking number and the
// shipped date. The push is idempotent: when eBay refuses it (the lines are shipped
// already) or its answer is lost, getShippingFulfillments tells whether the order holds the
// same tracking on the shipment's lines, and then it is done; otherwise eBay's failure stands.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	in, err := fulfillment(t)
	if err != nil {
		return err
	}
	path := "/sell/fulfillment/v1/order/" + url.PathEscape(t.DisplayRef) + "/shipping_fulfillment"
	_, err = call(ctx, s, OpFulfillment, http.MethodPost, path, in)
	var ae *connectors.AuthError
	if err == nil || errors.As(err, &ae) || ctx.Err() != nil {
		return err
	}
	if done, lookErr := posted(ctx, s, path, in); lookErr != nil || !done {
		return err
	}
	return nil
}

// posted reports whether the order's shipping fulfillments already hold the fulfillment's
// tracking number (with its carrier, when eBay tells it) on each of its lines.
func posted(ctx context.Context, s *connectors.Session, path string, in ShippingFulfillmentDetails) (bool, error) {
	fs, err := fulfillments(ctx, s, path)
	if err != nil {
		return false, err
	}
	return holds(fs, in), nil
}

// fulfillments are an order's shipping fulfillments (getShippingFulfillments at path).
func fulfillments(ctx context.Context, s *connectors.Session, path string) ([]ShippingFulfillment, error) {
	resp, err := call(ctx, s, OpFulfillment, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var got ShippingFulfillmentPagedCollection
	if err := connectors.DecodeAnswer("ebay", "getShippingFulfillments", resp.Body, &got); err != nil {
		return nil, err
	}
	return got.Fulfillments, nil
}

// holds reports whether fulfillments with in's tracking number and carrier cover each of
// in's lines.
func holds(fulfillments []ShippingFulfillment, in ShippingFulfillmentDetails) bool {
	if in.TrackingNumber == "" {
		return false
	}
	covered := map[string]bool{}
	for _, f := range fulfillments {
		if f.ShipmentTrackingNumber != in.TrackingNumber ||
			(f.ShippingCarrierCode != "" && !strings.EqualFold(f.ShippingCarrierCode, in.ShippingCarrierCode)) {
			continue
		}
		for _, li := range f.LineItems {
			covered[li.LineItemID] = true
		}
	}
	for _, li := range in.LineItems {
		if !covered[li.LineItemID] {
			return false
		}
	}
	return true
}

// fulfillment is the shipping fulfillment of a shipment.
func fulfillment(t connectors.Tracking) (ShippingFulfillmentDetails, error) {
	if len(t.Items) == 0 {
		return ShippingFulfillmentDetails{}, errors.New("ebay shipping fulfillment: the shipment has no lines")
	}
	out := ShippingFulfillmentDetails{ShippingCarrierCode: CarrierCode(t.CarrierName), TrackingNumber: t.TrackingNumber}
	if at, err := time.Parse(time.RFC3339Nano, t.ShippedAt); err == nil {
		out.ShippedDate = at.UTC().Format(TimeFormat)
	}
	for _, it := range t.Items {
		out.LineItems = append(out.LineItems, LineItemReference{LineItemID: it.OrderItemRef, Quantity: it.Quantity})
	}
	return out, nil
}

// CarrierCode is eBay's shippingCarrierCode of a carrier: its code in multisell's eBay
// carrier rules (eBay's ShippingCarrierCodeType: "Royal Mail" is RoyalMail, "Evri" Hermes), and
// Other, eBay's code for any carrier it does not list.
func CarrierCode(carrier string) string {
	return rules.Code(carrier)
}
