package sandbox

import (
	"cmp"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
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

// TokenPath is the path of the generic marketplace's token endpoint.
const TokenPath = "/oauth/token"

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
	// The sellers by client id, their tokens (an hour's unless TokenTTL says otherwise).
	*Registry[*seller]
}

// seller is one seller's shop (in JSON in a Generic's file).
type seller struct {
	Account
	Orders     map[string]GenericOrder `json:"orders"`
	Quantities map[string]int64        `json:"quantities"`
	// Managed are the items whose quantity the marketplace keeps itself (it stocks and
	// ships them), with why: it refuses to take their quantity.
	Managed      map[string]string                 `json:"managed,omitempty"`
	Fulfillments map[string]map[string]Fulfillment `json:"fulfillments"` // order id -> shipment id -> fulfillment
}

// itemPrefix starts the marketplace's id of a seller's item: "GI-" and its SKU.
const itemPrefix = "GI-"

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
	g := &Generic{Server: NewServer()}
	g.Registry = NewSavedRegistry[*seller](g.Server)
	g.Seller = g.SellerOf
	g.RateHeader = "X-RateLimit-Limit"
	g.Handle("POST "+TokenPath, OpToken, g.Token(TokenEndpoint{Read: jsonGrant, Grants: []string{GrantRefreshToken}, TTL: time.Hour}))
	g.Handle("GET /v1/shop", OpShop, g.authed(g.shop))
	g.Handle("GET /v1/orders", OpOrders, g.authed(g.orders))
	g.Handle("POST /v1/inventory", OpInventory, g.authed(g.inventory))
	g.Handle("POST /v1/orders/{id}/fulfillments", OpFulfillments, g.authed(g.fulfill))
	ServeAdminOrders(g.Server, g.Registry, AdminOrders[*seller, GenericOrder]{
		SKU:   func(s *seller, asked string) string { return cmp.Or(asked, FirstInStock(s.Quantities)) },
		Place: (*seller).placeOrder, Change: (*seller).changeLine, Generic: func(o GenericOrder) GenericOrder { return o }})
	return g
}

// AddSeller opens a shop for the client id with its secret and refresh token.
func (g *Generic) AddSeller(clientID, secret, refresh string) {
	g.Add(clientID, Account{ClientID: clientID, Secret: secret, Refresh: refresh}, func() *seller {
		return &seller{Orders: map[string]GenericOrder{}, Quantities: map[string]int64{}, Fulfillments: map[string]map[string]Fulfillment{}}
	})
}

// PutOrder places or changes an order of the seller.
func (g *Generic) PutOrder(clientID string, o GenericOrder) {
	g.Change(clientID, func(s *seller) { s.Orders[o.ID] = o })
}

// Order is the seller's order id as it is now (the zero order when there is none).
func (g *Generic) Order(clientID, id string) GenericOrder {
	var o GenericOrder
	g.With(clientID, func(s *seller) { o = s.Orders[id] })
	return o
}

// Manage makes the marketplace keep the quantity of the seller's item sku itself, with
// reason as its answer to a push (reason "": the seller's quantities again).
func (g *Generic) Manage(clientID, sku, reason string) {
	g.Change(clientID, func(s *seller) {
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
	g.With(clientID, func(s *seller) { q, ok = s.Quantities[sku] })
	return q, ok
}

// Fulfillments are the trackings posted on the seller's order.
func (g *Generic) Fulfillments(clientID, order string) []Fulfillment {
	var out []Fulfillment
	g.With(clientID, func(s *seller) {
		for _, f := range s.Fulfillments[order] {
			out = append(out, f)
		}
	})
	slices.SortFunc(out, func(a, b Fulfillment) int { return strings.Compare(a.ShipmentID, b.ShipmentID) })
	return out
}

// jsonGrant reads the generic marketplace's token request: a JSON object of client_id,
// client_secret and refresh_token.
func jsonGrant(r *http.Request) (Grant, *Refusal) {
	var in struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		RefreshToken string `json:"refresh_token"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil {
		return Grant{}, &Refusal{http.StatusBadRequest, "invalid_request", "a JSON object is required"}
	}
	return Grant{Type: GrantRefreshToken, ClientID: in.ClientID, Secret: in.ClientSecret, RefreshToken: in.RefreshToken}, nil
}

// authed serves h for the seller of a valid bearer token, else 401.
func (g *Generic) authed(h func(http.ResponseWriter, *http.Request, *seller)) http.HandlerFunc {
	return g.Authed(func(w http.ResponseWriter, _ *http.Request) {
		WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token", "error_description": "the access token is invalid or expired"})
	}, h)
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
	g.Save()
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
	g.Save()
	WriteJSON(w, http.StatusCreated, f)
}
