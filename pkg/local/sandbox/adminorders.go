package sandbox

import (
	"encoding/json"
	"errors"
	"io"
	"maps"
	"net/http"
	"slices"
	"time"
)

// AdminOrders is what a sandbox's own order endpoints (AdminOrdersPath, AdminLinesPath)
// need of it: the kit decodes and checks the request, finds the seller bound to its channel
// under the lock, saves the state and answers the order as a GenericOrder; the sandbox says
// only how its orders are placed, changed and shown. O is the sandbox's order.
type AdminOrders[S Seller, O any] struct {
	// SKU is the SKU an order for the seller takes, given the one asked ("" asked: the
	// seller's default); "" when the seller has nothing to order (a 409).
	SKU func(s S, asked string) string
	// Place places the order the request asks for on the seller (its SKU settled, its
	// quantity, lines and currency defaulted; the lock held).
	Place func(s S, in OrderRequest) (O, error)
	// Change ships or cancels units of a line of an order of the seller (the lock held).
	// An error made by Refuse answers its status and message, any other one 500.
	Change func(s S, in LineChange) (O, error)
	// Generic is the order as the endpoints answer it.
	Generic func(O) GenericOrder
}

// ServeAdminOrders serves AdminOrdersPath and AdminLinesPath on the sandbox's server for the
// sellers of its registry.
func ServeAdminOrders[S Seller, O any](srv *Server, g *Registry[S], a AdminOrders[S, O]) {
	srv.Admin("POST "+AdminOrdersPath, adminHandler(g, a, http.StatusCreated, DecodeOrderRequest,
		func(in OrderRequest) string { return in.ChannelUUID },
		func(s S, in OrderRequest) (O, error) {
			if in.SKU = a.SKU(s, in.SKU); in.SKU == "" {
				var none O
				return none, Refuse(http.StatusConflict, "the shop of channel "+in.ChannelUUID+" has no listing yet to order: name a sku it lists")
			}
			return a.Place(s, in)
		}))
	srv.Admin("POST "+AdminLinesPath, adminHandler(g, a, http.StatusOK, DecodeLineChange,
		func(in LineChange) string { return in.ChannelUUID }, a.Change))
}

// adminHandler serves an admin request In: decoded (decode answers a bad one), under the
// lock, for the seller bound to its channel (404 for none), done by do and answered status
// with the order, the state saved; or answered the error do returns.
func adminHandler[S Seller, O, In any](g *Registry[S], a AdminOrders[S, O], status int, decode func(http.ResponseWriter, *http.Request) (In, bool),
	channel func(In) string, do func(S, In) (O, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		in, ok := decode(w, r)
		if !ok {
			return
		}
		g.Lock()
		defer g.Unlock()
		s, ok := g.Bound(channel(in))
		if !ok {
			adminError(w, http.StatusNotFound, "no shop of this sandbox is channel "+channel(in))
			return
		}
		o, err := do(s, in)
		var refused *refusal
		switch {
		case errors.As(err, &refused):
			adminError(w, refused.status, refused.msg)
		case err != nil:
			adminError(w, http.StatusInternalServerError, err.Error())
		default:
			g.Save()
			WriteJSON(w, status, a.Generic(o))
		}
	}
}

// refusal is an admin request a sandbox refuses: its status and message.
type refusal struct {
	status int
	msg    string
}

// Error is the refusal's message.
func (e *refusal) Error() string { return e.msg }

// Refuse is the error by which an AdminOrders callback refuses a request with the status
// and the message.
func Refuse(status int, msg string) error { return &refusal{status: status, msg: msg} }

// adminError answers status with the message as the admin endpoints do.
func adminError(w http.ResponseWriter, status int, msg string) {
	WriteJSON(w, status, map[string]string{"error": msg})
}

// DecodeLineChange reads the LineChange of a call of AdminLinesPath, or answers 400 with the
// reason and false.
func DecodeLineChange(w http.ResponseWriter, r *http.Request) (LineChange, bool) {
	var in LineChange
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil || in.ChannelUUID == "" || in.OrderID == "" ||
		in.Line < 1 || in.Shipped < 0 || in.Cancelled < 0 || in.Shipped+in.Cancelled == 0 {
		adminError(w, http.StatusBadRequest, "a JSON object with channel_uuid, order_id, line (from 1) and shipped or cancelled (from 0, not both 0) required")
		return in, false
	}
	return in, true
}

// NewGenericOrder is a sandbox's order v (its document, in JSON) as a GenericOrder of the id,
// last changed at.
func NewGenericOrder(id string, at time.Time, v any) GenericOrder {
	doc, _ := json.Marshal(v)
	return GenericOrder{ID: id, UpdatedAt: at.UTC(), Document: doc}
}

// FirstInStock is the first SKU, in order, that has a quantity, else the first ("" for
// none): the SKU an admin order takes by default on a sandbox that keeps quantities by SKU.
func FirstInStock(quantities map[string]int64) string {
	skus := slices.Sorted(maps.Keys(quantities))
	for _, sku := range skus {
		if quantities[sku] > 0 {
			return sku
		}
	}
	if len(skus) > 0 {
		return skus[0]
	}
	return ""
}
