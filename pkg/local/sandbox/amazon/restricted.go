package amazon

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// rdt is a Restricted Data Token the sandbox gave: its resources and expiry.
type rdt struct {
	Resources []Resource `json:"resources"`
	Exp       time.Time  `json:"exp"`
}

// Resource is a restricted resource of a Restricted Data Token (tokens_2021-03-01
// RestrictedResource).
type Resource struct {
	Method       string   `json:"method"`
	Path         string   `json:"path"`
	DataElements []string `json:"dataElements,omitempty"`
}

// rdtTTL is the life of a Restricted Data Token (the model's example: expiresIn 3600).
const rdtTTL = time.Hour

// createRestrictedDataToken gives the seller a Restricted Data Token of the resources asked
// (1 to 50, each a method of the model's enum and a path): an access token of the seller's
// that getOrders answers the restricted data to (ordersView). A seller without the
// restricted role is refused 403 before (serve, LackRole).
func (a *Amazon) createRestrictedDataToken(w http.ResponseWriter, r *http.Request, s *Seller) {
	var in struct {
		Resources []Resource `json:"restrictedResources"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in) != nil || len(in.Resources) == 0 || len(in.Resources) > 50 {
		writeError(w, http.StatusBadRequest, "InvalidInput", "restrictedResources must hold 1 to 50 resources")
		return
	}
	for _, res := range in.Resources {
		if !slices.Contains([]string{"GET", "PUT", "POST", "DELETE"}, res.Method) || res.Path == "" {
			writeError(w, http.StatusBadRequest, "InvalidInput", "a restricted resource needs a method (GET, PUT, POST, DELETE) and a path")
			return
		}
	}
	tok := "Atz.sprdt|" + rand.Text()
	a.Permanent(tok, s.ID) // as an access token of the seller's; expired by api (expiredRDT)
	a.st.RDTs[tok] = rdt{Resources: in.Resources, Exp: time.Now().Add(rdtTTL)}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"restrictedDataToken": tok, "expiresIn": int(rdtTTL.Seconds())})
}

// granted reports whether the request's access token is a Restricted Data Token of GET path
// with the data element (the lock held).
func (a *Amazon) granted(r *http.Request, path, element string) bool {
	for _, res := range a.st.RDTs[r.Header.Get("x-amz-access-token")].Resources {
		if res.Method == http.MethodGet && res.Path == path && slices.Contains(res.DataElements, element) {
			return true
		}
	}
	return false
}

// ordersView is the order as a getOrders call sees it: its ShippingAddress's name, street
// lines and phone only to a Restricted Data Token of shippingAddress, its BuyerInfo only to
// one of buyerInfo (ordersV0 Order.ShippingAddress, Order.BuyerInfo); city, region, postal
// and country code to any token.
func (a *Amazon) ordersView(r *http.Request, o Order) Order {
	if o.ShippingAddress != nil && !a.granted(r, "/orders/v0/orders", "shippingAddress") {
		ad := *o.ShippingAddress
		ad.Name, ad.AddressLine1, ad.AddressLine2, ad.Phone = "", "", "", ""
		o.ShippingAddress = &ad
	}
	if !a.granted(r, "/orders/v0/orders", "buyerInfo") {
		o.BuyerInfo = nil
	}
	return o
}

// expiredRDT reports whether the request's access token is a Restricted Data Token past its
// expiry (the lock held).
func (a *Amazon) expiredRDT(r *http.Request) bool {
	t, ok := a.st.RDTs[r.Header.Get("x-amz-access-token")]
	return ok && time.Now().After(t.Exp)
}
