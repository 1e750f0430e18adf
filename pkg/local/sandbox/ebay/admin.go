package ebay

import (
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// Open returns a started sandbox whose state is kept in file (sandbox.OpenSaved).
func Open(file string) (*Sandbox, error) { return sandbox.OpenSaved(file, newSandbox) }

// AddSeller opens a seller account for the client id, its secret and refresh token, on the
// marketplace (EBAY_US).
func (s *Sandbox) AddSeller(clientID, secret, refresh, marketplace string) {
	s.Add(clientID, sandbox.Account{ClientID: clientID, Secret: secret, Refresh: refresh}, func() *Seller {
		return &Seller{Orders: map[string]*Order{}, Listings: map[string]int64{}, Offers: map[string]*Offer{}, Items: map[string]*Item{}, Revisions: map[string]int{},
			Fulfillments: map[string][]ShippingFulfillmentDetails{}}
	})
	s.Change(clientID, func(sl *Seller) { sl.Marketplace = marketplace })
}

// AddListing lists sku for the seller through the Inventory API, showing quantity: an
// inventory item of that quantity and its published offer making all of it available.
func (s *Sandbox) AddListing(clientID, sku string, quantity int64) {
	s.Change(clientID, func(sl *Seller) {
		if sl.Offers == nil {
			sl.Offers = map[string]*Offer{}
		}
		sl.Listings[sku] = quantity
		sl.Offers[sku] = &Offer{OfferID: sl.nextID(), ListingID: sl.nextID(), Available: quantity}
	})
}

// AddTradingListing lists sku for the seller outside the Inventory API (as Seller Hub or
// the Trading API would), showing quantity, and returns its ItemID.
func (s *Sandbox) AddTradingListing(clientID, sku string, quantity int64) (itemID string) {
	s.Change(clientID, func(sl *Seller) {
		if sl.Items == nil {
			sl.Items = map[string]*Item{}
		}
		itemID = sl.nextID()
		sl.Items[itemID] = &Item{SKU: sku, Quantity: quantity}
	})
	return itemID
}

// EndListing ends the seller's listing itemID made outside the Inventory API; false when
// there is none.
func (s *Sandbox) EndListing(clientID, itemID string) (ok bool) {
	s.Change(clientID, func(sl *Seller) {
		if it := sl.Items[itemID]; it != nil {
			it.Ended, ok = true, true
		}
	})
	return ok
}

// SetOfferQuantity sets the availableQuantity of the offer of sku, as the seller would in
// Seller Hub; false when sku has none.
func (s *Sandbox) SetOfferQuantity(clientID, sku string, available int64) (ok bool) {
	s.Change(clientID, func(sl *Seller) {
		if o := sl.Offers[sku]; o != nil {
			o.Available, ok = available, true
		}
	})
	return ok
}

// PutOrder places or replaces an order of the seller.
func (s *Sandbox) PutOrder(clientID string, o Order) {
	s.Change(clientID, func(sl *Seller) { sl.Orders[o.OrderID] = &o })
}

// ChangeOrder changes an order of the seller with f and sets its lastModifiedDate to now;
// false when there is no such order.
func (s *Sandbox) ChangeOrder(clientID, orderID string, f func(*Order)) (ok bool) {
	s.Change(clientID, func(sl *Seller) {
		if o := sl.Orders[orderID]; o != nil {
			f(o)
			o.LastModifiedDate, ok = Now(), true
		}
	})
	return ok
}

// Quantity is what the seller's listing sku shows, and whether it is listed. An Inventory
// API listing shows the least of its item's quantity and its offer's availableQuantity, as
// eBay documents (ShipToLocationAvailability.quantity, OfferPriceQuantity.availableQuantity).
func (s *Sandbox) Quantity(clientID, sku string) (q int64, ok bool) {
	s.With(clientID, func(sl *Seller) { q, ok = sl.shows(sku) })
	return q, ok
}

// shows is what the listing of sku shows, and whether there is one (the lock held): its
// Inventory API listing's, else its active listing's made outside the Inventory API.
func (sl *Seller) shows(sku string) (int64, bool) {
	q, ok := sl.Listings[sku]
	if o := sl.Offers[sku]; ok && o != nil {
		q = min(q, o.Available)
	}
	if ok {
		return q, ok
	}
	for _, it := range sl.Items {
		if it.SKU == sku && !it.Ended {
			return it.Quantity, true
		}
	}
	return 0, false
}

// Revisions is how many revisions the seller's listing sku had today.
func (s *Sandbox) Revisions(clientID, sku string) (n int) {
	s.With(clientID, func(sl *Seller) { n = sl.Revisions[time.Now().UTC().Format(time.DateOnly)+" "+sku] })
	return n
}

// Fulfillments are the shipping fulfillments posted on the seller's order.
func (s *Sandbox) Fulfillments(clientID, orderID string) (out []ShippingFulfillmentDetails) {
	s.With(clientID, func(sl *Seller) { out = slices.Clone(sl.Fulfillments[orderID]) })
	return out
}
