package sandbox

import (
	"cmp"
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The operations of the generic marketplace, as its Server counts them.
const (
	OpToken        = "token"
	OpShop         = "shop"
	OpOrders       = "orders"
	OpInventory    = "inventory"
	OpFulfillments = "fulfillments"
)

// MaxInventoryBatch is the most items one POST /v1/inventory takes.
const MaxInventoryBatch = 25

// Generic is a marketplace of the sandbox's own design, with a small JSON API:
//
//	POST /oauth/token          {"client_id","client_secret","refresh_token"} -> {"access_token","expires_in"}
//	GET  /v1/shop              the seller's shop (a cheap read)
//	GET  /v1/orders            ?updated_since=RFC3339&page_token=&limit= -> {"orders":[{"id","updated_at","document"}],"next_page_token"}
//	POST /v1/inventory         {"items":[{"sku","quantity"}]} (at most 25) -> {"results":[{"sku","item_id","ok","quantity","error","managed"}]}
//	POST /v1/orders/{id}/fulfillments  {"shipment_id","carrier","tracking_number","tracking_url","items"}
//
// Calls but the token's carry "Authorization: Bearer <access_token>"; a refused or unknown
// token is a 401 {"error","error_description"}. Orders come back by update time, then id.
type Generic struct {
	*Server
	// TokenTTL is the life of an access token (0: an hour).
	TokenTTL time.Duration

	mu      sync.Mutex
	sellers map[string]*seller // by client id
	tokens  map[string]token
	// file, when set, keeps the state across restarts (OpenGeneric): written after every
	// change.
	file StateFile
}

// seller is one seller's shop (in JSON in a Generic's file).
type seller struct {
	Secret     string                  `json:"client_secret"`
	Refresh    string                  `json:"refresh_token"`
	Refused    bool                    `json:"refused"`
	Channel    string                  `json:"channel_uuid,omitempty"` // the channel it serves (BindChannel)
	Orders     map[string]GenericOrder `json:"orders"`
	Quantities map[string]int64        `json:"quantities"`
	// Managed are the items whose quantity the marketplace keeps itself (it stocks and
	// ships them), with why: it refuses to take their quantity.
	Managed      map[string]string                 `json:"managed,omitempty"`
	Fulfillments map[string]map[string]Fulfillment `json:"fulfillments"` // order id -> shipment id -> fulfillment
}

// itemPrefix starts the marketplace's id of a seller's item: "GI-" and its SKU.
const itemPrefix = "GI-"

// token is an access token's seller and expiry.
type token struct {
	Seller string    `json:"seller"`
	Exp    time.Time `json:"exp"`
}

// GenericOrder is an order of the generic marketplace: Document is the order import
// document multisell takes (docs/orders.md), which the connector passes on.
type GenericOrder struct {
	ID        string          `json:"id"`
	UpdatedAt time.Time       `json:"updated_at"`
	Document  json.RawMessage `json:"document"`
}

// Fulfillment is a shipment's tracking posted on an order.
type Fulfillment struct {
	ShipmentID     string            `json:"shipment_id"`
	Carrier        string            `json:"carrier"`
	TrackingNumber string            `json:"tracking_number"`
	TrackingURL    string            `json:"tracking_url"`
	Items          []json.RawMessage `json:"items"`
}

// NewGeneric returns a started generic marketplace, on a free port, whose state lives as
// long as it does; Close stops it.
func NewGeneric() (*Generic, error) {
	g := newGeneric()
	return g, g.Start()
}

// newGeneric returns a generic marketplace with its operations, not started.
func newGeneric() *Generic {
	g := &Generic{Server: NewServer(), sellers: map[string]*seller{}, tokens: map[string]token{}}
	g.Seller = g.sellerOf
	g.RateHeader = "X-RateLimit-Limit"
	g.Handle("POST /oauth/token", OpToken, g.token)
	g.Handle("GET /v1/shop", OpShop, g.authed(g.shop))
	g.Handle("GET /v1/orders", OpOrders, g.authed(g.orders))
	g.Handle("POST /v1/inventory", OpInventory, g.authed(g.inventory))
	g.Handle("POST /v1/orders/{id}/fulfillments", OpFulfillments, g.authed(g.fulfill))
	g.Admin("POST "+AdminOrdersPath, g.placeOrder)
	return g
}

// AddSeller opens a shop for the client id with its secret and refresh token.
func (g *Generic) AddSeller(clientID, secret, refresh string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.sellers[clientID] = &seller{Secret: secret, Refresh: refresh, Orders: map[string]GenericOrder{},
		Quantities: map[string]int64{}, Fulfillments: map[string]map[string]Fulfillment{}}
	g.saveLocked()
}

// Refuse makes the seller's credentials and tokens refused (on) or accepted again.
func (g *Generic) Refuse(clientID string, on bool) {
	g.change(clientID, func(s *seller) { s.Refused = on })
}

// PutOrder places or changes an order of the seller.
func (g *Generic) PutOrder(clientID string, o GenericOrder) {
	g.change(clientID, func(s *seller) { s.Orders[o.ID] = o })
}

// BindChannel records that the seller's shop is multisell's channel channelUUID, so that
// an order placed for that channel (POST /sandbox/orders) is the seller's.
func (g *Generic) BindChannel(clientID, channelUUID string) {
	g.change(clientID, func(s *seller) { s.Channel = channelUUID })
}

// Manage makes the marketplace keep the quantity of the seller's item sku itself, with
// reason as its answer to a push (reason "": the seller's quantities again).
func (g *Generic) Manage(clientID, sku, reason string) {
	g.change(clientID, func(s *seller) {
		if s.Managed == nil {
			s.Managed = map[string]string{}
		}
		if reason == "" {
			delete(s.Managed, sku)
			return
		}
		s.Managed[sku] = reason
	})
}

// Quantity is what the seller's listing sku shows, and whether it has one.
func (g *Generic) Quantity(clientID, sku string) (q int64, ok bool) {
	g.with(clientID, func(s *seller) { q, ok = s.Quantities[sku] })
	return q, ok
}

// Fulfillments are the trackings posted on the seller's order.
func (g *Generic) Fulfillments(clientID, order string) []Fulfillment {
	var out []Fulfillment
	g.with(clientID, func(s *seller) {
		for _, f := range s.Fulfillments[order] {
			out = append(out, f)
		}
	})
	slices.SortFunc(out, func(a, b Fulfillment) int { return strings.Compare(a.ShipmentID, b.ShipmentID) })
	return out
}

// with runs f on the seller (nothing when there is none) under the lock.
func (g *Generic) with(clientID string, f func(*seller)) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if s := g.sellers[clientID]; s != nil {
		f(s)
	}
}

// change runs f on the seller as with does, then saves the state.
func (g *Generic) change(clientID string, f func(*seller)) {
	g.with(clientID, func(s *seller) {
		f(s)
		g.saveLocked()
	})
}

// sellerOf is the client id a request's bearer token stands for ("" for none).
func (g *Generic) sellerOf(r *http.Request) string {
	bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.tokens[bearer].Seller
}

// refuse answers a refused credential or token.
func refuse(w http.ResponseWriter, desc string) {
	WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_grant", "error_description": desc})
}

// token exchanges a refresh token for an access token.
func (g *Generic) token(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		RefreshToken string `json:"refresh_token"`
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "invalid_request"})
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s := g.sellers[in.ClientID]
	switch {
	case s == nil || s.Secret != in.ClientSecret:
		refuse(w, "unknown client or wrong secret")
		return
	case s.Refused || s.Refresh != in.RefreshToken:
		refuse(w, "the refresh token was revoked")
		return
	}
	ttl := cmp.Or(g.TokenTTL, time.Hour)
	now := time.Now()
	maps.DeleteFunc(g.tokens, func(_ string, t token) bool { return now.After(t.Exp) })
	v := rand.Text()
	g.tokens[v] = token{Seller: in.ClientID, Exp: now.Add(ttl)}
	g.saveLocked()
	WriteJSON(w, http.StatusOK, map[string]any{"access_token": v, "token_type": "bearer", "expires_in": int(ttl.Seconds())})
}

// authed serves h for the seller of a valid bearer token, else 401.
func (g *Generic) authed(h func(http.ResponseWriter, *http.Request, *seller)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		bearer, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		g.mu.Lock()
		defer g.mu.Unlock()
		t, ok := g.tokens[bearer]
		s := g.sellers[t.Seller]
		if !ok || s == nil || s.Refused || time.Now().After(t.Exp) {
			refuse(w, "the access token is invalid or expired")
			return
		}
		h(w, r, s)
	}
}

// shop answers the seller's shop.
func (g *Generic) shop(w http.ResponseWriter, _ *http.Request, s *seller) {
	WriteJSON(w, http.StatusOK, map[string]int{"orders": len(s.Orders), "listings": len(s.Quantities)})
}

// orders answers a page of the orders updated since updated_since.
func (g *Generic) orders(w http.ResponseWriter, r *http.Request, s *seller) {
	q := r.URL.Query()
	since, err := time.Parse(time.RFC3339Nano, q.Get("updated_since"))
	if err != nil {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "updated_since must be an RFC 3339 time"})
		return
	}
	limit, _ := strconv.Atoi(q.Get("limit"))
	limit = min(cmp.Or(limit, 50), 100)
	from, _ := strconv.Atoi(q.Get("page_token"))
	var list []GenericOrder
	for _, o := range s.Orders {
		if !o.UpdatedAt.Before(since) {
			list = append(list, o)
		}
	}
	slices.SortFunc(list, func(a, b GenericOrder) int {
		return cmp.Or(a.UpdatedAt.Compare(b.UpdatedAt), strings.Compare(a.ID, b.ID))
	})
	page := list[min(from, len(list)):min(from+limit, len(list))]
	next := ""
	if from+limit < len(list) {
		next = strconv.Itoa(from + limit)
	}
	WriteJSON(w, http.StatusOK, map[string]any{"orders": page, "next_page_token": next})
}

// inventory sets the quantities of a batch of SKUs.
func (g *Generic) inventory(w http.ResponseWriter, r *http.Request, s *seller) {
	var in struct {
		Items []struct {
			SKU      string `json:"sku"`
			Quantity int64  `json:"quantity"`
		} `json:"items"`
	}
	if json.NewDecoder(r.Body).Decode(&in) != nil || len(in.Items) == 0 || len(in.Items) > MaxInventoryBatch {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "items must hold 1 to 25 items"})
		return
	}
	type result struct {
		SKU      string `json:"sku"`
		ItemID   string `json:"item_id"`
		OK       bool   `json:"ok"`
		Quantity int64  `json:"quantity"`
		Error    string `json:"error,omitempty"`
		Managed  string `json:"managed,omitempty"`
	}
	out := make([]result, len(in.Items))
	for i, it := range in.Items {
		out[i] = result{SKU: it.SKU, ItemID: itemPrefix + it.SKU, Quantity: s.Quantities[it.SKU]}
		switch reason, managed := s.Managed[it.SKU]; {
		case it.SKU == "" || it.Quantity < 0:
			out[i].Error = "sku and a quantity of 0 or more required"
		case managed:
			out[i].Error, out[i].Managed = reason, reason
		default:
			s.Quantities[it.SKU] = it.Quantity
			out[i].OK, out[i].Quantity = true, it.Quantity
		}
	}
	g.saveLocked()
	WriteJSON(w, http.StatusOK, map[string]any{"results": out})
}

// fulfill posts a shipment's tracking on an order (again: no change).
func (g *Generic) fulfill(w http.ResponseWriter, r *http.Request, s *seller) {
	id := r.PathValue("id")
	if _, ok := s.Orders[id]; !ok {
		WriteJSON(w, http.StatusNotFound, map[string]string{"error": "order " + id + " not found"})
		return
	}
	var f Fulfillment
	if json.NewDecoder(r.Body).Decode(&f) != nil || f.ShipmentID == "" || f.TrackingNumber == "" {
		WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "shipment_id and tracking_number required"})
		return
	}
	if s.Fulfillments[id] == nil {
		s.Fulfillments[id] = map[string]Fulfillment{}
	}
	s.Fulfillments[id][f.ShipmentID] = f
	g.saveLocked()
	WriteJSON(w, http.StatusCreated, f)
}
