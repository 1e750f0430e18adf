package wire

// The message types of the channel queues (docs/channel-sync.md): what the outbox asks of a
// channel, and what a connector sends to the inbox.
const (
	// TypeListingQuantity is a QuantityMessage (outbox).
	TypeListingQuantity = "listing.quantity"
	// TypeShipmentTracking is a TrackingMessage (outbox).
	TypeShipmentTracking = "shipment.tracking"
	// TypeListingResult is a ListingResult (inbox).
	TypeListingResult = "listing.result"
	// TypeShipmentResult is a ShipmentResult (inbox).
	TypeShipmentResult = "shipment.result"
	// TypeListing is a connector's report of a listing the channel has (inbox).
	TypeListing = "listing"
	// TypeOrder is an order import document (inbox), also what a message without a type is.
	TypeOrder = "order"
)

// Header is what every outbox message starts with: what it is (its type), the account and
// the channel it is for, so a connector can route it before reading the rest. A message
// embeds it first.
type Header struct {
	Type        string `json:"type"`
	AccountID   string `json:"account_id"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelType string `json:"channel_type"`
}

// PushHeader returns h: a message that embeds a Header has it.
func (h Header) PushHeader() Header { return h }

// QuantityMessage is the outbox's listing.quantity message: set the listing's quantity on
// the channel.
type QuantityMessage struct {
	Header
	ChannelSKU string  `json:"channel_sku"`
	ListingRef *string `json:"listing_ref"`
	SKU        *string `json:"sku"`
	Quantity   int64   `json:"quantity"`
	// ChannelQuantity is what the channel last reported showing (null: never reported), for
	// channels that set a quantity only over the one last seen.
	ChannelQuantity *int64 `json:"channel_quantity"`
	Version         int64  `json:"version"`
	At              string `json:"at"`
}

// TrackingMessage is the outbox's shipment.tracking message: post a shipment's tracking on
// the order's channel. Every key is always there; shipping_method is null unless the
// channel type requires a method, tracking_url null when none was given.
type TrackingMessage struct {
	Header
	DisplayRef       string         `json:"display_ref"`
	ShipmentID       string         `json:"shipment_id"`
	CarrierName      string         `json:"carrier_name"`
	CarrierNameGiven string         `json:"carrier_name_given"`
	TrackingNumber   string         `json:"tracking_number"`
	TrackingURL      *string        `json:"tracking_url"`
	ShippingMethod   *string        `json:"shipping_method"`
	Items            []TrackingItem `json:"items"`
	ShippedAt        string         `json:"shipped_at"`
}

// TrackingItem is an order line in a tracking message.
type TrackingItem struct {
	OrderItemRef string `json:"order_item_ref"`
	SKU          string `json:"sku"`
	Quantity     int    `json:"quantity"`
}

// ListingResult is the inbox's listing.result answering a listing.quantity: how the push of
// a version went.
type ListingResult struct {
	Type        string `json:"type"`
	ChannelUUID string `json:"channel_uuid"`
	ChannelSKU  string `json:"channel_sku"`
	Version     int64  `json:"version"`
	OK          bool   `json:"ok"`
	Error       string `json:"error,omitempty"`
	// ChannelQuantity is what the channel shows now (after the push, or before when it
	// failed), when the connector knows it.
	ChannelQuantity *int64 `json:"channel_quantity,omitempty"`
	// ListingRef is the channel's reference of the listing the connector found.
	ListingRef string `json:"listing_ref,omitempty"`
	// Off, when set, is why the channel keeps the listing's quantity itself.
	Off string `json:"off,omitempty"`
}

// ShipmentResult is the inbox's shipment.result answering a shipment.tracking.
type ShipmentResult struct {
	Type        string `json:"type"`
	ChannelUUID string `json:"channel_uuid"`
	ShipmentID  string `json:"shipment_id"`
	OK          bool   `json:"ok"`
	Error       string `json:"error,omitempty"`
}
