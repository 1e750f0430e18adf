// Package ebay is the local stack's eBay sandbox: a stateful fake, on the sandbox.Server
// framework, of the operations the eBay connector calls, in eBay's wire format: the OAuth
// token endpoint (refresh-token grant, Basic client auth), getOrders (lastmodifieddate
// filter, offset paging), createShippingFulfillment and bulkUpdatePriceQuantity (per-SKU
// answers, the daily revision limit per listing), with eBay's error bodies. A seller has
// listings (SKU -> quantity) and orders of its own; tests and the CLI add and change them
// (admin.go). docs/connectors.md ("eBay") describes it.
package ebay

import (
	"cmp"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	conn "github.com/multisell/multisell/pkg/connectors/ebay"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The operations as the sandbox counts and limits them (eBay's operation ids).
const (
	OpToken        = "token"
	OpGetOrders    = "getOrders"
	OpFulfill      = "createShippingFulfillment"
	OpBulkQuantity = "bulkUpdatePriceQuantity"
)

// The API's paths.
const (
	TokenPath   = "/identity/v1/oauth2/token"
	ordersPath  = "/sell/fulfillment/v1/order"
	bulkPath    = "/sell/inventory/v1/bulk_update_price_quantity"
	fulfillPath = ordersPath + "/{orderId}/shipping_fulfillment"
)

// DailyRevisions is eBay's limit of revisions of one listing per day.
const DailyRevisions = 250

// Sandbox is the eBay sandbox.
type Sandbox struct {
	*sandbox.Server
	// TokenTTL is the life of an access token (0: two hours, as eBay's).
	TokenTTL time.Duration

	mu      sync.Mutex
	sellers map[string]*Seller // by client id
	tokens  map[string]token
	file    sandbox.StateFile // the state's file (Open), written after every change
}

// Seller is one seller's account (in JSON in the state's file).
type Seller struct {
	Secret      string `json:"client_secret"`
	Refresh     string `json:"refresh_token"`
	Marketplace string `json:"marketplace_id"`
	Refused     bool   `json:"refused"`
	Channel     string `json:"channel_uuid,omitempty"`
	// Orders by order id; Listings are each SKU's available quantity.
	Orders   map[string]*conn.Order `json:"orders"`
	Listings map[string]int64       `json:"listings"`
	// Revisions counts each SKU's revisions on a day ("2006-01-02 SKU").
	Revisions map[string]int `json:"revisions"`
	// Fulfillments are the shipping fulfillments posted, by order id.
	Fulfillments map[string][]conn.ShippingFulfillmentDetails `json:"fulfillments"`
}

// token is an access token's seller and expiry.
type token struct {
	Seller string    `json:"seller"`
	Exp    time.Time `json:"exp"`
}

// New returns a started sandbox on a free port, its state in memory.
func New() (*Sandbox, error) {
	s := newSandbox()
	return s, s.Start()
}

// newSandbox returns a sandbox with its operations, not started.
func newSandbox() *Sandbox {
	s := &Sandbox{Server: sandbox.NewServer(), sellers: map[string]*Seller{}, tokens: map[string]token{}}
	s.Seller = s.sellerOf
	s.Handle("POST "+TokenPath, OpToken, s.token)
	s.Handle("GET "+ordersPath, OpGetOrders, s.authed(s.getOrders))
	s.Handle("POST "+fulfillPath, OpFulfill, s.authed(s.fulfill))
	s.Handle("POST "+bulkPath, OpBulkQuantity, s.authed(s.bulk))
	s.Admin("POST "+sandbox.AdminOrdersPath, s.placeOrder)
	return s
}

// sellerOf is the client id a request's bearer token stands for ("" for none).
func (s *Sandbox) sellerOf(r *http.Request) string {
	bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokens[bearer].Seller
}

// writeError answers eBay's error body.
func writeError(w http.ResponseWriter, status, id int, domain, category, msg string) {
	sandbox.WriteJSON(w, status, conn.ErrorBody{Errors: []conn.Error{{ErrorID: id, Domain: domain, Category: category, Message: msg}}})
}

// token serves the refresh-token grant.
func (s *Sandbox) token(w http.ResponseWriter, r *http.Request) {
	refuse := func(status int, code, desc string) {
		sandbox.WriteJSON(w, status, connectors.OAuthError{Code: code, Description: desc})
	}
	id, secret, ok := basicAuth(r.Header.Get("Authorization"))
	if !ok {
		refuse(http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	}
	if r.Header.Get("Content-Type") != "application/x-www-form-urlencoded" || r.ParseForm() != nil {
		refuse(http.StatusBadRequest, "invalid_request", "a form body is required")
		return
	}
	if r.PostForm.Get("grant_type") != "refresh_token" {
		refuse(http.StatusBadRequest, "unsupported_grant_type", "grant_type must be refresh_token")
		return
	}
	for _, sc := range strings.Fields(r.PostForm.Get("scope")) {
		if !strings.HasPrefix(sc, "https://api.ebay.com/oauth/api_scope/sell.") {
			refuse(http.StatusBadRequest, "invalid_scope", "the requested scope is invalid, unknown, malformed, or exceeds the scope granted to the client")
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sl := s.sellers[id]
	switch {
	case sl == nil || sl.Secret != secret:
		refuse(http.StatusUnauthorized, "invalid_client", "client authentication failed")
		return
	case sl.Refused || sl.Refresh != r.PostForm.Get("refresh_token"):
		refuse(http.StatusBadRequest, "invalid_grant", "the provided authorization refresh token is invalid or was issued to another client")
		return
	}
	ttl := cmp.Or(s.TokenTTL, 2*time.Hour)
	now := time.Now()
	for k, t := range s.tokens {
		if now.After(t.Exp) {
			delete(s.tokens, k)
		}
	}
	v := "v^1.1#" + rand.Text()
	s.tokens[v] = token{Seller: id, Exp: now.Add(ttl)}
	s.saveLocked()
	sandbox.WriteJSON(w, http.StatusOK, conn.TokenAnswer{AccessToken: v, ExpiresIn: int64(ttl.Seconds()), TokenType: "User Access Token"})
}

// basicAuth reads Basic client credentials.
func basicAuth(h string) (id, secret string, ok bool) {
	enc, ok := strings.CutPrefix(h, "Basic ")
	if !ok {
		return "", "", false
	}
	b, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(b), ":")
}

// authed serves h for the seller of a valid bearer token (and its marketplace), else eBay's
// 401.
func (s *Sandbox) authed(h func(http.ResponseWriter, *http.Request, *Seller)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		defer s.mu.Unlock()
		t, ok := s.tokens[bearer]
		sl := s.sellers[t.Seller]
		if !ok || sl == nil || sl.Refused || time.Now().After(t.Exp) {
			writeError(w, http.StatusUnauthorized, 1001, "OAuth", "REQUEST", "Invalid access token")
			return
		}
		if m := r.Header.Get("X-Ebay-C-Marketplace-Id"); m != "" && m != sl.Marketplace {
			writeError(w, http.StatusBadRequest, 1002, "API_FULFILLMENT", "REQUEST", "The marketplace "+m+" is not the seller's")
			return
		}
		h(w, r, sl)
	}
}
