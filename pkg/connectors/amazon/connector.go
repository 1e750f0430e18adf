// Package amazon is multisell's connector of Amazon's Selling Partner API: orders in through
// the Orders API (getOrders since the poll's cursor, getOrderItems per order), listing
// quantities out through the Listings Items API (patchListingsItem of
// fulfillment_availability) or, for a large batch, one JSON_LISTINGS_FEED through the Feeds
// API, and shipment confirmations out through the Orders API's confirmShipment; every call
// within the published limits the runtime's buckets keep, corrected by
// x-amzn-RateLimit-Limit. docs/connectors.md ("Amazon") describes the mapping and the
// decisions.
package amazon

import (
	"cmp"
	"context"
	"net/url"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// The operations, as Spec.Limits and the sandbox name them (the API's operation names).
const (
	OpToken              = "token"
	OpGetOrders          = "getOrders"
	OpGetOrderItems      = "getOrderItems"
	OpConfirmShipment    = "confirmShipment"
	OpPatchListingsItem  = "patchListingsItem"
	OpGetListingsItem    = "getListingsItem"
	OpCreateFeedDocument = "createFeedDocument"
	OpUploadFeedDocument = "uploadFeedDocument"
	OpCreateFeed         = "createFeed"
	OpGetFeed            = "getFeed"
	OpGetFeeds           = "getFeeds"
	OpGetFeedDocument    = "getFeedDocument"
	OpDownloadDocument   = "downloadFeedDocument"
	// OpCreateRestrictedDataToken is the Tokens API's (restricted.go).
	OpCreateRestrictedDataToken = "createRestrictedDataToken"
)

// Published are the operations' published limits, as each model's usage plan states them
// (the operation's description, "Rate (requests per second) | Burst"): the buckets' start,
// which x-amzn-RateLimit-Limit corrects. The token exchange and the feed documents' upload
// and download (Amazon's storage, not the API) have none. docs/connectors.md ("Amazon",
// limits) lists them with the time they allow for a burst of orders.
var Published = map[string]connectors.Limit{
	// ordersV0.json
	OpGetOrders:       {Rate: 0.0167, Burst: 20},
	OpGetOrderItems:   {Rate: 0.5, Burst: 30},
	OpConfirmShipment: {Rate: 2, Burst: 10},
	// listingsItems_2021-08-01.json
	OpPatchListingsItem: {Rate: 5, Burst: 5},
	OpGetListingsItem:   {Rate: 5, Burst: 10},
	// feeds_2021-06-30.json
	OpCreateFeedDocument: {Rate: 0.5, Burst: 15},
	OpCreateFeed:         {Rate: 0.0083, Burst: 15},
	OpGetFeed:            {Rate: 2, Burst: 15},
	OpGetFeeds:           {Rate: 0.0222, Burst: 10},
	OpGetFeedDocument:    {Rate: 0.0222, Burst: 10},
	// tokens_2021-03-01.json
	OpCreateRestrictedDataToken: {Rate: 1, Burst: 10},
}

// Defaults of a Connector's settings.
const (
	// DefaultFeedThreshold: a push of more listings than this goes as one feed.
	DefaultFeedThreshold = 50
	// QuantityBatch is the most listings one PushQuantities takes.
	QuantityBatch = 500
	// DefaultFeedWait is the longest a push waits for a feed's processing report.
	DefaultFeedWait = 20 * time.Second
	// DefaultFeedPoll is the time between two getFeed of a feed waited for.
	DefaultFeedPoll = 2 * time.Second
	// DefaultFeedRetry is how long after a feed not done in time the push is tried again.
	DefaultFeedRetry = time.Minute
	// DefaultFeedWindow is how far back a push looks for a feed of its own still to read.
	DefaultFeedWindow = 15 * time.Minute
	// DefaultPageSize is getOrders' MaxResultsPerPage.
	DefaultPageSize = 100
)

// Default is the Amazon connector (name "amazon", channel type "Amazon", the published
// limits).
var Default = &Connector{}

// Connector calls the Selling Partner API. The zero value of each setting is its default;
// a test registers one of other limits under another name.
type Connector struct {
	// Name and ChannelType default to "amazon" and "Amazon".
	Name, ChannelType string
	// Limits default to Published.
	Limits map[string]connectors.Limit
	// FeedThreshold, FeedWait, FeedPoll, FeedRetry, FeedWindow, PageSize: see the defaults.
	FeedThreshold                             int
	FeedWait, FeedPoll, FeedRetry, FeedWindow time.Duration
	PageSize                                  int
}

// Spec implements connectors.Connector.
func (c *Connector) Spec() connectors.Spec {
	name, typ := c.Name, c.ChannelType
	if name == "" {
		name, typ = "amazon", "Amazon"
	}
	lim := c.Limits
	if lim == nil {
		lim = Published
	}
	return connectors.Spec{Name: name, ChannelType: typ, Limits: lim,
		Endpoints:  connectors.Endpoints{Auth: "https://api.amazon.com/auth/o2/token"}, // the API's host is the marketplace's (regions.go)
		RateHeader: "x-amzn-RateLimit-Limit", QuantityBatch: QuantityBatch}
}

// credentials are an Amazon channel's credentials.
type credentials struct {
	RefreshToken, ClientID, ClientSecret, SellerID, MarketplaceID string
}

// ParseCredentials implements connectors.Connector: refresh_token, client_id, client_secret,
// seller_id, marketplace_id.
func (c *Connector) ParseCredentials(raw []byte) (any, error) {
	f, err := connectors.ParseFields(raw, connectors.Field{Name: "refresh_token", Max: 2048},
		connectors.Field{Name: "client_id", Max: 256}, connectors.Field{Name: "client_secret", Max: 256},
		connectors.Field{Name: "seller_id", Max: 64}, connectors.Field{Name: "marketplace_id", Max: 64})
	if err != nil {
		return nil, err
	}
	return credentials{RefreshToken: f["refresh_token"], ClientID: f["client_id"], ClientSecret: f["client_secret"],
		SellerID: f["seller_id"], MarketplaceID: f["marketplace_id"]}, nil
}

// Verify implements connectors.Connector: a token exchange and one getOrders of the last hour
// (one order at most), which also checks the marketplace and the Orders role.
func (c *Connector) Verify(ctx context.Context, s *connectors.Session) error {
	cr := s.Credentials.(credentials)
	q := url.Values{"MarketplaceIds": {cr.MarketplaceID}, "MaxResultsPerPage": {"1"},
		"LastUpdatedAfter": {time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}}
	_, err := call(ctx, s, OpGetOrders, "GET", ordersPath, q, nil)
	return err
}

// setting is v, or def when v is zero.
func setting[T int | time.Duration](v, def T) T { return cmp.Or(v, def) }
