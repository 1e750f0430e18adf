// Package etsy is the local stack's Etsy sandbox: a stateful fake, on the sandbox.Server
// framework, of the Open API v3 operations the Etsy connector calls, in Etsy's wire format:
// the consent page and token endpoint (authorization code with PKCE, refresh tokens that
// rotate), getShopReceipts, getShopReceipt, createReceiptShipment, getListingsByShop,
// getListingInventory and updateListingInventory (the whole inventory replaced: a product
// missing from the write is dropped), getShopByOwnerUserId, with the x-api-key of the app on
// every call and Etsy's per-second and per-day limits. docs/connectors.md ("Etsy") has its
// rule table.
package etsy

import (
	"cmp"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The paths the sandbox serves (Etsy's consent page, token endpoint and API paths on one
// host).
const (
	ConsentPath = "/oauth/connect"
	TokenPath   = "/v3/public/oauth/token"
	apiPrefix   = "/v3/application"
	shopPrefix  = apiPrefix + "/shops/{shop_id}"
)

// The operations as the sandbox counts them: OpAPI is every API call (Etsy's limits are the
// app's, whatever the call), OpToken the token endpoint. Requests() names each call's
// operation id.
const (
	OpAPI   = "openapi"
	OpToken = "token"
)

// Etsy's published limits: 10 calls a second and 10,000 a day (docs/connectors.md, "Etsy").
const (
	PerSecond = 10
	PerDay    = 10000
)

// AccessTTL is the life of an access token Etsy gives (an hour).
const AccessTTL = time.Hour

// Sandbox is the Etsy sandbox.
type Sandbox struct {
	*sandbox.Server
	*sandbox.Registry[*Shop]

	// AfterRead, when set, runs (under the lock) after each getListingInventory answered:
	// a test changes the listing there, as the seller would between the connector's read
	// and its write.
	AfterRead func(sh *Shop, listing *ListingState)

	mu       sync.Mutex
	requests []Request
	days     map[string][]time.Time // calls per shop within the last day
	perDay   int
	overDay  int
}

// Request is a call of the API the sandbox received: its operation id, method, URL and body.
type Request struct {
	Op, Method, URL string
	Header          http.Header
	Body            []byte
}

// Shop is one shop's account (in JSON in the state's file): the app's keystring and shared
// secret (ClientID, Secret), the first refresh token, the shop and its owner, listings,
// receipts, and the grants given.
type Shop struct {
	sandbox.Account
	ShopID   int64                    `json:"shop_id"`
	UserID   int64                    `json:"user_id"`
	Name     string                   `json:"shop_name"`
	Listings map[int64]*ListingState  `json:"listings"`
	Receipts map[int64]*Receipt       `json:"receipts"`
	Payments map[int64]*Payment       `json:"payments"` // by receipt id
	Seq      int64                    `json:"seq"`
	Refresh  map[string]*RefreshState `json:"refresh_tokens"`
	Codes    map[string]*CodeState    `json:"codes"`
}

// ListingState is a listing of the shop and its inventory (deleted products kept, as Etsy
// keeps them for show_deleted).
type ListingState struct {
	ListingID int64     `json:"listing_id"`
	Title     string    `json:"title"`
	State     string    `json:"state"`
	Inventory Inventory `json:"inventory"`
}

// RefreshState is a refresh token given: the one it was given for ("" for the first), and
// whether it is spent (a token given for it was used).
type RefreshState struct {
	Parent string `json:"parent,omitempty"`
	Spent  bool   `json:"spent,omitempty"`
}

// CodeState is an authorization code given by the consent page, until its exchange.
type CodeState struct {
	Challenge   string    `json:"challenge"`
	RedirectURI string    `json:"redirect_uri"`
	Exp         time.Time `json:"exp"`
}

// next is a new id of the shop's (the lock held).
func (sh *Shop) next() int64 {
	sh.Seq++
	return sh.ShopID*1000 + sh.Seq
}

// New returns a started sandbox on a free port, its state in memory.
func New() (*Sandbox, error) {
	s := newSandbox()
	return s, s.Start()
}

// newSandbox returns a sandbox with its operations, not started.
func newSandbox() *Sandbox {
	s := &Sandbox{Server: sandbox.NewServer(), days: map[string][]time.Time{}, perDay: PerDay}
	s.Registry = sandbox.NewSavedRegistry[*Shop](s.Server)
	s.Seller = s.SellerOf
	s.RateHeader = "X-Limit-Per-Second"
	s.SetLimit(OpAPI, PerSecond, PerSecond)
	s.Admin("GET "+ConsentPath, s.consent)
	s.Handle("POST "+TokenPath, OpToken, s.token)
	s.api("GET "+shopPrefix+"/receipts", "getShopReceipts", s.getReceipts)
	s.api("GET "+shopPrefix+"/receipts/{receipt_id}", "getShopReceipt", s.getReceipt)
	s.api("GET "+shopPrefix+"/receipts/{receipt_id}/payments", "getShopPaymentByReceiptId", s.getPayments)
	s.api("POST "+shopPrefix+"/receipts/{receipt_id}/tracking", "createReceiptShipment", s.createShipment)
	s.api("GET "+shopPrefix+"/listings", "getListingsByShop", s.getListings)
	s.api("GET "+apiPrefix+"/listings/{listing_id}/inventory", "getListingInventory", s.getInventory)
	s.api("PUT "+apiPrefix+"/listings/{listing_id}/inventory", "updateListingInventory", s.updateInventory)
	s.Handle("GET "+apiPrefix+"/users/{user_id}/shops", OpAPI, s.record("getShopByOwnerUserId", s.shopOfUser))
	sandbox.ServeAdminOrders(s.Server, s.Registry, sandbox.AdminOrders[*Shop, *Receipt]{
		SKU:   func(sh *Shop, asked string) string { return cmp.Or(asked, sh.firstInStock()) },
		Place: (*Shop).placeOrder, Change: (*Shop).changeLine, Generic: genericOrder})
	return s
}

// api serves pattern as the operation id, for the shop of the request's access token with
// the app's x-api-key.
func (s *Sandbox) api(pattern, id string, h func(http.ResponseWriter, *http.Request, *Shop)) {
	s.Handle(pattern, OpAPI, s.record(id, s.Authed(func(w http.ResponseWriter, _ *http.Request) {
		sandbox.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token"})
	}, func(w http.ResponseWriter, r *http.Request, sh *Shop) {
		if !s.keyOK(w, r, sh) || !s.withinDay(w, sh) {
			return
		}
		if v := r.PathValue("shop_id"); v != "" && v != strconv.FormatInt(sh.ShopID, 10) {
			sandbox.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "The token is not the shop's owner's"})
			return
		}
		h(w, r, sh)
	})))
}

// record keeps each request of the operation id (Requests), then serves h.
func (s *Sandbox) record(id string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, ok := readBody(w, r)
		if !ok {
			return
		}
		s.mu.Lock()
		s.requests = append(s.requests, Request{Op: id, Method: r.Method, URL: r.URL.String(), Header: r.Header.Clone(), Body: body})
		s.mu.Unlock()
		h(w, r)
	}
}

// Requests are the API's calls received so far (the token endpoint's are not).
func (s *Sandbox) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// keyOK checks the request's x-api-key: the shop's app's "keystring:shared_secret"
// (a keystring alone is 403 "Shared secret is required", as Etsy answers since 2026).
func (s *Sandbox) keyOK(w http.ResponseWriter, r *http.Request, sh *Shop) bool {
	id, secret, ok := strings.Cut(r.Header.Get("X-Api-Key"), ":")
	switch {
	case id != sh.ClientID:
		sandbox.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "Invalid API key"})
	case !ok || secret == "":
		sandbox.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "Shared secret is required in x-api-key header."})
	case secret != sh.Secret:
		sandbox.WriteJSON(w, http.StatusForbidden, map[string]string{"error": "Invalid API key"})
	default:
		return true
	}
	return false
}

// SetDayLimit makes the daily limit n calls a shop (PerDay by default): a test makes it small.
func (s *Sandbox) SetDayLimit(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perDay = n
}

// OverDay is the number of calls that came over the daily limit (answered 429).
func (s *Sandbox) OverDay() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.overDay
}

// withinDay counts a call of the shop's token against the daily limit (a sliding 24 hours):
// past it, 429 with the wait until the oldest call leaves the window.
func (s *Sandbox) withinDay(w http.ResponseWriter, sh *Shop) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	key := strconv.FormatInt(sh.ShopID, 10)
	calls := s.days[key]
	for len(calls) > 0 && now.Sub(calls[0]) > 24*time.Hour {
		calls = calls[1:]
	}
	if len(calls) >= s.perDay {
		s.overDay++
		w.Header().Set("Retry-After", strconv.Itoa(int(calls[0].Add(24*time.Hour).Sub(now).Seconds())+1))
		sandbox.WriteJSON(w, http.StatusTooManyRequests, map[string]string{"error": "daily limit exceeded"})
		return false
	}
	s.days[key] = append(calls, now)
	w.Header().Set("X-Limit-Per-Day", strconv.Itoa(s.perDay))
	w.Header().Set("X-Remaining-Today", strconv.Itoa(s.perDay-len(calls)-1))
	return true
}
