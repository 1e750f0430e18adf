package shopify

import (
	"encoding/json"
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
// (a sandbox.OrderRequest), answered 201 as sandbox.PlaceOrder reads it (id, updated_at,
// and the order as document).
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
	o := sh.newOrder(time.Now().UTC(), []LineInput{{SKU: in.SKU, Quantity: int64(in.Quantity), Price: "19.99"}})
	s.Save()
	doc, _ := json.Marshal(o)
	sandbox.WriteJSON(w, http.StatusCreated, map[string]any{"id": o.ID, "updated_at": o.UpdatedAt, "document": json.RawMessage(doc)})
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
