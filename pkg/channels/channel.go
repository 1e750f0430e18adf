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
	// Connection is how multisell reaches the channel: its connector and the
	// times and error of its last calls (a status item of its own, see
	// store_connection.go).
	Connection Connection `json:"connection" dynamodbav:"-"`
	// Connector names the connector of a channel connected through the API
	// ("" for a channel served by an external connector); Endpoints are the
	// endpoints it was connected with (empty: the connector's).
	Connector string    `json:"-" dynamodbav:"connector,omitempty"`
	Endpoints Endpoints `json:"-" dynamodbav:"endpoints,omitempty"`
	// MarketplaceAccount names the marketplace account the channel is, as its
	// connector names it ("" when it names none): connected once per account
	// (docs/connectors.md, "One marketplace account, one channel").
	MarketplaceAccount string `json:"-" dynamodbav:"marketplace_account,omitempty"`
}

// ConnectorExternal is the connector a channel without one of multisell's
// shows: an external connector reads its outbox and fills its inbox.
const ConnectorExternal = "external"

// Connection is the connection of a channel as GET /channels shows it: its
// connector, when it last polled orders and pushed, and its last error
// (each null until it happens).
type Connection struct {
	Connector       string  `json:"connector" dynamodbav:"-"`
	LastOrderPollAt *string `json:"last_order_poll_at" dynamodbav:"last_order_poll_at,omitempty"`
	LastPushAt      *string `json:"last_push_at" dynamodbav:"last_push_at,omitempty"`
	LastError       *string `json:"last_error" dynamodbav:"last_error,omitempty"`
	LastErrorAt     *string `json:"last_error_at" dynamodbav:"last_error_at,omitempty"`
}

// Endpoints are where a connected channel is reached (docs/connectors.md):
// API the base URL the API's paths are appended to, Auth the whole token
// URL; "" takes the connector's production endpoint.
type Endpoints struct {
	API  string `json:"api" dynamodbav:"api,omitempty"`
	Auth string `json:"auth" dynamodbav:"auth,omitempty"`
}

// connected reports whether multisell's runtime reaches the channel: it has a
// connector and is active.
func (c Channel) connected() bool { return c.Connector != "" && c.State == StateActive }

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
		InventoryRules: DefaultRules(), Connection: Connection{Connector: ConnectorExternal},
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
// listings push: a channel created, or its rules or state changed (a
// connection status item never is). It returns the channel's uuid.
func SyncChanged(c store.Change) (string, bool) {
	if c.Kind != kind || !c.New.Exists() || isStatusSK(c.SK) {
		return "", false
	}
	changed := !c.Old.Exists() || !store.Same(c.Old, c.New, attrRules) || !store.Same(c.Old, c.New, attrState)
	return c.SK, changed
}
