package connectors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/wire"
)

// The outbox messages the runtime reads and the results it answers are pkg/wire's
// (docs/channel-sync.md).

// decodeOutbox reads an outbox message body into a *wire.QuantityMessage or a
// *wire.TrackingMessage;
// attrAccount (the account_id attribute) stands for an account the body lacks. An error means
// the message can never be applied.
func decodeOutbox(body, attrAccount string) (any, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(body), &head); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var (
		msg      any
		account  *string
		channel  *string
		required string
		missing  func() bool
	)
	switch head.Type {
	case wire.TypeListingQuantity:
		m := &wire.QuantityMessage{}
		msg, account, channel, required = m, &m.AccountID, &m.ChannelUUID, "channel_sku, version"
		missing = func() bool { return m.ChannelSKU == "" || m.Version < 1 }
	case wire.TypeShipmentTracking:
		m := &wire.TrackingMessage{}
		msg, account, channel, required = m, &m.AccountID, &m.ChannelUUID, "shipment_id, display_ref"
		missing = func() bool { return m.ShipmentID == "" || m.DisplayRef == "" }
	default:
		return nil, fmt.Errorf("unknown type %q", head.Type)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(body)))
	if err := dec.Decode(msg); err != nil {
		return nil, fmt.Errorf("%s: %w", head.Type, err)
	}
	if *account == "" {
		*account = attrAccount
	}
	switch {
	case *account == "":
		return nil, fmt.Errorf("%s: no account_id", head.Type)
	case *account != attrAccount && attrAccount != "":
		return nil, fmt.Errorf("%s: account_id differs from the message attribute", head.Type)
	case strings.TrimSpace(*channel) == "":
		return nil, fmt.Errorf("%s: no channel_uuid", head.Type)
	case missing():
		return nil, fmt.Errorf("%s: %s required", head.Type, required)
	}
	return msg, nil
}

// listingResults answers each quantity message from the results of the batch that carried
// its channel SKU (results by channel SKU); a message without a result is failed.
func listingResults(msgs []*wire.QuantityMessage, results []QuantityResult) []wire.ListingResult {
	by := make(map[string]QuantityResult, len(results))
	for _, r := range results {
		by[r.ChannelSKU] = r
	}
	out := make([]wire.ListingResult, len(msgs))
	for i, m := range msgs {
		lr := wire.ListingResult{Type: wire.TypeListingResult, ChannelUUID: m.ChannelUUID, ChannelSKU: m.ChannelSKU, Version: m.Version}
		r, ok := by[m.ChannelSKU]
		lr.ListingRef = r.ListingRef
		switch {
		case !ok:
			lr.Error = "the channel gave no result for this listing"
		case r.Off != "":
			lr.Error, lr.Off = r.Off, r.Off
		case r.OK:
			lr.OK, lr.ChannelQuantity = true, &r.ChannelQuantity
		default:
			lr.Error = cmp.Or(r.Error, "the channel refused the quantity")
		}
		out[i] = lr
	}
	return out
}

// failedListings answers each quantity message with the error err.
func failedListings(msgs []*wire.QuantityMessage, err error) []wire.ListingResult {
	out := listingResults(msgs, nil)
	for i := range out {
		out[i].Error = err.Error()
	}
	return out
}

// trackingOf is the connector's view of a tracking message.
func trackingOf(m *wire.TrackingMessage) Tracking {
	items := make([]TrackingItem, len(m.Items))
	for i, it := range m.Items {
		items[i] = TrackingItem{OrderItemRef: it.OrderItemRef, SKU: it.SKU, Quantity: int64(it.Quantity)}
	}
	return Tracking{
		DisplayRef: m.DisplayRef, ShipmentID: m.ShipmentID, CarrierName: m.CarrierName, CarrierNameGiven: m.CarrierNameGiven,
		TrackingNumber: m.TrackingNumber, TrackingURL: deref(m.TrackingURL),
		ShippingMethod: deref(m.ShippingMethod), Items: items, ShippedAt: m.ShippedAt,
	}
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
