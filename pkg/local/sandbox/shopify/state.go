package shopify

import (
	"fmt"
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

// genericOrder is the order as the admin order endpoints answer it, as sandbox.PlaceOrder
// reads it (id, updated_at, and the order as document).
func genericOrder(o *Order) sandbox.GenericOrder {
	return sandbox.NewGenericOrder(o.ID, o.UpdatedAt, o)
}

// defaultSKU is the SKU of the first variant, by id, that shows a quantity, else of the first
// ("" without variants; the lock held).
func (sh *shopState) defaultSKU() string {
	sku := ""
	for _, id := range slices.Sorted(maps.Keys(sh.Variants)) {
		v := sh.Variants[id]
		if sku == "" || (sh.Levels[v.InventoryItem] > 0 && sh.Levels[sh.item0(sku)] <= 0) {
			sku = v.SKU
		}
	}
	return sku
}

// placeOrder places a new order on the shop (a sandbox.OrderRequest: its lines, currency,
// and shipped whole with a tracking number; the lock held).
func (sh *shopState) placeOrder(in sandbox.OrderRequest) (*Order, error) {
	lines := make([]LineInput, in.Lines)
	for i := range lines {
		lines[i] = LineInput{SKU: in.SKU, Quantity: int64(in.Quantity), Price: "19.99"}
	}
	o := sh.newOrder(time.Now().UTC(), in.Currency, lines)
	if in.Shipped {
		shipped := map[*FulfillmentOrderLine]int64{}
		for _, fo := range o.FulfillOrders {
			for _, fl := range fo.Lines {
				shipped[fl] = fl.Remaining
			}
		}
		sh.record(o, shipped, "UPS", "1Z"+strings.TrimPrefix(o.ID, "gid://shopify/Order/"), "")
	}
	return o, nil
}

// changeLine ships (one fulfillment with a tracking number, from the line's open
// fulfillment orders) or cancels (removes from the order, as an order edit or a refund with
// restock does: currentQuantity and what remains to fulfil go down) more units of a line of
// an order of the shop, which becomes the order's last change (the lock held).
func (sh *shopState) changeLine(in sandbox.LineChange) (*Order, error) {
	o := sh.Orders[in.OrderID]
	if o == nil || in.Line > len(o.Lines) {
		return nil, sandbox.Refuse(http.StatusNotFound, "no such order or line on the shop of channel "+in.ChannelUUID)
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
		return nil, sandbox.Refuse(http.StatusConflict, fmt.Sprintf("line %d has %d units left to ship or cancel", in.Line, left))
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
	return o, nil
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
