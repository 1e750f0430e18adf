package connectors

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// Connector is what a channel type implements. The runtime builds a Session for the channel
// (its credentials, endpoints, limits and tokens) and calls the connector with it; a
// connector keeps no state of its own between calls. Every call to the channel goes through
// Session.Call, so the channel's limits hold across all instances.
//
// Errors: *AuthError when the channel refuses the credentials or the token, *Throttled when
// the channel's limits say not now (Session.Call returns it), anything else a failure of the
// call.
type Connector interface {
	// Spec is what the runtime needs to know of the connector before calling it.
	Spec() Spec
	// ParseCredentials validates the credentials JSON of a channel of this type (missing,
	// extra or oversize fields are errs.Invalid naming the field) and returns the value the
	// connector reads back from Session.Credentials.
	ParseCredentials(raw []byte) (any, error)
	// Verify checks the credentials with one token exchange and one cheap read.
	Verify(ctx context.Context, s *Session) error
	// PollOrders returns one page of the orders changed since q.Since.
	PollOrders(ctx context.Context, s *Session, q OrdersQuery) (OrderPage, error)
	// PushQuantities sets the quantities of a batch of listings of one channel (at most
	// Spec.QuantityBatch) and returns one result per listing. An error means none was set.
	PushQuantities(ctx context.Context, s *Session, batch []QuantityPush) ([]QuantityResult, error)
	// PostTracking posts one shipment's tracking on its order.
	PostTracking(ctx context.Context, s *Session, t Tracking) error
}

// Spec describes a connector.
type Spec struct {
	// Name is the connector's name: "amazon", "shopify", "ebay", ...
	Name string
	// ChannelType is the display name of the channel type it serves ("Amazon"), as channels
	// and outbox messages carry it.
	ChannelType string
	// Endpoints are the production endpoints, used when a channel gives none.
	Endpoints Endpoints
	// Limits are the channel's published limits per operation (the names the connector
	// passes to Session.Call). An operation without one is not limited.
	Limits map[string]Limit
	// RateHeader, when set, is the response header in which the channel states the rate it
	// allows now (requests per second, as x-amzn-RateLimit-Limit does); a value that differs
	// from the bucket's rate becomes its rate.
	RateHeader string
	// QuantityBatch is the most listings one PushQuantities takes (at least 1).
	QuantityBatch int
}

// Limit is a published limit: Rate requests per second, with bursts of up to Burst.
type Limit struct {
	Rate  float64
	Burst int
}

// OrdersQuery asks for a page of the orders changed since Since (the channel's own time).
// Page is the page token of the page before ("" for the first).
type OrdersQuery struct {
	Since time.Time
	Page  string
}

// OrderPage is a page of orders and the token of the next page ("" after the last).
// Refused holds a reason for each order of the page the connector could not turn into a
// document and left out: the runtime records them as the poll's refused orders
// (PollResult.Refused) and the poll goes on without them (docs/connectors.md).
//
// Notices are what the channel did not allow that the merchant should know of once (a
// notice Session.Notice found new): the runtime records them on the connection.
type OrderPage struct {
	Orders  []Order
	Next    string
	Refused []string
	Notices []string
}

// Order is one order as the channel last changed it.
type Order struct {
	// Ref is the channel's order reference, UpdatedAt the channel's time of its last change.
	Ref       string
	UpdatedAt time.Time
	// Document is the order import document the channel inbox takes (docs/orders.md): a
	// wire.OrderDocument, marshalled (so a page is sent as the connector made it).
	Document json.RawMessage
}

// QuantityPush asks to show Quantity for one listing. ListingRef is the channel's own
// reference of the listing as the listing keeps it ("" when it has none; a connector may
// find it and answer it in QuantityResult.ListingRef). ChannelQuantity is what the channel
// last reported showing (nil: never reported), for channels that set a quantity only if it
// is still the one last seen (Shopify's compare quantity).
type QuantityPush struct {
	ChannelSKU      string
	ListingRef      string
	Quantity        int64
	ChannelQuantity *int64
}

// QuantityResult is how one push went: OK with the quantity the channel shows now, or the
// channel's error.
//
// ListingRef, when set, is the channel's reference of the listing the connector found (a
// Shopify inventory item): the listing keeps it, and later pushes get it in
// QuantityPush.ListingRef. Off, when set, says the channel keeps the listing's quantity
// itself (an Amazon listing fulfilled by Amazon): the listing goes off with Off as the
// reason and is not pushed again until the merchant changes it (docs/channel-sync.md).
// RetryAt, when set, says the connector did not push the listing because a limit of its own
// (Session.TakeKeyed) does not allow it before then: it gets no result and is pushed again
// then, as a throttled push is.
type QuantityResult struct {
	ChannelSKU      string
	OK              bool
	Error           string
	ChannelQuantity int64
	ListingRef      string
	Off             string
	RetryAt         time.Time
}

// Tracking is one shipment's tracking, to post on the channel's order DisplayRef.
// CarrierName is the carrier as the channel type's rules name it ("Other" for one they do
// not know), CarrierNameGiven as the merchant sent it.
type Tracking struct {
	DisplayRef       string
	ShipmentID       string
	CarrierName      string
	CarrierNameGiven string
	TrackingNumber   string
	TrackingURL      string
	ShippingMethod   string
	Items            []TrackingItem
	ShippedAt        string
}

// TrackingItem is an order line a shipment carries (SKU is the line's channel SKU).
type TrackingItem struct {
	OrderItemRef, SKU string
	Quantity          int64
}

// AuthError is the channel refusing the credentials or an access token, with its own message.
type AuthError struct {
	Message string
}

// Error implements the error interface.
func (e *AuthError) Error() string { return "channel refused the credentials: " + e.Message }

// Throttled is a call the channel's limits do not allow before RetryAt. It is never a failure:
// the caller tries again then.
type Throttled struct {
	Op      string
	RetryAt time.Time
}

// Error implements the error interface.
func (e *Throttled) Error() string {
	return fmt.Sprintf("channel limit of %s: retry at %s", e.Op, e.RetryAt.UTC().Format(time.RFC3339Nano))
}

// Disconnected is what the runtime reports when the channel refused its token
// RefusalsToDisconnect times in a row: the channel must go disconnected with Reason (and a
// channel.disconnected event be written).
type Disconnected struct {
	Account, Channel string
	Reason           string
}

// Error implements the error interface.
func (e *Disconnected) Error() string {
	return fmt.Sprintf("channel %s disconnected: %s", e.Channel, e.Reason)
}
