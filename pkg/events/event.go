package events

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/store"
)

// The event types.
const (
	OrderCreated = "order.created"
	OrderUpdated = "order.updated"
	// OrderImportFailed is an order document the import refused.
	OrderImportFailed = "order.import_failed"
	InventoryUpdated  = "inventory.updated"
	AdjustmentApplied = "inventory_adjustment.applied"
	ProductUpdated    = "product.updated"
	ShipmentCreated   = "shipment.created"
	ListingSyncFailed = "listing.sync_failed"
	// ChannelDisconnected is a channel whose state became disconnected.
	ChannelDisconnected = "channel.disconnected"
)

// AllTypes in a webhook's list of types subscribes it to every type.
const AllTypes = "*"

// Types are the event types, in the order the docs list them.
var Types = []string{OrderCreated, OrderUpdated, OrderImportFailed, InventoryUpdated, AdjustmentApplied, ProductUpdated, ShipmentCreated, ListingSyncFailed, ChannelDisconnected}

// KnownType reports whether t is an event type.
func KnownType(t string) bool { return slices.Contains(Types, t) }

// TypeList is the types as an error message lists them.
func TypeList() string { return strings.Join(Types, ", ") }

// Event is an event as GET /v1/events returns it and a webhook delivers it.
type Event struct {
	Seq       int64           `json:"seq"`
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// Draft is the event one change of the table means, before it is numbered:
// its type and its resource as the API returns it.
type Draft struct {
	Type string
	Data any
}

// Source is what the domain owning item kinds tells the feed: which kinds
// (the partition key's part after the account) make events, and the event
// a change of one of its items means, if any. EventOf may read the table (a
// resource the API shows joined with another); it must not write.
type Source interface {
	EventKinds() []string
	EventOf(ctx context.Context, c store.Change) (Draft, bool, error)
}

// Follower is told of the stream records of the feed's own items and of
// its own kinds (the webhooks: a new event is delivered). It returns the
// sequence number of the first record whose work failed ("" when none).
type Follower interface {
	Follow(ctx context.Context, changes []store.Change) string
}

// sourceKey names the stream record a draft came from: the item's kind and
// sort key and the record's sequence number, which together identify one
// change of one item, so a replayed record is recognised.
func sourceKey(c store.Change) string {
	return strings.Join([]string{c.Kind, c.SK, c.Seq}, store.Sep)
}

// eventID is the event's id, derived from its source, so a replay of the
// record would name the same event.
func eventID(account, source string) string {
	sum := sha256.Sum256([]byte(account + store.Sep + source))
	return "evt_" + hex.EncodeToString(sum[:16])
}

// sourceMark is the sort key of a source's mark: its hash (a source key
// holds an item's sort key, which may be longer than a sort key can be
// with more around it).
func sourceMark(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:])
}

// Updated is the draft of an update of type typ to next, when next renders
// (as JSON) differently from prev: a write that changes nothing the API
// shows is no event.
func Updated(typ string, prev, next any) (Draft, bool, error) {
	x, err := json.Marshal(prev)
	if err != nil {
		return Draft{}, false, fmt.Errorf("render %s: %w", typ, err)
	}
	y, err := json.Marshal(next)
	if err != nil {
		return Draft{}, false, fmt.Errorf("render %s: %w", typ, err)
	}
	if string(x) == string(y) {
		return Draft{}, false, nil
	}
	return Draft{Type: typ, Data: next}, true, nil
}
