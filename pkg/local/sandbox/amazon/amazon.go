// Package amazon is the local stack's fake of Amazon's Selling Partner API: a stateful
// sandbox.Server that speaks the operations multisell's Amazon connector calls, in their
// wire format (docs/connectors.md, "Amazon"): the Login with Amazon token endpoint, the
// Orders API v0 (getOrders with NextToken paging, getOrderItems, confirmShipment), the
// Listings Items API (patchListingsItem, getListingsItem) and the Feeds API
// (createFeedDocument, the document's upload and download, createFeed, getFeed, getFeeds,
// getFeedDocument) with JSON_LISTINGS_FEED processing reports. Errors are Amazon's
// {"errors":[{"code","message","details"}]}, every answer states its operation's rate in
// x-amzn-RateLimit-Limit, and each seller has its listings, orders and shipment
// confirmations. Open keeps the state in a file across restarts.
package amazon

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// TokenPath is the path of the sandbox's Login with Amazon token endpoint (the whole
// token URL is the sandbox's URL and this path).
const TokenPath = "/auth/o2/token"

// Amazon is the Selling Partner API sandbox.
type Amazon struct {
	*sandbox.Server
	// The sellers by seller id and their tokens (an hour's unless TokenTTL says otherwise).
	*sandbox.Registry[*Seller]
	// FeedDelay is how long a feed stays in processing before its report is ready (0: at
	// once).
	FeedDelay time.Duration
	// GzipReports makes the processing reports written from now GZIP-compressed, as Amazon
	// may serve them (compressionAlgorithm GZIP).
	GzipReports bool
	// Consents are the apps registered with the sandbox (RegisterApp) and the codes its
	// consent page gave (consent.go).
	Consents sandbox.Consents

	st       state // its documents and feeds (the registry keeps the sellers and tokens)
	requests []Request
	refuse   map[string][]Error // op -> the answers of its next calls (400 with the error)
	broken   map[string][]string
}

// Request is a call of the API the sandbox served, as the client sent it: the connector's
// tests check every one against Amazon's models.
type Request struct {
	Op, Method, Path, Query string
	Header                  http.Header
	Body                    []byte
}

// Error is one of Amazon's errors.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details string `json:"details,omitempty"`
}

// state is what the sandbox keeps (in JSON in its file).
type state struct {
	Addr    string                   `json:"addr"`
	Sellers map[string]*Seller       `json:"sellers"` // by seller id
	Tokens  map[string]sandbox.Token `json:"tokens"`
	Docs    map[string]*doc          `json:"docs"`
	Feeds   map[string]*feed         `json:"feeds"`
	RDTs    map[string]rdt           `json:"rdts"` // the Restricted Data Tokens given
	Seq     int                      `json:"seq"`
}

// Seller is one selling partner: its app's credentials, its listings and orders.
type Seller struct {
	ID            string `json:"seller_id"`
	MarketplaceID string `json:"marketplace_id"`
	// Account is its app's credentials and the multisell channel it is connected as.
	sandbox.Account
	Listings      map[string]*Listing        `json:"listings"`
	Orders        map[string]*StoredOrder    `json:"orders"`
	Confirmations map[string][]PackageDetail `json:"confirmations"`
	// Lacks are the roles the seller did not grant the app (LackRole).
	Lacks map[string]bool `json:"lacks,omitempty"`
}

// The roles of a Selling Partner API app the sandbox knows (Amazon's "Roles in the Selling
// Partner API"): Product Listing for the Listings Items and Feeds APIs, and the restricted
// Direct-to-Consumer Delivery role for a Restricted Data Token of the orders' addresses.
const (
	RoleListing    = "Product Listing"
	RoleRestricted = "Direct-to-Consumer Delivery (Restricted)"
)

// roleOf is the role each operation needs beyond the Orders one every seller grants.
var roleOf = map[string]string{
	amazon.OpPatchListingsItem: RoleListing, amazon.OpGetListingsItem: RoleListing,
	amazon.OpCreateFeedDocument: RoleListing, amazon.OpCreateFeed: RoleListing, amazon.OpGetFeed: RoleListing,
	amazon.OpGetFeeds: RoleListing, amazon.OpGetFeedDocument: RoleListing,
	amazon.OpCreateRestrictedDataToken: RoleRestricted,
}

// Listing is a seller's listing: its quantity, and whether Amazon fulfills it (FBA: its
// quantity is Amazon's, under fulfillment channel AMAZON_NA, and a patch of DEFAULT is refused).
type Listing struct {
	SKU         string `json:"sku"`
	ProductType string `json:"product_type"`
	Quantity    int64  `json:"quantity"`
	FBA         bool   `json:"fba"`
	// HandlingDays is the seller's handling time (fulfillment_availability's
	// lead_time_to_ship_max_days; nil: none).
	HandlingDays *int64 `json:"lead_time_to_ship_max_days,omitempty"`
}

// New returns a started sandbox on a free port with the published limits
// (amazon.Published; the operations are named as the connector names them), whose state
// lives as long as it does.
func New() (*Amazon, error) {
	a := newAmazon()
	return a, a.Start()
}

// Open returns a started sandbox whose state is kept in file (read back when it exists,
// written after every change, readable by the owner only), on the address it had before (a
// free loopback port the first time).
func Open(file string) (*Amazon, error) {
	a := newAmazon()
	err := sandbox.OpenState(a.Server, a.Registry, file, func(st *state) string {
		a.st.Addr, a.st.Seq = st.Addr, st.Seq
		a.Restore(st.Sellers, st.Tokens)
		maps.Copy(a.st.Docs, st.Docs)
		maps.Copy(a.st.Feeds, st.Feeds)
		maps.Copy(a.st.RDTs, st.RDTs)
		return st.Addr
	})
	if err != nil {
		return nil, err
	}
	return a, nil
}

// newAmazon returns the sandbox with its operations and the published limits, not started.
func newAmazon() *Amazon {
	a := &Amazon{Server: sandbox.NewServer(), st: state{Docs: map[string]*doc{}, Feeds: map[string]*feed{}, RDTs: map[string]rdt{}},
		refuse: map[string][]Error{}, broken: map[string][]string{}}
	a.Registry = sandbox.NewRegistry[*Seller](a.state)
	a.AccessToken = sandbox.HeaderToken("x-amz-access-token")
	a.Seller = a.SellerOf
	a.RateHeader = "x-amzn-RateLimit-Limit"
	a.ErrorBody = func(status int, message string) any {
		code := "InternalFailure"
		if status == http.StatusTooManyRequests {
			code = "QuotaExceeded"
		}
		return errorList(Error{Code: code, Message: message})
	}
	for op, l := range amazon.Published {
		a.SetLimit(op, l.Rate, l.Burst)
	}
	a.Handle("POST "+TokenPath, amazon.OpToken, a.CodeToken(&a.Consents, sandbox.TokenEndpoint{Read: sandbox.FormGrant,
		Grants: []string{sandbox.GrantRefreshToken}, Prefix: "Atza|", TTL: time.Hour,
		Answer: func(v string, ttl time.Duration, acct *sandbox.Account) any {
			return map[string]any{"access_token": v, "token_type": "bearer", "expires_in": int(ttl.Seconds()), "refresh_token": acct.Refresh}
		}}, sandbox.CodeEndpoint{RefreshPrefix: "Atzr|"}))
	a.Admin("GET "+ConsentPath, a.consent)
	a.api("POST /tokens/2021-03-01/restrictedDataToken", amazon.OpCreateRestrictedDataToken, a.createRestrictedDataToken)
	a.api("GET /orders/v0/orders", amazon.OpGetOrders, a.getOrders)
	a.api("GET /orders/v0/orders/{orderId}/orderItems", amazon.OpGetOrderItems, a.getOrderItems)
	a.api("POST /orders/v0/orders/{orderId}/shipmentConfirmation", amazon.OpConfirmShipment, a.confirmShipment)
	a.api("PATCH /listings/2021-08-01/items/{sellerId}/{sku}", amazon.OpPatchListingsItem, a.patchListingsItem)
	a.api("GET /listings/2021-08-01/items/{sellerId}/{sku}", amazon.OpGetListingsItem, a.getListingsItem)
	a.api("POST /feeds/2021-06-30/documents", amazon.OpCreateFeedDocument, a.createFeedDocument)
	a.api("POST /feeds/2021-06-30/feeds", amazon.OpCreateFeed, a.createFeed)
	a.api("GET /feeds/2021-06-30/feeds/{feedId}", amazon.OpGetFeed, a.getFeed)
	a.api("GET /feeds/2021-06-30/feeds", amazon.OpGetFeeds, a.getFeeds)
	a.api("GET /feeds/2021-06-30/documents/{feedDocumentId}", amazon.OpGetFeedDocument, a.getFeedDocument)
	a.Admin("PUT "+uploadPath+"{id}", a.upload)
	a.Admin("GET "+downloadPath+"{id}", a.download)
	sandbox.ServeAdminOrders(a.Server, a.Registry, sandbox.AdminOrders[*Seller, *StoredOrder]{
		SKU:   (*Seller).orderSKU,
		Place: a.placeOrder, Change: (*Seller).changeLine, Generic: genericOrder})
	return a
}

// errorList is Amazon's error body.
func errorList(e ...Error) any { return map[string][]Error{"errors": e} }

// writeError answers status with Amazon's error body.
func writeError(w http.ResponseWriter, status int, code, message string) {
	sandbox.WriteJSON(w, status, errorList(Error{Code: code, Message: message}))
}

// api serves pattern as op for the seller of a valid x-amz-access-token (else 403 as
// Amazon answers), recording the request, and answering an error or a broken body set up
// by RefuseNext or BreakNext before h.
func (a *Amazon) api(pattern, op string, h func(http.ResponseWriter, *http.Request, *Seller)) {
	a.Handle(pattern, op, func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if err != nil {
			writeError(w, http.StatusBadRequest, "InvalidInput", "the body could not be read")
			return
		}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		a.Lock()
		a.requests = append(a.requests, Request{Op: op, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: body})
		a.Unlock()
		a.Authed(deny, func(w http.ResponseWriter, r *http.Request, s *Seller) {
			if a.expiredRDT(r) {
				deny(w, r)
				return
			}
			a.serve(w, r, op, s, h)
		})(w, r)
	})
}

// deny is Amazon's answer to a refused access token: 403 Unauthorized.
func deny(w http.ResponseWriter, _ *http.Request) {
	sandbox.WriteJSON(w, http.StatusForbidden, errorList(Error{Code: "Unauthorized",
		Message: "Access to requested resource is denied.", Details: "The access token you provided is revoked, malformed or invalid."}))
}

// serve answers a call of op by the seller s, its token checked (the lock held): 403 when
// the seller lacks the op's role (LackRole), an error or a broken body set up by RefuseNext
// or BreakNext, else h, and saves the state.
func (a *Amazon) serve(w http.ResponseWriter, r *http.Request, op string, s *Seller, h func(http.ResponseWriter, *http.Request, *Seller)) {
	if s.Lacks[roleOf[op]] {
		// Amazon's answer to a call the app's roles do not allow: 403 Unauthorized, whose
		// details, unlike a refused token's, say nothing of the access token.
		sandbox.WriteJSON(w, http.StatusForbidden, errorList(Error{Code: "Unauthorized", Message: "Access to requested resource is denied."}))
		return
	}
	if q := a.refuse[op]; len(q) > 0 {
		a.refuse[op] = q[1:]
		sandbox.WriteJSON(w, http.StatusBadRequest, errorList(q[0]))
		return
	}
	if q := a.broken[op]; len(q) > 0 {
		a.broken[op] = q[1:]
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, q[0])
		return
	}
	h(w, r, s)
	a.Save()
}

// AddSeller adds a selling partner (its seller id, marketplace and its app's credentials),
// without listings or orders; adding it again keeps its listings and orders.
func (a *Amazon) AddSeller(id, marketplace, clientID, secret, refresh string) {
	a.Add(id, sandbox.Account{ClientID: clientID, Secret: secret, Refresh: refresh}, func() *Seller {
		return &Seller{ID: id, Listings: map[string]*Listing{}, Orders: map[string]*StoredOrder{}, Confirmations: map[string][]PackageDetail{}}
	})
	a.Change(id, func(s *Seller) { s.MarketplaceID = marketplace })
}

// LackRole makes the seller lack the role (RoleListing, RoleRestricted) of its app (on), as
// a seller who did not grant it, or grant it again.
func (a *Amazon) LackRole(seller, role string, on bool) {
	a.Change(seller, func(s *Seller) {
		if s.Lacks == nil {
			s.Lacks = map[string]bool{}
		}
		s.Lacks[role] = on
	})
}

// PutListing adds or replaces a listing of the seller.
func (a *Amazon) PutListing(seller string, l Listing) {
	l.ProductType = cmp.Or(l.ProductType, "PRODUCT")
	a.Change(seller, func(s *Seller) { s.Listings[l.SKU] = &l })
}

// Quantity is the quantity the seller's listing sku shows (for an FBA listing, Amazon's).
func (a *Amazon) Quantity(seller, sku string) (q int64, ok bool) {
	a.With(seller, func(s *Seller) {
		if l := s.Listings[sku]; l != nil {
			q, ok = l.Quantity, true
		}
	})
	return q, ok
}

// HandlingDays is the handling time the seller's listing sku shows (lead_time_to_ship_max_days),
// and false when it has none (or there is no such listing).
func (a *Amazon) HandlingDays(seller, sku string) (days int64, ok bool) {
	a.With(seller, func(s *Seller) {
		if l := s.Listings[sku]; l != nil && l.HandlingDays != nil {
			days, ok = *l.HandlingDays, true
		}
	})
	return days, ok
}

// Confirmations are the shipment confirmations posted on the seller's order.
func (a *Amazon) Confirmations(seller, order string) []PackageDetail {
	var out []PackageDetail
	a.With(seller, func(s *Seller) { out = append(out, s.Confirmations[order]...) })
	return out
}

// RefuseNext answers the next call of op 400 with the error e (after its token is checked).
func (a *Amazon) RefuseNext(op string, e Error) {
	a.Lock()
	defer a.Unlock()
	a.refuse[op] = append(a.refuse[op], e)
}

// BreakNext answers the next call of op 200 with body as it is (a malformed answer).
func (a *Amazon) BreakNext(op, body string) {
	a.Lock()
	defer a.Unlock()
	a.broken[op] = append(a.broken[op], body)
}

// Requests are the API calls served so far (the token's excepted), in order.
func (a *Amazon) Requests() []Request {
	a.Lock()
	defer a.Unlock()
	return append([]Request(nil), a.requests...)
}

// nextID is a new identifier with prefix (the lock held).
func (a *Amazon) nextID(prefix string) string {
	a.st.Seq++
	return fmt.Sprintf("%s%d", prefix, 50000+a.st.Seq)
}

// state is what the sandbox keeps in its file (the lock held).
func (a *Amazon) state() any {
	st := a.st
	st.Addr, st.Sellers, st.Tokens = strings.TrimPrefix(a.URL, "http://"), a.Sellers(), a.Tokens()
	return st
}
