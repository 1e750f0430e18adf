// Package amazon is the local stack's fake of Amazon's Selling Partner API: a stateful
// sandbox.Server that speaks the operations multisell's Amazon connector calls, in their
// wire format (docs/connectors.md, "Amazon"): the Login with Amazon token endpoint, the
// Orders API v0 (getOrders with NextToken paging, getOrderItems, confirmShipment), the
// Listings Items API (patchListingsItem, getListingsItem) and the Feeds API
// (createFeedDocument, the document's upload and download, createFeed, getFeed, getFeeds,
// getFeedDocument) with JSON_LISTINGS_FEED processing reports. Errors are Amazon's
// {"errors":[{"code","message","details"}]}, every answer states its operation's rate in
// x-amzn-RateLimit-Limit, and each seller has its listings, orders and shipment
// confirmations. OpenAmazon keeps the state in a file across restarts.
package amazon

import (
	"cmp"
	"crypto/rand"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strings"
	"sync"
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
	// TokenTTL is the life of an access token (0: an hour); FeedDelay how long a feed stays
	// in processing before its report is ready (0: at once).
	TokenTTL, FeedDelay time.Duration

	mu       sync.Mutex
	st       state
	file     sandbox.StateFile
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
	Addr    string             `json:"addr"`
	Sellers map[string]*Seller `json:"sellers"` // by seller id
	Tokens  map[string]token   `json:"tokens"`
	Docs    map[string]*doc    `json:"docs"`
	Feeds   map[string]*feed   `json:"feeds"`
	Seq     int                `json:"seq"`
}

// Seller is one selling partner: its app's credentials, its listings and orders.
type Seller struct {
	ID            string `json:"seller_id"`
	MarketplaceID string `json:"marketplace_id"`
	ClientID      string `json:"client_id"`
	ClientSecret  string `json:"client_secret"`
	RefreshToken  string `json:"refresh_token"`
	Refused       bool   `json:"refused"`
	// Channel is the multisell channel the seller's account is connected as (BindChannel).
	Channel       string                     `json:"channel_uuid,omitempty"`
	Listings      map[string]*Listing        `json:"listings"`
	Orders        map[string]*StoredOrder    `json:"orders"`
	Confirmations map[string][]PackageDetail `json:"confirmations"`
}

// Listing is a seller's listing: its quantity, and whether Amazon fulfills it (FBA: its
// quantity is Amazon's, under fulfillment channel AMAZON_NA, and a patch of DEFAULT is refused).
type Listing struct {
	SKU         string `json:"sku"`
	ProductType string `json:"product_type"`
	Quantity    int64  `json:"quantity"`
	FBA         bool   `json:"fba"`
}

// token is an access token's seller and expiry.
type token struct {
	Seller string    `json:"seller"`
	Exp    time.Time `json:"exp"`
}

// NewAmazon returns a started sandbox on a free port with the published limits
// (amazon.Published; the operations are named as the connector names them), whose state
// lives as long as it does.
func NewAmazon() (*Amazon, error) {
	a := newAmazon()
	return a, a.Start()
}

// OpenAmazon returns a started sandbox whose state is kept in file (read back when it
// exists, written after every change, readable by the owner only), on the address it had
// before (a free loopback port the first time).
func OpenAmazon(file string) (*Amazon, error) {
	a := newAmazon()
	err := sandbox.OpenState(a.Server, file, func(st *state) string {
		a.st.Addr, a.st.Seq = st.Addr, st.Seq
		maps.Copy(a.st.Sellers, st.Sellers)
		maps.Copy(a.st.Tokens, st.Tokens)
		maps.Copy(a.st.Docs, st.Docs)
		maps.Copy(a.st.Feeds, st.Feeds)
		return st.Addr
	}, &a.mu, &a.file, a.state)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// newAmazon returns the sandbox with its operations and the published limits, not started.
func newAmazon() *Amazon {
	a := &Amazon{Server: sandbox.NewServer(), st: state{Sellers: map[string]*Seller{}, Tokens: map[string]token{},
		Docs: map[string]*doc{}, Feeds: map[string]*feed{}}, refuse: map[string][]Error{}, broken: map[string][]string{}}
	a.Seller = a.sellerOf
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
	a.Handle("POST "+TokenPath, amazon.OpToken, a.token)
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
	a.Admin("POST "+sandbox.AdminOrdersPath, a.placeOrder)
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
		a.mu.Lock()
		defer a.mu.Unlock()
		a.requests = append(a.requests, Request{Op: op, Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery,
			Header: r.Header.Clone(), Body: body})
		t, ok := a.st.Tokens[r.Header.Get("x-amz-access-token")]
		s := a.st.Sellers[t.Seller]
		if !ok || s == nil || s.Refused || time.Now().After(t.Exp) {
			sandbox.WriteJSON(w, http.StatusForbidden, errorList(Error{Code: "Unauthorized",
				Message: "Access to requested resource is denied.", Details: "The access token you provided is revoked, malformed or invalid."}))
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
		a.saveLocked()
	})
}

// sellerOf is the seller id a request's access token stands for ("" for none).
func (a *Amazon) sellerOf(r *http.Request) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if r.URL.Path == TokenPath {
		return ""
	}
	return a.st.Tokens[r.Header.Get("x-amz-access-token")].Seller
}

// lwaError answers a Login with Amazon error.
func lwaError(w http.ResponseWriter, status int, code, desc string) {
	sandbox.WriteJSON(w, status, map[string]string{"error": code, "error_description": desc})
}

// token is the Login with Amazon refresh-token grant (form-encoded).
func (a *Amazon) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "refresh_token" {
		lwaError(w, http.StatusBadRequest, "unsupported_grant_type", "grant_type must be refresh_token")
		return
	}
	f := r.PostForm
	a.mu.Lock()
	defer a.mu.Unlock()
	var s *Seller
	for _, c := range a.st.Sellers {
		if c.ClientID == f.Get("client_id") && c.RefreshToken == f.Get("refresh_token") {
			s = c
		}
	}
	switch {
	case s == nil && f.Get("refresh_token") == "":
		lwaError(w, http.StatusBadRequest, "invalid_request", "refresh_token is required")
		return
	case s == nil || s.Refused:
		lwaError(w, http.StatusBadRequest, "invalid_grant", "The request has an invalid grant parameter : refresh_token")
		return
	case s.ClientSecret != f.Get("client_secret"):
		lwaError(w, http.StatusUnauthorized, "invalid_client", "Client authentication failed")
		return
	}
	ttl := cmp.Or(a.TokenTTL, time.Hour)
	now := time.Now()
	maps.DeleteFunc(a.st.Tokens, func(_ string, t token) bool { return now.After(t.Exp) })
	v := "Atza|" + rand.Text()
	a.st.Tokens[v] = token{Seller: s.ID, Exp: now.Add(ttl)}
	a.saveLocked()
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"access_token": v, "token_type": "bearer",
		"expires_in": int(ttl.Seconds()), "refresh_token": s.RefreshToken})
}

// AddSeller adds a selling partner (its seller id, marketplace and its app's credentials),
// without listings or orders; adding it again keeps its listings and orders.
func (a *Amazon) AddSeller(id, marketplace, clientID, secret, refresh string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.st.Sellers[id]
	if s == nil {
		s = &Seller{Listings: map[string]*Listing{}, Orders: map[string]*StoredOrder{}, Confirmations: map[string][]PackageDetail{}}
		a.st.Sellers[id] = s
	}
	s.ID, s.MarketplaceID, s.ClientID, s.ClientSecret, s.RefreshToken = id, marketplace, clientID, secret, refresh
	a.saveLocked()
}

// Refuse revokes the seller's refresh token and access tokens (on), or accepts them again.
func (a *Amazon) Refuse(seller string, on bool) {
	a.change(seller, func(s *Seller) { s.Refused = on })
}

// BindChannel records that the seller is multisell's channel channelUUID, so that an
// order placed for that channel (POST /sandbox/orders) is the seller's.
func (a *Amazon) BindChannel(seller, channelUUID string) {
	a.change(seller, func(s *Seller) { s.Channel = channelUUID })
}

// PutListing adds or replaces a listing of the seller.
func (a *Amazon) PutListing(seller string, l Listing) {
	l.ProductType = cmp.Or(l.ProductType, "PRODUCT")
	a.change(seller, func(s *Seller) { s.Listings[l.SKU] = &l })
}

// Quantity is the quantity the seller's listing sku shows (for an FBA listing, Amazon's).
func (a *Amazon) Quantity(seller, sku string) (q int64, ok bool) {
	a.with(seller, func(s *Seller) {
		if l := s.Listings[sku]; l != nil {
			q, ok = l.Quantity, true
		}
	})
	return q, ok
}

// Confirmations are the shipment confirmations posted on the seller's order.
func (a *Amazon) Confirmations(seller, order string) []PackageDetail {
	var out []PackageDetail
	a.with(seller, func(s *Seller) { out = append(out, s.Confirmations[order]...) })
	return out
}

// RefuseNext answers the next call of op 400 with the error e (after its token is checked).
func (a *Amazon) RefuseNext(op string, e Error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.refuse[op] = append(a.refuse[op], e)
}

// BreakNext answers the next call of op 200 with body as it is (a malformed answer).
func (a *Amazon) BreakNext(op, body string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.broken[op] = append(a.broken[op], body)
}

// Requests are the API calls served so far (the token's excepted), in order.
func (a *Amazon) Requests() []Request {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]Request(nil), a.requests...)
}

// with runs f on the seller (nothing when there is none) under the lock.
func (a *Amazon) with(seller string, f func(*Seller)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.st.Sellers[seller]; s != nil {
		f(s)
	}
}

// change runs f on the seller as with does, then saves the state.
func (a *Amazon) change(seller string, f func(*Seller)) {
	a.with(seller, func(s *Seller) {
		f(s)
		a.saveLocked()
	})
}

// nextID is a new identifier with prefix (the lock held).
func (a *Amazon) nextID(prefix string) string {
	a.st.Seq++
	return fmt.Sprintf("%s%d", prefix, 50000+a.st.Seq)
}

// saveLocked writes the state to the file, if the sandbox has one (the lock held).
func (a *Amazon) saveLocked() { a.file.Save(a.state) }

// state is what the sandbox keeps in its file (the lock held).
func (a *Amazon) state() any {
	a.st.Addr = strings.TrimPrefix(a.URL, "http://")
	return a.st
}
