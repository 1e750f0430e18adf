package etsy

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/connectors"
)

// rules are multisell's carrier rules of Etsy (docs/shipments.md).
var rules = carriers.RulesFor("Etsy")

// PostTracking implements connectors.Connector: one createReceiptShipment on the receipt
// (its display_ref) with the tracking code and the carrier's name in Etsy's list ("other",
// Etsy's rule for a carrier it does not support). Etsy's shipments are the receipt's, not a
// line's: each posted tracking is one more shipment of the receipt, which Etsy marks shipped
// whole, so a partial shipment's tracking reaches the buyer and the receipt shows shipped.
// The post is idempotent: the receipt is read first (getShopReceipt), and a shipment with
// the same tracking code (or, for a shipment without one, a receipt shipped already) means
// it was posted.
func (c *connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	id, err := strconv.ParseInt(t.DisplayRef, 10, 64)
	if err != nil || id < 1 {
		return fmt.Errorf("etsy tracking: %q is not an Etsy receipt id", t.DisplayRef)
	}
	path := shopPath(s) + "/receipts/" + strconv.FormatInt(id, 10)
	resp, err := call(ctx, s, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	var r ShopReceipt
	if err := connectors.DecodeAnswer("etsy", "getShopReceipt", resp.Body, &r); err != nil {
		return err
	}
	if posted(r, t.TrackingNumber) {
		return nil
	}
	form := url.Values{}
	if t.TrackingNumber != "" {
		form.Set("tracking_code", t.TrackingNumber)
		form.Set("carrier_name", CarrierName(t.CarrierName))
	}
	_, err = call(ctx, s, http.MethodPost, path+"/tracking", form)
	return err
}

// posted reports whether the receipt holds the tracking code already (a receipt shipped,
// for a shipment without one).
func posted(r ShopReceipt, tracking string) bool {
	if tracking == "" {
		return r.IsShipped
	}
	for _, sh := range r.Shipments {
		if sh.TrackingCode == tracking {
			return true
		}
	}
	return false
}

// CarrierName is Etsy's carrier_name of a carrier: its name in Etsy's list of supported
// carriers (multisell's Etsy carrier rules: "Royal Mail" is royal-mail), and "other", Etsy's
// name for a carrier it does not support.
func CarrierName(carrier string) string {
	return rules.Code(carrier)
}
