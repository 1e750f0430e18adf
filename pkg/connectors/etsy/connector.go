// Package etsy is the connector of Etsy's Open API v3: receipts in (getShopReceipts),
// listing inventory out (getListingInventory, updateListingInventory, the whole document
// written back), tracking to receipts (createReceiptShipment), behind a user's OAuth 2.0
// token whose refresh token Etsy rotates, and the consent (authorization code with PKCE) that
// connects a shop. Its mapping, limits and decisions are in docs/connectors.md ("Etsy").
package etsy

import (
	"context"
	"net/http"
	"strconv"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// Connector is the Etsy connector (name "etsy", channel type "Etsy"):
// connectors.Register(etsy.Connector).
var Connector = &connector{}

// connector implements connectors.Connector, connectors.AccountNamer and
// connectors.Consenter; it keeps no state.
type connector struct{}

// The operations whose limits the connector's calls take.
const (
	// OpAPI is every call of the Open API: Etsy's limits are the app's, whatever the call.
	OpAPI = "openapi"
	// OpDay is the keyed bucket of the daily limit (Session.TakeKeyed, key DayKey).
	OpDay = "openapi.day"
	// OpToken is the OAuth token endpoint.
	OpToken = "oauth.token"
	// DayKey keys the daily bucket of a channel.
	DayKey = "app"
)

// Etsy's published limits (docs/connectors.md, "Etsy"): 10 requests a second and 10,000 a
// day per app, held per OAuth access token for calls made with one.
var (
	// Limits are the connector's buckets per operation: the per-second limit of every API
	// call, and a bound of our own on the token endpoint (an access token lasts an hour).
	Limits = map[string]connectors.Limit{
		OpAPI:   {Rate: 10, Burst: 10},
		OpToken: {Rate: 0.5, Burst: 5},
	}
	// DayLimit is the daily limit as a bucket every API call takes from as well: bursts of
	// 1,000, then 0.1 a second, so that no 24 hours see more than 9,640 of Etsy's 10,000.
	DayLimit = connectors.Limit{Rate: 0.1, Burst: 1000}
)

// RateHeader is the header in which Etsy states the app's per-second limit.
const RateHeader = "X-Limit-Per-Second"

// Production endpoints: the API's host (its /v3/application/... paths are appended) and the
// token endpoint.
const (
	ProductionAPI  = "https://openapi.etsy.com"
	ProductionAuth = "https://api.etsy.com/v3/public/oauth/token"
)

// MaxBatch is the most listings one PushQuantities takes: each listing is its own inventory
// document, read and written on its own.
const MaxBatch = 25

// Spec implements connectors.Connector.
func (c *connector) Spec() connectors.Spec {
	return connectors.Spec{Name: "etsy", ChannelType: "Etsy",
		Endpoints: connectors.Endpoints{API: ProductionAPI, Auth: ProductionAuth},
		Limits:    Limits, RateHeader: RateHeader, QuantityBatch: MaxBatch}
}

// credentials are an Etsy channel's credentials: the app's keystring and shared secret, the
// shop owner's refresh token and the shop's id.
type credentials struct {
	ClientID, ClientSecret, RefreshToken string
	ShopID                               int64
}

// ParseCredentials implements connectors.Connector: client_id (the app's keystring),
// client_secret (its shared secret), refresh_token, shop_id (a positive number, as text).
func (c *connector) ParseCredentials(raw []byte) (any, error) {
	f, err := connectors.ParseFields(raw, connectors.Field{Name: "client_id", Max: 256},
		connectors.Field{Name: "client_secret", Max: 256}, connectors.Field{Name: "refresh_token", Max: 4096},
		connectors.Field{Name: "shop_id", Max: 20})
	if err != nil {
		return nil, err
	}
	shop, err := strconv.ParseInt(f["shop_id"], 10, 64)
	if err != nil || shop < 1 {
		return nil, errs.Invalid("credentials.shop_id must be Etsy's numeric shop id")
	}
	return credentials{ClientID: f["client_id"], ClientSecret: f["client_secret"], RefreshToken: f["refresh_token"], ShopID: shop}, nil
}

// MarketplaceAccount implements connectors.AccountNamer: the shop.
func (c *connector) MarketplaceAccount(creds any) string {
	cr, ok := creds.(credentials)
	if !ok {
		return ""
	}
	return "Etsy shop " + strconv.FormatInt(cr.ShopID, 10)
}

// Verify implements connectors.Connector: a token exchange and one receipt of the shop read
// (which needs the shop to be the token's and the transactions_r scope).
func (c *connector) Verify(ctx context.Context, s *connectors.Session) error {
	_, err := call(ctx, s, http.MethodGet, shopPath(s)+"/receipts?limit=1", nil)
	return err
}

// shopPath is the path of the channel's shop.
func shopPath(s *connectors.Session) string {
	return "/v3/application/shops/" + strconv.FormatInt(s.Credentials.(credentials).ShopID, 10)
}

// The interfaces the connector implements.
var (
	_ connectors.Connector    = Connector
	_ connectors.AccountNamer = Connector
	_ connectors.Consenter    = Connector
)
