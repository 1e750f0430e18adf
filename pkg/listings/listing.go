package listings

import (
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/push"
)

// Sync statuses of a listing: the push's (pkg/push), and unlinked.
const (
	// StatusSynced: the channel confirmed the wanted quantity.
	StatusSynced = push.Synced
	// StatusPending: the wanted quantity was sent, not confirmed yet.
	StatusPending = push.Pending
	// StatusFailed: the connector reported an error; the push is retried.
	StatusFailed = push.Failed
	// StatusUnlinked: the listing draws no inventory SKU.
	StatusUnlinked = "unlinked"
	// StatusOff: the rules say no sync, the channel is not active, or the
	// channel keeps the listing's quantity itself.
	StatusOff = push.Off
)

// statuses lists every sync status, for the filter's validation.
var statuses = []string{StatusSynced, StatusPending, StatusFailed, StatusUnlinked, StatusOff}

// Listing is a listing as GET /listings returns it.
type Listing struct {
	ChannelUUID string  `json:"channel_uuid" dynamodbav:"channel_uuid"`
	ChannelSKU  string  `json:"channel_sku" dynamodbav:"channel_sku"`
	ListingRef  *string `json:"listing_ref" dynamodbav:"listing_ref"`
	// SKU is the inventory SKU the listing draws; nil: unlinked.
	SKU *string `json:"sku" dynamodbav:"sku"`
	// Quantity is what multisell wants the channel to show (nil when it
	// wants nothing: unlinked or off).
	Quantity *int64 `json:"quantity" dynamodbav:"quantity"`
	// ChannelQuantity is what the connector last reported the channel shows.
	ChannelQuantity *int64            `json:"channel_quantity" dynamodbav:"channel_quantity"`
	SyncStatus      string            `json:"sync_status" dynamodbav:"sync_status"`
	SyncError       *string           `json:"sync_error" dynamodbav:"sync_error"`
	SyncedAt        *string           `json:"synced_at" dynamodbav:"synced_at"`
	InventoryRules  channels.Override `json:"inventory_rules" dynamodbav:"-"`
	UpdatedAt       string            `json:"updated_at" dynamodbav:"updated_at"`
}

// record is a listing as stored: the API's fields plus the sync state.
type record struct {
	Listing
	// ChannelType is the channel's type, copied at creation for the outbox
	// messages.
	ChannelType string `dynamodbav:"channel_type"`
	// Explicit is set when SKU (or its absence) was given by a link, not
	// found by an equal product SKU.
	Explicit bool `dynamodbav:"explicit"`
	// Version, Push and Attempts are the push state's (push.State):
	// Version counts the changes of the wanted state, and every
	// listing.quantity message carries the version it sends.
	Version  int64 `dynamodbav:"version"`
	Push     int64 `dynamodbav:"push"`
	Attempts int64 `dynamodbav:"attempts"`
	// ChannelOff is why the channel keeps the listing's quantity itself (an
	// Amazon listing fulfilled by Amazon), as its connector answered: the
	// listing is off until the merchant changes it (nil: pushed as usual).
	ChannelOff *string `dynamodbav:"channel_off"`
	// QuantityAt is when the current version was decided.
	QuantityAt string `dynamodbav:"quantity_at"`
	// SentAt is when the last version that went at once was decided (Unix
	// milliseconds; 0: never), and Held the first version of a hold (0:
	// none): a version decided within PushInterval of SentAt waits, with
	// the versions after it, for the hold's end (pace).
	SentAt int64 `dynamodbav:"sent_ms"`
	Held   int64 `dynamodbav:"held"`
	// Streak counts the holds in a row, each released at the end of the
	// one before: the interval doubles with each (interval), and a version
	// that goes at once starts over.
	Streak int64 `dynamodbav:"streak"`
	// Rev counts the item's writes; each write is conditioned on the one it
	// read.
	Rev int64 `dynamodbav:"rev"`
}

// linked reports whether the listing draws an inventory SKU.
func (r *record) linked() bool { return r.SKU != nil }

// PushState is the listing's push state (push.Item).
func (r *record) PushState() push.State {
	return push.State{Status: r.SyncStatus, Error: r.SyncError, Version: r.Version, Attempts: r.Attempts, Push: r.Push}
}

// SetPushState stores st as the listing's push state.
func (r *record) SetPushState(st push.State) {
	r.SyncStatus, r.SyncError, r.Version, r.Attempts, r.Push = st.Status, st.Error, st.Version, st.Attempts, st.Push
}
