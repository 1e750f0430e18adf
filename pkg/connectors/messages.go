package connectors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"strings"
)

// The outbox and inbox message types the runtime reads and answers (docs/channel-sync.md).
const (
	TypeListingQuantity  = "listing.quantity"
	TypeShipmentTracking = "shipment.tracking"
	TypeListingResult    = "listing.result"
	TypeShipmentResult   = "shipment.result"
)

// quantityMessage is an outbox listing.quantity.
type quantityMessage struct {
	AccountID   string `json:"account_id"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelType string `json:"channel_type"`
	ChannelSKU  string `json:"channel_sku"`
	ListingRef  string `json:"listing_ref"`
	Quantity    int64  `json:"quantity"`
	Version     int64  `json:"version"`
}

// trackingMessage is an outbox shipment.tracking.
type trackingMessage struct {
	AccountID      string         `json:"account_id"`
	ChannelUUID    string         `json:"channel_uuid"`
	ChannelType    string         `json:"channel_type"`
	DisplayRef     string         `json:"display_ref"`
	ShipmentID     string         `json:"shipment_id"`
	CarrierName    string         `json:"carrier_name"`
	TrackingNumber string         `json:"tracking_number"`
	TrackingURL    *string        `json:"tracking_url"`
	ShippingMethod *string        `json:"shipping_method"`
	Items          []TrackingItem `json:"items"`
	ShippedAt      string         `json:"shipped_at"`
}

// ListingResult is the inbox listing.result answering a listing.quantity.
type ListingResult struct {
	Type            string `json:"type"`
	ChannelUUID     string `json:"channel_uuid"`
	ChannelSKU      string `json:"channel_sku"`
	Version         int64  `json:"version"`
	OK              bool   `json:"ok"`
	Error           string `json:"error,omitempty"`
	ChannelQuantity *int64 `json:"channel_quantity,omitempty"`
}

// ShipmentResult is the inbox shipment.result answering a shipment.tracking.
type ShipmentResult struct {
	Type        string `json:"type"`
	ChannelUUID string `json:"channel_uuid"`
	ShipmentID  string `json:"shipment_id"`
	OK          bool   `json:"ok"`
	Error       string `json:"error,omitempty"`
}

// decodeOutbox reads an outbox message body into a *quantityMessage or a *trackingMessage;
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
	case TypeListingQuantity:
		m := &quantityMessage{}
		msg, account, channel, required = m, &m.AccountID, &m.ChannelUUID, "channel_sku, version"
		missing = func() bool { return m.ChannelSKU == "" || m.Version < 1 }
	case TypeShipmentTracking:
		m := &trackingMessage{}
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
func listingResults(msgs []*quantityMessage, results []QuantityResult) []ListingResult {
	by := make(map[string]QuantityResult, len(results))
	for _, r := range results {
		by[r.ChannelSKU] = r
	}
	out := make([]ListingResult, len(msgs))
	for i, m := range msgs {
		lr := ListingResult{Type: TypeListingResult, ChannelUUID: m.ChannelUUID, ChannelSKU: m.ChannelSKU, Version: m.Version}
		switch r, ok := by[m.ChannelSKU]; {
		case !ok:
			lr.Error = "the channel gave no result for this listing"
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
func failedListings(msgs []*quantityMessage, err error) []ListingResult {
	out := listingResults(msgs, nil)
	for i := range out {
		out[i].Error = err.Error()
	}
	return out
}

// tracking is the connector's view of a tracking message.
func (m *trackingMessage) tracking() Tracking {
	return Tracking{
		DisplayRef: m.DisplayRef, ShipmentID: m.ShipmentID, CarrierName: m.CarrierName,
		TrackingNumber: m.TrackingNumber, TrackingURL: deref(m.TrackingURL),
		ShippingMethod: deref(m.ShippingMethod), Items: m.Items, ShippedAt: m.ShippedAt,
	}
}

// deref is *p, or "" for nil.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
