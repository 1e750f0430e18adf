package connectorsim

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/wire"
)

// Channel is a simulated channel of one account: the file
// <dir>/<account_id>/<channel_uuid>.json.
type Channel struct {
	AccountID   string `json:"account_id"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelType string `json:"channel_type,omitempty"`
	// Listings are by channel SKU.
	Listings map[string]Listing `json:"listings"`
	// Shipments are the tracking posted, by shipment id.
	Shipments map[string]Shipment `json:"shipments"`
}

// Listing is a listing on the simulated channel.
type Listing struct {
	ListingRef string `json:"listing_ref"`
	// Quantity is what the channel shows.
	Quantity int64 `json:"quantity"`
	// Version is the version of the last quantity applied.
	Version   int64     `json:"version"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Shipment is the tracking posted for an order.
type Shipment struct {
	DisplayRef       string              `json:"display_ref"`
	CarrierName      string              `json:"carrier_name"`
	CarrierNameGiven string              `json:"carrier_name_given,omitempty"`
	TrackingNumber   string              `json:"tracking_number"`
	TrackingURL      string              `json:"tracking_url,omitempty"`
	ShippingMethod   string              `json:"shipping_method,omitempty"`
	Items            []wire.TrackingItem `json:"items"`
	ShippedAt        string              `json:"shipped_at"`
	PostedAt         time.Time           `json:"posted_at"`
}

// channelPath is where a channel's file is. account and channel have matched idPattern.
func channelPath(dir, account, channel string) string {
	return filepath.Join(dir, account, channel+".json")
}

// LoadChannel reads the simulated channel of an account from the state directory dir; a
// channel without a file is empty.
func LoadChannel(dir, account, channel string) (*Channel, error) {
	if !idPattern.MatchString(account) || !idPattern.MatchString(channel) {
		return nil, fmt.Errorf("load channel: %q/%q is not an account and a channel id", account, channel)
	}
	ch := &Channel{AccountID: account, ChannelUUID: channel}
	data, err := os.ReadFile(channelPath(dir, account, channel))
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("load channel: %w", err)
	default:
		if err := json.Unmarshal(data, ch); err != nil {
			return nil, fmt.Errorf("load channel %s: %w", channelPath(dir, account, channel), err)
		}
		ch.AccountID, ch.ChannelUUID = account, channel
	}
	if ch.Listings == nil {
		ch.Listings = map[string]Listing{}
	}
	if ch.Shipments == nil {
		ch.Shipments = map[string]Shipment{}
	}
	return ch, nil
}

// save writes the channel's file atomically: a temporary file in the same folder, synced,
// then renamed over the old one, so a reader or a crash sees the old file or the new one.
func (ch *Channel) save(dir string) (err error) {
	path := channelPath(dir, ch.AccountID, ch.ChannelUUID)
	data, err := json.MarshalIndent(ch, "", "  ")
	if err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+ch.ChannelUUID+".*.tmp")
	if err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	defer func() {
		if err != nil {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("save channel: %w", err)
	}
	return nil
}

// applyQuantity applies a quantity message to the channel and returns the answer and
// whether the channel changed. A version the listing already has (or an older one) changes
// nothing and is answered ok with the current quantity; otherwise fail, asked only then,
// decides whether the channel refuses the update.
func (ch *Channel) applyQuantity(m *wire.QuantityMessage, fail func() bool, now time.Time) (wire.ListingResult, bool) {
	l, had := ch.Listings[m.ChannelSKU]
	res := wire.ListingResult{
		Type: wire.TypeListingResult, ChannelUUID: m.ChannelUUID, ChannelSKU: m.ChannelSKU,
		Version: m.Version, ChannelQuantity: new(l.Quantity),
	}
	switch {
	case had && m.Version <= l.Version:
		res.OK = true
		return res, false
	case m.Quantity < 0:
		res.Error = fmt.Sprintf("quantity %d is negative", m.Quantity)
		return res, false
	case fail():
		res.Error = SimulatedError
		return res, false
	}
	if m.ListingRef != nil && *m.ListingRef != "" {
		l.ListingRef = *m.ListingRef
	}
	l.Quantity, l.Version, l.UpdatedAt = m.Quantity, m.Version, now.UTC()
	ch.Listings[m.ChannelSKU] = l
	if m.ChannelType != "" {
		ch.ChannelType = m.ChannelType
	}
	res.OK, res.ChannelQuantity = true, new(l.Quantity)
	return res, true
}

// applyTracking posts a shipment's tracking and returns the answer and whether the channel
// changed. The same tracking twice is answered ok and changes nothing; different tracking
// for a shipment already posted replaces it (a correction).
func (ch *Channel) applyTracking(m *wire.TrackingMessage, fail func() bool, now time.Time) (wire.ShipmentResult, bool) {
	res := wire.ShipmentResult{Type: wire.TypeShipmentResult, ChannelUUID: m.ChannelUUID, ShipmentID: m.ShipmentID}
	s := Shipment{
		DisplayRef: m.DisplayRef, CarrierName: m.CarrierName, CarrierNameGiven: m.CarrierNameGiven,
		TrackingNumber: m.TrackingNumber, TrackingURL: text(m.TrackingURL), ShippingMethod: text(m.ShippingMethod),
		Items: slices.Clone(m.Items), ShippedAt: m.ShippedAt,
	}
	if s.Items == nil {
		s.Items = []wire.TrackingItem{}
	}
	if old, ok := ch.Shipments[m.ShipmentID]; ok {
		if sameShipment(old, s) {
			res.OK = true
			return res, false
		}
	}
	if fail() {
		res.Error = SimulatedError
		return res, false
	}
	if strings.HasPrefix(strings.ToUpper(m.TrackingNumber), RejectedTrackingPrefix) {
		res.Error = "the channel does not recognize tracking number " + m.TrackingNumber
		return res, false
	}
	s.PostedAt = now.UTC()
	ch.Shipments[m.ShipmentID] = s
	if m.ChannelType != "" {
		ch.ChannelType = m.ChannelType
	}
	res.OK = true
	return res, true
}

// sameShipment reports whether two postings carry the same tracking.
func sameShipment(a, b Shipment) bool {
	return a.DisplayRef == b.DisplayRef && a.CarrierName == b.CarrierName && a.CarrierNameGiven == b.CarrierNameGiven &&
		a.TrackingNumber == b.TrackingNumber && a.TrackingURL == b.TrackingURL && a.ShippingMethod == b.ShippingMethod &&
		a.ShippedAt == b.ShippedAt && slices.Equal(a.Items, b.Items)
}

// text is the string p points at, "" for nil (a key the message has as null).
func text(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
