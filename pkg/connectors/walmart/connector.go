// Package walmart is the connector of Walmart's US Marketplace API: orders from getAllOrders
// (acknowledged with acknowledgeOrders once the inbox has them), quantities by
// updateInventoryForAnItem or the bulk inventory feed, tracking by shippingUpdates, behind
// the client-credentials token of /v3/token. Its mapping, limits and decisions are in
// docs/connectors.md ("Walmart").
package walmart

import (
	"context"
	"net/http"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// Connector is the Walmart connector (name "walmart", channel type "Walmart"):
// connectors.Register(walmart.Connector).
var Connector = &connector{}

// connector implements connectors.Connector, connectors.AccountNamer and
// connectors.Acknowledger; it keeps no state.
type connector struct{}

// The operations whose limits the connector's calls take (Spec.Limits).
const (
	// OpToken is the Token API (POST /v3/token).
	OpToken = "token"
	// OpOrders is getAllOrders.
	OpOrders = "getAllOrders"
	// OpAcknowledge is acknowledgeOrders.
	OpAcknowledge = "acknowledgeOrders"
	// OpShipping is shippingUpdates.
	OpShipping = "shippingUpdates"
	// OpInventory is updateInventoryForAnItem.
	OpInventory = "updateInventoryForAnItem"
	// OpFeed is the bulk inventory feed's upload (POST /v3/feeds?feedType=inventory).
	OpFeed = "updateBulkInventory"
	// OpFeedStatus is getFeedItemStatus and getAllFeedStatuses, which share their limit.
	OpFeedStatus = "feedStatus"
)

// Limits are the connector's buckets per operation (docs/connectors.md, "Walmart", Limits):
// the bulk inventory feed's published 10 an hour (burst 5, then one every 12 minutes, so no
// hour sees more than 10) and the feed statuses' published 5,000 a minute shared by both
// calls; for the others Walmart publishes no figure we could read, so they are bounds of our
// own, and the count Walmart states on each answer (x-current-token-count) sets the shared
// bucket's level.
var Limits = map[string]connectors.Limit{
	OpToken:       {Rate: 1, Burst: 5},
	OpOrders:      {Rate: 5, Burst: 20},
	OpAcknowledge: {Rate: 10, Burst: 50},
	OpShipping:    {Rate: 5, Burst: 20},
	OpInventory:   {Rate: 5, Burst: 10},
	OpFeed:        {Rate: 5.0 / 3600, Burst: 5},
	OpFeedStatus:  {Rate: 75, Burst: 100},
}

// Production endpoints: the API's base URL (its /v3/... paths are appended) and the token
// URL.
const (
	ProductionAPI  = "https://marketplace.walmartapis.com"
	ProductionAuth = ProductionAPI + "/v3/token"
)

// Market is the one market the connector serves: Walmart's US Marketplace (Canada and
// Mexico are Walmart's Global APIs, with other headers and paths).
const Market = "US"

// Spec implements connectors.Connector.
func (c *connector) Spec() connectors.Spec {
	return connectors.Spec{Name: "walmart", ChannelType: "Walmart",
		Endpoints: connectors.Endpoints{API: ProductionAPI, Auth: ProductionAuth},
		Limits:    Limits, QuantityBatch: MaxFeedItems}
}

// credentials are a Walmart channel's credentials: the seller's API key (client id and
// secret, from the Developer Portal) and its market.
type credentials struct {
	ClientID, ClientSecret, Market string
}

// ParseCredentials implements connectors.Connector: client_id, client_secret, market (US).
func (c *connector) ParseCredentials(raw []byte) (any, error) {
	f, err := connectors.ParseFields(raw, connectors.Field{Name: "client_id", Max: 256},
		connectors.Field{Name: "client_secret", Max: 1024}, connectors.Field{Name: "market", Max: 8})
	if err != nil {
		return nil, err
	}
	if !strings.EqualFold(strings.TrimSpace(f["market"]), Market) {
		return nil, errs.Invalid("credentials.market must be %s: the connector serves Walmart's US Marketplace", Market)
	}
	return credentials{ClientID: strings.TrimSpace(f["client_id"]), ClientSecret: f["client_secret"], Market: Market}, nil
}

// MarketplaceAccount implements connectors.AccountNamer: the market and the client id. A
// seller's API key (its client id) is the seller's own in Walmart's Developer Portal, so it
// names the seller; Walmart states no seller id on the API's answers that the credentials
// could be checked against (the partner id comes only with the OAuth consent flow).
func (c *connector) MarketplaceAccount(creds any) string {
	cr := creds.(credentials)
	return cr.Market + "\x1f" + cr.ClientID
}

// Verify implements connectors.Connector: a token exchange and one order read.
func (c *connector) Verify(ctx context.Context, s *connectors.Session) error {
	_, err := call(ctx, s, OpOrders, http.MethodGet, ordersPath+"?limit=1", nil)
	return err
}
