// Package ebay is the local stack's eBay sandbox: a stateful fake, on the sandbox.Server
// framework, of the operations the eBay connector calls, in eBay's wire format: the OAuth
// token endpoint (refresh-token grant, Basic client auth), getOrders (lastmodifieddate
// filter, offset paging), createShippingFulfillment, getShippingFulfillments and
// bulkUpdatePriceQuantity (per-SKU answers, the daily revision limit per listing), with
// eBay's error bodies. A seller has
// listings (SKU -> quantity) and orders of its own; tests and the CLI add and change them
// (admin.go). docs/connectors.md ("eBay") describes it.
package ebay

import (
	"cmp"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The operations as the sandbox counts and limits them (eBay's operation ids).
const (
	OpToken        = "token"
	OpGetOrders    = "getOrders"
	OpFulfill      = "createShippingFulfillment"
	OpFulfillments = "getShippingFulfillments"
	OpBulkQuantity = "bulkUpdatePriceQuantity"
	OpGetOffers    = "getOffers"
	OpMigrate      = "bulkMigrateListing"
	OpGetUser      = "getUser"
)

// The API's paths.
const (
	TokenPath   = "/identity/v1/oauth2/token"
	ordersPath  = "/sell/fulfillment/v1/order"
	bulkPath    = "/sell/inventory/v1/bulk_update_price_quantity"
	offersPath  = "/sell/inventory/v1/offer"
	migratePath = "/sell/inventory/v1/bulk_migrate_listing"
	fulfillPath = ordersPath + "/{orderId}/shipping_fulfillment"
	// UserPath is the Commerce Identity API's getUser (eBay serves it from apiz.ebay.com;
	// the sandbox beside the others).
	UserPath = "/commerce/identity/v1/user/"
)

// DailyRevisions is eBay's limit of revisions of one listing per day.
const DailyRevisions = 250

// Sandbox is the eBay sandbox.
type Sandbox struct {
	*sandbox.Server
	// The sellers by client id and their tokens (two hours', as eBay's, unless TokenTTL
	// says otherwise).
	*sandbox.Registry[*Seller]
	// Consents are the apps registered with the sandbox (RegisterApp) and the codes its
	// consent page gave (consent.go).
	Consents sandbox.Consents
}

// Seller is one seller's account (in JSON in the state's file).
type Seller struct {
	sandbox.Account
	Marketplace string `json:"marketplace_id"`
	// Orders by order id; Listings are each Inventory API item's ship-to-home quantity and
	// Offers its published offer on the seller's marketplace, by SKU.
	Orders   map[string]*Order `json:"orders"`
	Listings map[string]int64  `json:"listings"`
	Offers   map[string]*Offer `json:"offers"`
	// Items are the listings made outside the Inventory API, by ItemID.
	Items map[string]*Item `json:"items"`
	// Seq numbers the ids of the seller's offers and listings.
	Seq int64 `json:"seq"`
	// Revisions counts each SKU's revisions on a day ("2006-01-02 SKU").
	Revisions map[string]int `json:"revisions"`
	// Fulfillments are the shipping fulfillments posted, by order id.
	Fulfillments map[string][]ShippingFulfillmentDetails `json:"fulfillments"`
}

// Offer is an item's published fixed-price offer: its id, its listing's and the quantity it
// makes available on the marketplace (availableQuantity).
type Offer struct {
	OfferID   string `json:"offer_id"`
	ListingID string `json:"listing_id"`
	Available int64  `json:"available_quantity"`
}

// nextID is a new id of the seller's (the lock held): twelve digits, as eBay's item ids.
func (sl *Seller) nextID() string {
	sl.Seq++
	return fmt.Sprintf("%d", 110000000000+sl.Seq)
}

// New returns a started sandbox on a free port, its state in memory.
func New() (*Sandbox, error) {
	s := newSandbox()
	return s, s.Start()
}

// newSandbox returns a sandbox with its operations, not started.
func newSandbox() *Sandbox {
	s := &Sandbox{Server: sandbox.NewServer()}
	s.Registry = sandbox.NewSavedRegistry[*Seller](s.Server)
	s.Seller = s.SellerOf
	s.AccessToken = tradingToken
	s.Handle("POST "+TokenPath, OpToken, s.CodeToken(&s.Consents, sandbox.TokenEndpoint{Read: readGrant,
		Grants: []string{sandbox.GrantRefreshToken}, Prefix: "v^1.1#", TTL: 2 * time.Hour,
		Answer: func(v string, ttl time.Duration, _ *sandbox.Account) any {
			return TokenAnswer{AccessToken: v, ExpiresIn: int64(ttl.Seconds()), TokenType: "User Access Token"}
		}}, sandbox.CodeEndpoint{RefreshPrefix: "v^1.1#r", Answer: func(v string, ttl time.Duration, acct *sandbox.Account) any {
		return TokenAnswer{AccessToken: v, ExpiresIn: int64(ttl.Seconds()), TokenType: "User Access Token",
			RefreshToken: acct.Refresh, RefreshTokenExpiresIn: refreshTokenLife}
	}}))
	s.Admin("GET "+ConsentPath, s.consent)
	s.Handle("GET "+ordersPath, OpGetOrders, s.authed(s.getOrders))
	s.Handle("POST "+fulfillPath, OpFulfill, s.authed(s.fulfill))
	s.Handle("GET "+fulfillPath, OpFulfillments, s.authed(s.fulfillments))
	s.Handle("POST "+bulkPath, OpBulkQuantity, s.authed(s.bulk))
	s.Handle("GET "+offersPath, OpGetOffers, s.authed(s.getOffers))
	s.Handle("POST "+TradingPath, OpTrading, s.trading)
	s.Handle("POST "+migratePath, OpMigrate, s.authed(s.migrate))
	s.Handle("GET "+UserPath, OpGetUser, s.Authed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusUnauthorized, 1001, "OAuth", "REQUEST", "Invalid access token")
	}, s.getUser))
	sandbox.ServeAdminOrders(s.Server, s.Registry, sandbox.AdminOrders[*Seller, *Order]{
		SKU:   func(sl *Seller, asked string) string { return cmp.Or(asked, sandbox.FirstInStock(sl.Listings)) },
		Place: (*Seller).placeOrder, Change: (*Seller).changeLine, Generic: genericOrder})
	return s
}

// writeError answers eBay's error body.
func writeError(w http.ResponseWriter, status, id int, domain, category, msg string) {
	sandbox.WriteJSON(w, status, ErrorBody{Errors: []Error{{ErrorID: id, Domain: domain, Category: category, Message: msg}}})
}

// identityScope is the scope of getUser.
const identityScope = "https://api.ebay.com/oauth/api_scope/commerce.identity.readonly"

// knownScope reports whether sc is a scope the sandbox grants: a sell scope or the identity
// scope.
func knownScope(sc string) bool {
	return strings.HasPrefix(sc, "https://api.ebay.com/oauth/api_scope/sell.") || sc == identityScope
}

// readGrant reads eBay's token request: the client's id and secret as Basic auth (none is
// 401 invalid_client), a form body, and only sell scopes and the identity scope.
func readGrant(r *http.Request) (sandbox.Grant, *sandbox.Refusal) {
	if _, _, ok := sandbox.BasicAuth(r); !ok {
		return sandbox.Grant{}, &sandbox.Refusal{Status: http.StatusUnauthorized, Code: "invalid_client", Description: "client authentication failed"}
	}
	if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" {
		return sandbox.Grant{}, &sandbox.Refusal{Status: http.StatusBadRequest, Code: "invalid_request", Description: "a form body is required"}
	}
	g, refused := sandbox.FormGrant(r)
	if refused != nil {
		return g, refused
	}
	for _, sc := range strings.Fields(g.Scope) {
		if !knownScope(sc) {
			return g, &sandbox.Refusal{Status: http.StatusBadRequest, Code: "invalid_scope",
				Description: "the requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client"}
		}
	}
	return g, nil
}

// authed serves h for the seller of a valid bearer token on its marketplace, else eBay's
// 401 (or 400 for another marketplace).
func (s *Sandbox) authed(h func(http.ResponseWriter, *http.Request, *Seller)) http.HandlerFunc {
	return s.Authed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusUnauthorized, 1001, "OAuth", "REQUEST", "Invalid access token")
	}, func(w http.ResponseWriter, r *http.Request, sl *Seller) {
		if m := r.Header.Get("X-Ebay-C-Marketplace-Id"); m != "" && m != sl.Marketplace {
			writeError(w, http.StatusBadRequest, 1002, "API_FULFILLMENT", "REQUEST", "The marketplace "+m+" is not the seller's")
			return
		}
		h(w, r, sl)
	})
}
