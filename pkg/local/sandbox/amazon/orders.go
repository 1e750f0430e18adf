package amazon

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/wire"
)

// Order is an order as getOrders answers it (the fields the sandbox keeps).
type Order struct {
	AmazonOrderID      string     `json:"AmazonOrderId"`
	PurchaseDate       string     `json:"PurchaseDate"`
	LastUpdateDate     string     `json:"LastUpdateDate"`
	OrderStatus        string     `json:"OrderStatus"`
	FulfillmentChannel string     `json:"FulfillmentChannel,omitempty"`
	ShipServiceLevel   string     `json:"ShipServiceLevel,omitempty"`
	OrderTotal         *Money     `json:"OrderTotal,omitempty"`
	MarketplaceID      string     `json:"MarketplaceId,omitempty"`
	LatestShipDate     string     `json:"LatestShipDate,omitempty"`
	ShippingAddress    *Address   `json:"ShippingAddress,omitempty"`
	BuyerInfo          *BuyerInfo `json:"BuyerInfo,omitempty"`
}

// BuyerInfo is an order's buyer (restricted data).
type BuyerInfo struct {
	BuyerEmail string `json:"BuyerEmail,omitempty"`
}

// Money is an amount in a currency.
type Money struct {
	CurrencyCode string `json:"CurrencyCode"`
	Amount       string `json:"Amount"`
}

// Address is a shipping address.
type Address struct {
	Name          string `json:"Name,omitempty"`
	AddressLine1  string `json:"AddressLine1,omitempty"`
	AddressLine2  string `json:"AddressLine2,omitempty"`
	Phone         string `json:"Phone,omitempty"`
	City          string `json:"City,omitempty"`
	StateOrRegion string `json:"StateOrRegion,omitempty"`
	PostalCode    string `json:"PostalCode,omitempty"`
	CountryCode   string `json:"CountryCode,omitempty"`
}

// OrderItem is an order's line as getOrderItems answers it.
type OrderItem struct {
	ASIN            string `json:"ASIN"`
	SellerSKU       string `json:"SellerSKU,omitempty"`
	OrderItemID     string `json:"OrderItemId"`
	Title           string `json:"Title,omitempty"`
	QuantityOrdered int64  `json:"QuantityOrdered"`
	QuantityShipped int64  `json:"QuantityShipped"`
	ItemPrice       *Money `json:"ItemPrice,omitempty"`
}

// StoredOrder is an order and its lines.
type StoredOrder struct {
	Order Order       `json:"order"`
	Items []OrderItem `json:"items"`
}

// PackageDetail is a shipment confirmation as confirmShipment takes it.
type PackageDetail struct {
	PackageReferenceID string        `json:"packageReferenceId"`
	CarrierCode        string        `json:"carrierCode"`
	CarrierName        string        `json:"carrierName,omitempty"`
	ShippingMethod     string        `json:"shippingMethod,omitempty"`
	TrackingNumber     string        `json:"trackingNumber"`
	ShipDate           string        `json:"shipDate"`
	OrderItems         []packageItem `json:"orderItems"`
}

// packageItem is an order item a package carries.
type packageItem struct {
	OrderItemID string `json:"orderItemId"`
	Quantity    int64  `json:"quantity"`
}

// itemsPage is how many lines a getOrderItems page holds.
const itemsPage = 20

// PutOrder places or replaces an order of the seller (its LastUpdateDate now when empty).
func (a *Amazon) PutOrder(seller string, o StoredOrder) {
	o.Order.LastUpdateDate = cmp.Or(o.Order.LastUpdateDate, time.Now().UTC().Format(time.RFC3339))
	a.Change(seller, func(s *Seller) {
		o.Order.MarketplaceID = cmp.Or(o.Order.MarketplaceID, s.MarketplaceID)
		s.Orders[o.Order.AmazonOrderID] = &o
	})
}

// SetOrderStatus changes an order's status at the time at (Shipped ships every line), as a
// change made in Seller Central or by the buyer would.
func (a *Amazon) SetOrderStatus(seller, order, status string, at time.Time) {
	a.Change(seller, func(s *Seller) {
		o := s.Orders[order]
		if o == nil {
			return
		}
		o.Order.OrderStatus, o.Order.LastUpdateDate = status, at.UTC().Format(time.RFC3339)
		if status == "Shipped" {
			for i := range o.Items {
				o.Items[i].QuantityShipped = o.Items[i].QuantityOrdered
			}
		}
	})
}

// pageToken is getOrders' NextToken: the query it continues and where.
type pageToken struct {
	After string `json:"a"`
	From  int    `json:"f"`
	Size  int    `json:"s"`
	FC    string `json:"c,omitempty"`
}

// getOrders answers the seller's orders updated at or after LastUpdatedAfter, oldest change
// first, in pages of MaxResultsPerPage (100 at most), their restricted data only to a
// Restricted Data Token (ordersView).
func (a *Amazon) getOrders(w http.ResponseWriter, r *http.Request, s *Seller) {
	q := r.URL.Query()
	if !slices.Contains(strings.Split(q.Get("MarketplaceIds"), ","), s.MarketplaceID) {
		writeError(w, http.StatusBadRequest, "InvalidInput", "MarketplaceIds must name the seller's marketplace")
		return
	}
	var pt pageToken
	if t := q.Get("NextToken"); t != "" {
		raw, err := base64.RawURLEncoding.DecodeString(t)
		if err != nil || json.Unmarshal(raw, &pt) != nil {
			writeError(w, http.StatusBadRequest, "InvalidInput", "Invalid NextToken")
			return
		}
	} else {
		pt = pageToken{After: q.Get("LastUpdatedAfter"), Size: 100, FC: q.Get("FulfillmentChannels")}
		if v := q.Get("MaxResultsPerPage"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100 {
				writeError(w, http.StatusBadRequest, "InvalidInput", "MaxResultsPerPage must be 1 to 100")
				return
			}
			pt.Size = n
		}
	}
	after, err := time.Parse(time.RFC3339, pt.After)
	if err != nil {
		writeError(w, http.StatusBadRequest, "InvalidInput", "LastUpdatedAfter must be an ISO 8601 time")
		return
	}
	var list []Order
	for _, o := range s.Orders {
		u, _ := time.Parse(time.RFC3339, o.Order.LastUpdateDate)
		fc := cmp.Or(o.Order.FulfillmentChannel, "MFN")
		if !u.Before(after) && (pt.FC == "" || slices.Contains(strings.Split(pt.FC, ","), fc)) {
			list = append(list, a.ordersView(r, o.Order))
		}
	}
	slices.SortFunc(list, func(x, y Order) int {
		return cmp.Or(strings.Compare(x.LastUpdateDate, y.LastUpdateDate), strings.Compare(x.AmazonOrderID, y.AmazonOrderID))
	})
	page := list[min(pt.From, len(list)):min(pt.From+pt.Size, len(list))]
	out := map[string]any{"Orders": page}
	if pt.From+pt.Size < len(list) {
		pt.From += pt.Size
		raw, _ := json.Marshal(pt)
		out["NextToken"] = base64.RawURLEncoding.EncodeToString(raw)
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"payload": out})
}

// orderOf is the seller's order of the request's path, or nil after answering 404.
func orderOf(w http.ResponseWriter, r *http.Request, s *Seller) (string, *StoredOrder) {
	id := r.PathValue("orderId")
	o := s.Orders[id]
	if o == nil {
		writeError(w, http.StatusNotFound, "NotFound", "Order "+id+" not found")
	}
	return id, o
}

// getOrderItems answers a page of an order's lines.
func (a *Amazon) getOrderItems(w http.ResponseWriter, r *http.Request, s *Seller) {
	id, o := orderOf(w, r, s)
	if o == nil {
		return
	}
	from, _ := strconv.Atoi(r.URL.Query().Get("NextToken"))
	from = min(max(from, 0), len(o.Items))
	end := min(from+itemsPage, len(o.Items))
	out := map[string]any{"AmazonOrderId": id, "OrderItems": o.Items[from:end]}
	if end < len(o.Items) {
		out["NextToken"] = strconv.Itoa(end)
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"payload": out})
}

// confirmShipment records a package's confirmation on an order (204); a packageReferenceId
// that is not a positive number (Amazon's own message), an order not yet Unshipped (Pending)
// or cancelled, unknown items or quantities past what is left are 400. A packageReferenceId
// the order has already is the same package: 204, nothing new.
func (a *Amazon) confirmShipment(w http.ResponseWriter, r *http.Request, s *Seller) {
	id, o := orderOf(w, r, s)
	if o == nil {
		return
	}
	var in struct {
		MarketplaceID string         `json:"marketplaceId"`
		PackageDetail *PackageDetail `json:"packageDetail"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in) != nil || in.PackageDetail == nil || in.MarketplaceID == "" {
		writeError(w, http.StatusBadRequest, "InvalidInput", "marketplaceId and packageDetail are required")
		return
	}
	p := in.PackageDetail
	if p.PackageReferenceID == "" || p.CarrierCode == "" || p.TrackingNumber == "" || p.ShipDate == "" || len(p.OrderItems) == 0 {
		writeError(w, http.StatusBadRequest, "InvalidInput", "packageReferenceId, carrierCode, trackingNumber, shipDate and orderItems are required")
		return
	}
	if n, err := strconv.ParseUint(p.PackageReferenceID, 10, 63); err != nil || n == 0 {
		writeError(w, http.StatusBadRequest, "InvalidInput", "PackageReferenceId: is invalid, must be a positive numeric value")
		return
	}
	switch o.Order.OrderStatus {
	case "Pending", "PendingAvailability", "Canceled", "Unfulfillable":
		writeError(w, http.StatusBadRequest, "InvalidInput", fmt.Sprintf("Order %s is %s and cannot be confirmed", id, o.Order.OrderStatus))
		return
	}
	for _, c := range s.Confirmations[id] {
		if c.PackageReferenceID == p.PackageReferenceID {
			w.WriteHeader(http.StatusNoContent) // the same package again: nothing new
			return
		}
	}
	items := map[string]*OrderItem{}
	for i := range o.Items {
		items[o.Items[i].OrderItemID] = &o.Items[i]
	}
	for _, it := range p.OrderItems {
		li := items[it.OrderItemID]
		if li == nil || it.Quantity < 1 || li.QuantityShipped+it.Quantity > li.QuantityOrdered {
			writeError(w, http.StatusBadRequest, "InvalidInput", fmt.Sprintf("orderItemId %s: unknown item or quantity past what is left to ship", it.OrderItemID))
			return
		}
	}
	shipped := true
	for _, it := range p.OrderItems {
		items[it.OrderItemID].QuantityShipped += it.Quantity
	}
	for _, li := range items {
		shipped = shipped && li.QuantityShipped == li.QuantityOrdered
	}
	o.Order.OrderStatus = map[bool]string{true: "Shipped", false: "PartiallyShipped"}[shipped]
	o.Order.LastUpdateDate = time.Now().UTC().Format(time.RFC3339)
	s.Confirmations[id] = append(s.Confirmations[id], *p)
	w.WriteHeader(http.StatusNoContent)
}

// genericOrder is the order as the admin order endpoints answer it, as the generic sandbox
// does (id, updated_at, document: the order and its lines).
func genericOrder(o *StoredOrder) sandbox.GenericOrder {
	at, _ := time.Parse(time.RFC3339, o.Order.LastUpdateDate)
	return sandbox.NewGenericOrder(o.Order.AmazonOrderID, at, o)
}

// orderSKU is the SKU an admin order takes: the one asked when the seller lists it, else
// its default ("" for none).
func (s *Seller) orderSKU(asked string) string {
	if asked == "" {
		asked = s.defaultSKU()
	}
	if s.Listings[asked] == nil {
		return ""
	}
	return asked
}

// placeOrder places a new Unshipped order of the seller, of in.Lines lines of in.Quantity of
// in.SKU, each 19.99 a unit in in.Currency (its ItemPrice the units' price, OrderTotal their
// sum), or Shipped whole already (every line's QuantityShipped, and a confirmation by UPS as
// the seller's own tools would post it; the lock held).
func (a *Amazon) placeOrder(s *Seller, in sandbox.OrderRequest) (*StoredOrder, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	id := fmt.Sprintf("113-%07d-%07d", a.st.Seq+1, 1000+len(s.Orders))
	a.nextID("")
	o := &StoredOrder{
		Order: Order{AmazonOrderID: id, PurchaseDate: now, LastUpdateDate: now, OrderStatus: "Unshipped",
			FulfillmentChannel: "MFN", ShipServiceLevel: "Std US D2D Dom", MarketplaceID: s.MarketplaceID,
			OrderTotal: &Money{CurrencyCode: in.Currency, Amount: string(wire.Cents(int64(1999 * in.Quantity * in.Lines)))},
			ShippingAddress: &Address{Name: "Sandbox Buyer", AddressLine1: "1 Test Street", City: "Seattle", StateOrRegion: "WA", PostalCode: "98109",
				CountryCode: "US", Phone: "+1 206-555-0100"},
			BuyerInfo: &BuyerInfo{BuyerEmail: "buyer@marketplace.amazon.com"}},
	}
	pkg := PackageDetail{PackageReferenceID: "1", CarrierCode: "UPS", TrackingNumber: "1ZSANDBOX" + id[4:11], ShipDate: now}
	for range in.Lines {
		it := OrderItem{ASIN: "B0SANDBOX1", SellerSKU: in.SKU, OrderItemID: a.nextID("7"), QuantityOrdered: int64(in.Quantity),
			ItemPrice: &Money{CurrencyCode: in.Currency, Amount: string(wire.Cents(int64(1999 * in.Quantity)))}}
		if in.Shipped {
			it.QuantityShipped = it.QuantityOrdered
			pkg.OrderItems = append(pkg.OrderItems, packageItem{OrderItemID: it.OrderItemID, Quantity: it.QuantityOrdered})
		}
		o.Items = append(o.Items, it)
	}
	if in.Shipped {
		o.Order.OrderStatus = "Shipped"
		s.Confirmations[id] = append(s.Confirmations[id], pkg)
	}
	s.Orders[id] = o
	return o, nil
}

// changeLine changes a line of the seller's order as Seller Central would: shipped units add
// to its QuantityShipped (a confirmation by UPS), cancelled units are no longer ordered (its
// QuantityOrdered goes down, as Amazon shows a cancelled unit), but when they are all the
// order has left and none shipped the order is Canceled whole (its lines as placed). The
// order's status follows (PartiallyShipped, Shipped) and it is changed now (the lock held).
func (s *Seller) changeLine(in sandbox.LineChange) (*StoredOrder, error) {
	o := s.Orders[in.OrderID]
	if o == nil || in.Line > len(o.Items) {
		return nil, sandbox.Refuse(http.StatusNotFound, "no such order line of the seller of channel "+in.ChannelUUID)
	}
	it := &o.Items[in.Line-1]
	if int64(in.Shipped+in.Cancelled) > it.QuantityOrdered-it.QuantityShipped || o.Order.OrderStatus == "Canceled" {
		return nil, sandbox.Refuse(http.StatusConflict, "more than is left of the line")
	}
	now := time.Now().UTC().Format(time.RFC3339)
	if in.Shipped > 0 {
		it.QuantityShipped += int64(in.Shipped)
		s.Confirmations[in.OrderID] = append(s.Confirmations[in.OrderID], PackageDetail{PackageReferenceID: strconv.Itoa(len(s.Confirmations[in.OrderID]) + 1),
			CarrierCode: "UPS", TrackingNumber: "1ZSANDBOX" + strconv.Itoa(len(s.Confirmations[in.OrderID])+1), ShipDate: now,
			OrderItems: []packageItem{{OrderItemID: it.OrderItemID, Quantity: int64(in.Shipped)}}})
	}
	left, shipped := int64(0), int64(0)
	for _, li := range o.Items {
		left += li.QuantityOrdered - li.QuantityShipped
		shipped += li.QuantityShipped
	}
	switch {
	case in.Cancelled > 0 && left == int64(in.Cancelled) && shipped == 0:
		o.Order.OrderStatus = "Canceled"
	case in.Cancelled > 0:
		it.QuantityOrdered -= int64(in.Cancelled)
		left -= int64(in.Cancelled)
	}
	switch {
	case o.Order.OrderStatus == "Canceled":
	case left == 0:
		o.Order.OrderStatus = "Shipped"
	case shipped > 0:
		o.Order.OrderStatus = "PartiallyShipped"
	}
	o.Order.LastUpdateDate = now
	return o, nil
}

// defaultSKU is the first listing by SKU the seller fulfills itself with a quantity, else
// the first it fulfills itself ("" without one).
func (s *Seller) defaultSKU() string {
	first := ""
	for _, sku := range slices.Sorted(maps.Keys(s.Listings)) {
		l := s.Listings[sku]
		switch {
		case l.FBA:
		case l.Quantity > 0:
			return sku
		case first == "":
			first = sku
		}
	}
	return first
}
