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
// shipped date.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	in, err := fulfillment(t)
	if err != nil {
		return err
	}
	_, err = call(ctx, s, OpFulfillment, http.MethodPost, "/sell/fulfillment/v1/order/"+url.PathEscape(t.DisplayRef)+"/shipping_fulfillment", in)
	return err
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

// CarrierCode is eBay's shippingCarrierCode of a carrier: its name under multisell's eBay
// carrier rules, without spaces ("Royal Mail" is RoyalMail, "USPS" stays USPS).
func CarrierCode(carrier string) string {
	return strings.ReplaceAll(rules.Carrier(carrier), " ", "")
}
