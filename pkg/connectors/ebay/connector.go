// Package ebay is the connector of eBay: orders from the Sell Fulfillment API (getOrders),
// quantities to the Sell Inventory API (bulkUpdatePriceQuantity), tracking as shipping
// fulfillments (createShippingFulfillment), behind the OAuth refresh-token grant. Its
// mapping, limits and decisions are in docs/connectors.md ("eBay").
package ebay

import (
	"context"
	"net/http"

	"github.com/multisell/multisell/pkg/connectors"
)

// Connector is the eBay connector (name "ebay", channel type "eBay"):
// connectors.Register(ebay.Connector).
var Connector = &connector{}

// connector implements connectors.Connector; it keeps no state.
type connector struct{}

// The operations whose limits the connector's calls take (Spec.Limits) and the limit of a
// listing's revisions, which Session.TakeKeyed holds per SKU.
const (
	// OpToken is the token endpoint.
	OpToken = "identity.token"
	// OpFulfillment is the Sell Fulfillment API: getOrders and createShippingFulfillment
	// count against one daily limit.
	OpFulfillment = "sell.fulfillment"
	// OpInventory is the Sell Inventory API: getOffers, bulkUpdatePriceQuantity,
	// bulkMigrateListing.
	OpInventory = "sell.inventory"
	// OpTrading is the Trading API: ReviseInventoryStatus and GetMyeBaySelling.
	OpTrading = "trading"
	// OpRevision is a listing's revisions (per SKU).
	OpRevision = "listing.revision"
)

// Published daily limits as buckets (docs/connectors.md, "eBay"): each is a rate of at most
// the daily figure spread over a day, with a burst small enough that burst plus a day at the
// rate stays under the figure.
var (
	// Limits are the connector's buckets per operation: the Sell Fulfillment API's 100,000
	// calls a day, the Sell Inventory API's 2,000,000, the Trading API's default 5,000, and a
	// bound of our own on the token endpoint (an access token lasts two hours, so it is all
	// but idle).
	Limits = map[string]connectors.Limit{
		OpFulfillment: {Rate: 1.1, Burst: 10},
		OpInventory:   {Rate: 23, Burst: 25},
		OpTrading:     {Rate: 0.05, Burst: 20},
		OpToken:       {Rate: 0.5, Burst: 5},
	}
	// RevisionLimit is eBay's 250 revisions of one listing a day: bursts of 50, then 200 a
	// day, so that no 24 hours see more than 250.
	RevisionLimit = connectors.Limit{Rate: 200.0 / 86400, Burst: 50}
)

// MaxBatch is the most SKUs one bulkUpdatePriceQuantity takes.
const MaxBatch = 25

// Production endpoints.
const (
	ProductionAPI  = "https://api.ebay.com"
	ProductionAuth = "https://api.ebay.com/identity/v1/oauth2/token"
)

// Spec implements connectors.Connector.
func (c *connector) Spec() connectors.Spec {
	return connectors.Spec{Name: "ebay", ChannelType: "eBay",
		Endpoints: connectors.Endpoints{API: ProductionAPI, Auth: ProductionAuth},
		Limits:    Limits, QuantityBatch: MaxBatch}
}

// credentials are an eBay channel's credentials.
type credentials struct {
	RefreshToken, ClientID, ClientSecret, MarketplaceID string
}

// ParseCredentials implements connectors.Connector: refresh_token, client_id, client_secret,
// marketplace_id.
func (c *connector) ParseCredentials(raw []byte) (any, error) {
	f, err := connectors.ParseFields(raw, connectors.Field{Name: "refresh_token", Max: 4096},
		connectors.Field{Name: "client_id", Max: 256}, connectors.Field{Name: "client_secret", Max: 256},
		connectors.Field{Name: "marketplace_id", Max: 64})
	if err != nil {
		return nil, err
	}
	return credentials{RefreshToken: f["refresh_token"], ClientID: f["client_id"],
		ClientSecret: f["client_secret"], MarketplaceID: f["marketplace_id"]}, nil
}

// Verify implements connectors.Connector: a token exchange and one order read.
func (c *connector) Verify(ctx context.Context, s *connectors.Session) error {
	_, err := call(ctx, s, OpFulfillment, http.MethodGet, ordersPath+"?limit=1", nil)
	return err
}
