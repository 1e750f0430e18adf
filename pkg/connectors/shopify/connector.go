// Package shopify is the connector of Shopify shops, through the Admin GraphQL API of
// version Version: orders in (orders updated since the cursor), available quantities out
// (inventorySetQuantities, compare-and-swap on changeFromQuantity) and tracking out
// (fulfillmentCreate on the order's fulfillment orders), within the shop's cost bucket.
// docs/connectors.md describes it.
package shopify

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// Version is the Admin API version the connector speaks, its one place (docs/connectors.md
// says why this one).
const Version = "2026-07"

// opGraphQL is the operation of every call: one cost bucket per shop, as Shopify keeps it.
const opGraphQL = "graphql"

// Published cost limit of a standard shop: a bucket of 1,000 points restoring 50 a second.
// The shop's own figures, stated in every answer, replace them (connectors.ReportCost).
const (
	bucketPoints  = 1000
	restorePoints = 50
)

// quantityBatch is the most listings one PushQuantities takes: its SKU look-up must cost
// less than the smallest bucket (100 points).
const quantityBatch = 50

// Connector is the Shopify connector (name "shopify", channel type "Shopify").
var Connector = &connector{}

// connector implements connectors.Connector.
type connector struct{}

// credentials are a Shopify channel's: the shop, the location to stock from (a Location
// gid), and either a legacy custom app's Admin API access token, which never expires, or an
// app's client id and secret: a Dev Dashboard app's, which the client-credentials grant
// trades for tokens that expire, or, with RefreshToken, the operator's app a merchant
// approved by consent (consent.go), whose expiring offline tokens rotate their refresh
// token (auth.go).
type credentials struct {
	ShopDomain, AccessToken, LocationID string
	ClientID, ClientSecret              string
	RefreshToken                        string
}

// Spec implements connectors.Connector. The API endpoint defaults to the shop's own host
// (https://{shop_domain}), so the spec names none.
func (*connector) Spec() connectors.Spec {
	return connectors.Spec{Name: "shopify", ChannelType: "Shopify",
		Limits:        map[string]connectors.Limit{opGraphQL: {Rate: restorePoints, Burst: bucketPoints}},
		QuantityBatch: quantityBatch}
}

// shopDomain is a shop's host name.
var shopDomain = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$`)

// locationID is a location's id, as a gid or its number.
var locationID = regexp.MustCompile(`^(gid://shopify/Location/)?[0-9]{1,20}$`)

// ParseCredentials implements connectors.Connector: shop_domain (a host name such as
// example.myshopify.com), location_id (a Location gid or its number), and access_token, or
// client_id and client_secret (a Dev Dashboard app), or client_id, client_secret and
// refresh_token (an app approved by consent, with expiring offline tokens).
func (*connector) ParseCredentials(raw []byte) (any, error) {
	fields := []connectors.Field{{Name: "shop_domain", Max: 255}, {Name: "location_id", Max: 64}}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys)
	_, id := keys["client_id"]
	_, secret := keys["client_secret"]
	_, refresh := keys["refresh_token"]
	if id || secret || refresh {
		fields = append(fields, connectors.Field{Name: "client_id", Max: 255}, connectors.Field{Name: "client_secret", Max: 255})
	}
	if refresh {
		fields = append(fields, connectors.Field{Name: "refresh_token", Max: 512})
	}
	if !id && !secret && !refresh {
		fields = append(fields, connectors.Field{Name: "access_token", Max: 512})
	}
	f, err := connectors.ParseFields(raw, fields...)
	if err != nil {
		return nil, err
	}
	domain := strings.ToLower(strings.TrimSpace(f["shop_domain"]))
	if !shopDomain.MatchString(domain) {
		return nil, errs.Invalid("credentials.shop_domain must be the shop's host name, such as example.myshopify.com")
	}
	loc := strings.TrimSpace(f["location_id"])
	if !locationID.MatchString(loc) {
		return nil, errs.Invalid("credentials.location_id must be a location id, such as gid://shopify/Location/123 or 123")
	}
	if !strings.HasPrefix(loc, "gid:") {
		loc = "gid://shopify/Location/" + loc
	}
	return credentials{ShopDomain: domain, AccessToken: f["access_token"], LocationID: loc,
		ClientID: f["client_id"], ClientSecret: f["client_secret"], RefreshToken: f["refresh_token"]}, nil
}

// verifyQuery reads the shop, the location and the app's access scopes: the token works,
// the location is the shop's and the app may do what the connector does.
const verifyQuery = `query Verify($location: ID!) {
  shop { name } location(id: $location) { id } currentAppInstallation { accessScopes { handle } }
}`

// requiredScopes are the access scopes the connector needs (docs/connectors.md, "Connecting
// a real shop"): orders read, variants looked up by SKU, quantities set, the location read,
// and fulfillments created on the merchant's own locations' fulfillment orders.
var requiredScopes = []string{"read_orders", "read_products", "write_inventory", "read_locations",
	"write_merchant_managed_fulfillment_orders"}

// allOrdersScope lets the app read orders older than 60 days: optional.
const allOrdersScope = "read_all_orders"

// Verify implements connectors.Connector: one cheap read with the token (for a Dev
// Dashboard app, the grant's: wrong client credentials are a refusal). A location of
// another shop is credentials.location_id invalid; a required scope the app lacks is
// invalid, naming every one missing. Without read_all_orders (optional) orders older than
// 60 days are out of the connector's sight: it is logged.
func (c *connector) Verify(ctx context.Context, s *connectors.Session) error {
	var out struct {
		Location *struct {
			ID string `json:"id"`
		} `json:"location"`
		Installation *struct {
			AccessScopes []struct{ Handle string } `json:"accessScopes"`
		} `json:"currentAppInstallation"`
	}
	cr := s.Credentials.(credentials)
	vars := map[string]any{"location": cr.LocationID}
	if err := call(ctx, s, verifyQuery, vars, queryCost(verifyQuery, vars), &out); err != nil {
		return err
	}
	if out.Location == nil {
		return errs.Invalid("credentials.location_id is not a location of the shop")
	}
	granted := map[string]bool{}
	if out.Installation != nil {
		for _, sc := range out.Installation.AccessScopes {
			granted[sc.Handle] = true
		}
	}
	if missing := missingScopes(granted); len(missing) > 0 {
		return errs.Invalid("the app lacks the access scopes %s: add them to its configuration in the Dev Dashboard (or the custom app's Admin API scopes), release and install it again", strings.Join(missing, ", "))
	}
	if !granted[allOrdersScope] {
		slog.InfoContext(ctx, "shopify app without read_all_orders: orders older than 60 days are not seen", "channel", s.Channel)
	}
	return nil
}

// missingScopes are the required scopes not granted; a write scope grants its read scope.
func missingScopes(granted map[string]bool) []string {
	var missing []string
	for _, sc := range requiredScopes {
		if !granted[sc] && !granted[strings.Replace(sc, "read_", "write_", 1)] {
			missing = append(missing, sc)
		}
	}
	return missing
}
