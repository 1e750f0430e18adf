package amazon

import (
	"context"
	"fmt"
	"hash/fnv"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/carriers"
	"github.com/multisell/multisell/pkg/connectors"
)

// carrierCodes are Amazon's carrier codes of the carriers' preferred names
// (docs/shipments.md); a carrier Amazon does not list goes as "Other" with its name.
var carrierCodes = map[string]string{
	"USPS": "USPS", "UPS": "UPS", "FedEx": "FedEx", "DHL": "DHL", "DHL eCommerce": "DHL eCommerce",
	"OnTrac": "OnTrac", "Amazon Logistics": "Amazon Shipping", "Canada Post": "Canada Post",
	"Purolator": "Purolator", "Royal Mail": "Royal Mail", "Parcelforce": "Parcelforce", "Evri": "Hermes UK",
	"DPD": "DPD", "GLS": "GLS", "Yodel": "Yodel", "Deutsche Post": "Deutsche Post", "La Poste": "La Poste",
	"PostNL": "PostNL", "Australia Post": "Australia Post", "Japan Post": "Japan Post", "China Post": "China Post",
	"TNT": "TNT", "Aramex": "Aramex",
}

// carrierCode is Amazon's carrierCode and carrierName of a shipment's carrier, by multisell's
// Amazon carrier rules: a carrier Amazon lists by its code, any other as Other with the name
// the merchant gave (the rules' name when none was given).
func carrierCode(name, given string) (code, carrierName string) {
	preferred := carriers.RulesFor("Amazon").Carrier(name)
	if c, ok := carrierCodes[preferred]; ok {
		return c, ""
	}
	if strings.TrimSpace(given) != "" {
		return "Other", given
	}
	return "Other", name
}

// packageReference is the packageReferenceId of a shipment: Amazon takes only a positive
// number (ordersV0 PackageReferenceId), so it is a number of 1 to 2^31-1 derived from the
// shipment's id alone (FNV-1a), the same at every retry; the shipment's UUID stays ours.
func packageReference(shipmentID string) string {
	h := fnv.New32a()
	_, _ = h.Write([]byte(shipmentID))
	return strconv.FormatUint(uint64(max(h.Sum32()&0x7fffffff, 1)), 10)
}

// PostTracking implements connectors.Connector: one confirmShipment of the order's package
// (packageReferenceId the number of the shipment's id, packageReference; the order item ids
// and quantities it carries, the carrier's code, the ship date).
func (c *Connector) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	cr := s.Credentials.(credentials)
	shipped, err := time.Parse(time.RFC3339, t.ShippedAt)
	if err != nil {
		return fmt.Errorf("amazon %s: shipped_at %q is not an ISO 8601 time", OpConfirmShipment, t.ShippedAt)
	}
	items := make([]map[string]any, len(t.Items))
	for i, it := range t.Items {
		items[i] = map[string]any{"orderItemId": it.OrderItemRef, "quantity": it.Quantity}
	}
	code, name := carrierCode(t.CarrierName, t.CarrierNameGiven)
	pkg := map[string]any{"packageReferenceId": packageReference(t.ShipmentID), "carrierCode": code, "trackingNumber": t.TrackingNumber,
		"shipDate": shipped.UTC().Format(time.RFC3339), "orderItems": items}
	if name != "" {
		pkg["carrierName"] = name
	}
	if t.ShippingMethod != "" {
		pkg["shippingMethod"] = t.ShippingMethod
	}
	_, err = call(ctx, s, OpConfirmShipment, "POST", "/orders/v0/orders/"+url.PathEscape(t.DisplayRef)+"/shipmentConfirmation", nil,
		map[string]any{"marketplaceId": cr.MarketplaceID, "packageDetail": pkg})
	return err
}
