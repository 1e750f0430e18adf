package shopify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// state is what a Shop keeps in its file: its address, its shops by access token and the
// tokens its client-credentials grant gave.
type state struct {
	Addr   string                   `json:"addr"`
	Shops  map[string]*shopState    `json:"shops"`
	Tokens map[string]sandbox.Token `json:"tokens,omitempty"`
}

// Open returns a started sandbox Shopify whose state is kept in file (JSON, readable by the
// owner only), read back when it exists, and which starts on the address it had before (a
// free loopback port the first time), as sandbox.OpenGeneric does.
func Open(file string) (*Shop, error) {
	s := newShop()
	err := sandbox.OpenState(s.Server, s.Registry, file, func(st *state) string {
		s.Restore(st.Shops, st.Tokens)
		for token := range st.Shops {
			s.Permanent(token, token)
		}
		return st.Addr
	})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// state is what the Shop keeps in its file (the lock held).
func (s *Shop) state() any {
	return state{Addr: strings.TrimPrefix(s.URL, "http://"), Shops: s.Sellers(), Tokens: s.Tokens()}
}

// placeOrder serves sandbox.AdminOrdersPath: a new order on the shop bound to the channel
// (a sandbox.OrderRequest: its lines, currency, and shipped whole with a tracking number),
// answered 201 as sandbox.PlaceOrder reads it (id, updated_at, and the order as document).
func (s *Shop) placeOrder(w http.ResponseWriter, r *http.Request) {
	in, ok := sandbox.DecodeOrderRequest(w, r)
	if !ok {
		return
	}
	s.Lock()
	defer s.Unlock()
	sh, ok := s.Bound(in.ChannelUUID)
	if !ok {
		sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "no shop of this sandbox is channel " + in.ChannelUUID})
		return
	}
	if in.SKU == "" {
		// The first variant, by id, that shows a quantity, else the first.
		for _, id := range slices.Sorted(maps.Keys(sh.Variants)) {
			v := sh.Variants[id]
			if in.SKU == "" || (sh.Levels[v.InventoryItem] > 0 && sh.Levels[sh.item0(in.SKU)] <= 0) {
				in.SKU = v.SKU
			}
		}
	}
	if in.SKU == "" {
		sandbox.WriteJSON(w, http.StatusConflict, map[string]string{"error": "the shop of channel " + in.ChannelUUID + " has no variant yet: name a sku"})
		return
	}
	lines := make([]LineInput, max(in.Lines, 1))
	for i := range lines {
		lines[i] = LineInput{SKU: in.SKU, Quantity: int64(in.Quantity), Price: "19.99"}
	}
	o := sh.newOrder(time.Now().UTC(), cmp.Or(in.Currency, "USD"), lines)
	if in.Shipped {
		shipped := map[*FulfillmentOrderLine]int64{}
		for _, fo := range o.FulfillOrders {
			for _, fl := range fo.Lines {
				shipped[fl] = fl.Remaining
			}
		}
		sh.record(o, shipped, "UPS", "1Z"+strings.TrimPrefix(o.ID, "gid://shopify/Order/"), "")
	}
	s.Save()
	s.answerOrder(w, http.StatusCreated, o)
}

// answerOrder answers the order as sandbox.PlaceOrder reads it.
func (s *Shop) answerOrder(w http.ResponseWriter, status int, o *Order) {
	doc, _ := json.Marshal(o)
	sandbox.WriteJSON(w, status, map[string]any{"id": o.ID, "updated_at": o.UpdatedAt, "document": json.RawMessage(doc)})
}

// changeLine serves sandbox.AdminLinesPath: ships (one fulfillment with a tracking number,
// from the line's open fulfillment orders) or cancels (removes from the order, as an order
// edit or a refund with restock does: currentQuantity and what remains to fulfil go down)
// more units of a line, which becomes the order's last change.
func (s *Shop) changeLine(w http.ResponseWriter, r *http.Request) {
	var in sandbox.LineChange
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil || in.ChannelUUID == "" || in.OrderID == "" ||
		in.Line < 1 || in.Shipped < 0 || in.Cancelled < 0 || in.Shipped+in.Cancelled == 0 {
		sandbox.WriteJSON(w, http.StatusBadRequest, map[string]string{"error": "a JSON object with channel_uuid, order_id, line (from 1) and shipped or cancelled is required"})
		return
	}
	s.Lock()
	defer s.Unlock()
	sh, ok := s.Bound(in.ChannelUUID)
	var o *Order
	if ok {
		o = sh.Orders[in.OrderID]
	}
	if o == nil || in.Line > len(o.Lines) {
		sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "no such order or line on the shop of channel " + in.ChannelUUID})
		return
	}
	l := o.Lines[in.Line-1]
	var open []*FulfillmentOrderLine
	var left int64
	for _, fo := range o.FulfillOrders {
		for _, fl := range fo.Lines {
			if fl.LineItem == l.ID && (fo.Status == "OPEN" || fo.Status == "IN_PROGRESS") {
				open, left = append(open, fl), left+fl.Remaining
			}
		}
	}
	if int64(in.Shipped+in.Cancelled) > left {
		sandbox.WriteJSON(w, http.StatusConflict, map[string]string{"error": fmt.Sprintf("line %d has %d units left to ship or cancel", in.Line, left)})
		return
	}
	take := func(n int64) map[*FulfillmentOrderLine]int64 {
		out := map[*FulfillmentOrderLine]int64{}
		for _, fl := range open {
			q := min(n, fl.Remaining-out[fl])
			if q > 0 {
				out[fl], n = out[fl]+q, n-q
			}
		}
		return out
	}
	if in.Cancelled > 0 {
		for fl, q := range take(int64(in.Cancelled)) {
			fl.Remaining -= q
			fl.Total -= q
		}
		l.Current -= int64(in.Cancelled)
	}
	if in.Shipped > 0 {
		sh.record(o, take(int64(in.Shipped)), "UPS", fmt.Sprintf("1Z%s%d", strings.TrimPrefix(o.ID, "gid://shopify/Order/"), len(sh.Fulfills)), "")
	}
	o.UpdatedAt = time.Now().UTC()
	s.Save()
	s.answerOrder(w, http.StatusOK, o)
}

// item0 is the inventory item of the shop's variant of sku ("" without one; the lock held).
func (sh *shopState) item0(sku string) string {
	for _, v := range sh.Variants {
		if v.SKU == sku {
			return v.InventoryItem
		}
	}
	return ""
}
