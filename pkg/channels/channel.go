package channels

import (
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// Channel states.
const (
	StateActive       = "active"
	StateInactive     = "inactive"
	StateDisconnected = "disconnected"
)

// ErrNotFound is returned for an unknown channel.
var ErrNotFound error = errs.NotFound("Channel not found")

// Channel is a sales channel as stored and as returned by GET /channels.
type Channel struct {
	UUID                   string  `json:"uuid" dynamodbav:"uuid"`
	Name                   string  `json:"name" dynamodbav:"name"`
	State                  string  `json:"state" dynamodbav:"state"`
	ChannelTypeDisplayName string  `json:"channel_type_display_name" dynamodbav:"channel_type_display_name"`
	CreatedAt              string  `json:"created_at" dynamodbav:"created_at"`
	SiteID                 *string `json:"site_id" dynamodbav:"site_id"`
	ChannelSiteRegion      *string `json:"channel_site_region" dynamodbav:"channel_site_region"`
	// InventoryRules turn stock into the quantities pushed to the channel's
	// listings (stored as JSON text, see store.go).
	InventoryRules Rules `json:"inventory_rules" dynamodbav:"-"`
}

// Syncs reports whether the channel's listings are pushed at all: the
// channel is active.
func (c Channel) Syncs() bool { return c.State == StateActive }

// Input creates a channel; State defaults to active.
type Input struct {
	Name, Type, State string
	SiteID, Region    string
}

// newChannel validates in into the channel it creates.
func newChannel(uuid, createdAt string, in Input) (Channel, error) {
	if in.Name == "" || in.Type == "" {
		return Channel{}, errs.Invalid("channel name and type are required")
	}
	if in.State == "" {
		in.State = StateActive
	}
	switch in.State {
	case StateActive, StateInactive, StateDisconnected:
	default:
		return Channel{}, errs.Invalid("channel state %q is not active, inactive or disconnected", in.State)
	}
	return Channel{
		UUID: uuid, Name: in.Name, State: in.State, ChannelTypeDisplayName: in.Type,
		CreatedAt: createdAt, SiteID: optional(in.SiteID), ChannelSiteRegion: optional(in.Region),
		InventoryRules: DefaultRules(),
	}, nil
}

// optional is s, nil when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// SyncChanged tells whether a stream record changed what a channel's
// listings push: a channel created, or its rules or state changed. It
// returns the channel's uuid.
func SyncChanged(c store.Change) (string, bool) {
	if c.Kind != kind || !c.New.Exists() {
		return "", false
	}
	changed := !c.Old.Exists() || !store.Same(c.Old, c.New, attrRules) || !store.Same(c.Old, c.New, attrState)
	return c.SK, changed
}
