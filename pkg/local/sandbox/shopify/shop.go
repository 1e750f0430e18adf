// Package shopify is the local stack's Shopify: a stateful fake of the Admin GraphQL API
// (version Version) on the sandbox.Server framework. It validates every request against
// Shopify's own schema when that is beside the repository (and parses it alone otherwise), keeps each shop's variants, inventory levels
// at its location, orders and fulfillment orders, charges each query its cost from a bucket
// of points, and answers with Shopify's cost extensions and THROTTLED errors.
// docs/connectors.md describes it.
package shopify

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// Version is the Admin API version the sandbox serves (its path /admin/api/{Version}/graphql.json).
const Version = "2026-07"

// OpGraphQL is the sandbox.Server operation of every GraphQL call (FailNext, Calls); OpToken
// the token endpoint's.
const (
	OpGraphQL = "graphql"
	OpToken   = "token"
)

// TokenPath is the path of the client-credentials grant; ClientCredentialsTTL the life of
// the access token it gives (24 hours, as Shopify's; the kit's TokenTTL shortens it).
const (
	TokenPath            = "/admin/oauth/access_token"
	ClientCredentialsTTL = 24 * time.Hour
)

// Default cost bucket of a shop: Shopify's published figures for a standard plan.
const (
	DefaultMaximum = 1000
	DefaultRestore = 50
)

// Shop is the sandbox's Shopify: shops reached by their Admin API access token.
type Shop struct {
	*sandbox.Server
	// BeforeSet, when set, runs before each inventorySetQuantities is applied, outside the
	// sandbox's lock: a test changes a level there, between the connector's read and write.
	BeforeSet func()
	// MaxOrdersPage, when set, makes an orders query of a larger first cost more than
	// MaxQueryCost: a test's shop that reckons costs higher than the connector.
	MaxOrdersPage int
	// NoRecovery refuses a refresh token used once already, even while its replacement is
	// not used (consent.go): a marketplace stricter than Shopify, as Etsy is.
	NoRecovery bool

	// The shops by their Admin API access token, each its own permanent token.
	*sandbox.Registry[*shopState]
	log     []Request
	over    int // calls refused for cost (THROTTLED)
	overMax int // queries refused as over MaxQueryCost
	// refreshes and refused count the refreshes rotated and refused; lose the refreshes
	// still to answer 500 (consent.go).
	refreshes, refused, lose int
}

// MaxQueryCost is the most a single query may request (Shopify's published limit,
// whatever the bucket holds); more is refused MAX_COST_EXCEEDED.
const MaxQueryCost = 1000

// Request is one GraphQL request the sandbox received.
type Request struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
	// Cost is the requested cost the sandbox reckoned (0 for a request that did not parse).
	Cost int `json:"-"`
}

// shopState is one shop (in JSON in the Shop's file).
type shopState struct {
	sandbox.Account
	Domain   string                `json:"domain"`
	Location string                `json:"location"`  // the first location, the inventory's
	Others   []string              `json:"locations"` // the shop's other locations
	Scopes   []string              `json:"scopes"`    // the access scopes granted to the app
	NextID   int64                 `json:"next_id"`
	Variants map[string]*Variant   `json:"variants"` // by variant gid
	Levels   map[string]int64      `json:"levels"`   // inventory item gid -> available at the location
	Orders   map[string]*Order     `json:"orders"`   // by order gid
	Fulfills []Fulfillment         `json:"fulfillments"`
	Keys     map[string]idempotent `json:"idempotency_keys"`
	Bucket   bucket                `json:"-"`
	// Codes are the authorization codes the consent page gave, Refresh the refresh tokens
	// of the expiring offline tokens (consent.go).
	Codes   map[string]grantCode     `json:"codes,omitempty"`
	Refresh map[string]*refreshToken `json:"refresh_tokens,omitempty"`
}

// idempotent is the answer an idempotency key gave, and the input it was given with.
type idempotent struct {
	Input  string `json:"input"`
	Answer any    `json:"answer"`
}

// bucket is a shop's cost bucket.
type bucket struct {
	Maximum, Restore, Available float64
	At                          time.Time
}

// Variant is a product variant of a shop and its inventory item.
type Variant struct {
	ID            string `json:"id"`
	SKU           string `json:"sku"`
	Title         string `json:"title"`
	InventoryItem string `json:"inventory_item"`
}

// Order is an order of a shop.
type Order struct {
	ID              string              `json:"id"`
	Name            string              `json:"name"`
	CreatedAt       time.Time           `json:"created_at"`
	UpdatedAt       time.Time           `json:"updated_at"`
	CancelledAt     *time.Time          `json:"cancelled_at,omitempty"`
	FinancialStatus string              `json:"financial_status"`
	Currency        string              `json:"currency"`
	Email           string              `json:"email,omitempty"`
	Shipping        string              `json:"shipping"` // the shipping price
	Tax             string              `json:"tax"`
	Address         Address             `json:"address"`
	Lines           []*Line             `json:"lines"`
	FulfillOrders   []*FulfillmentOrder `json:"fulfillment_orders"`
}

// Address is an order's shipping address.
type Address struct {
	Name, Address1, City, Province, Zip, Country string
}

// Line is a line item of an order; a custom item (no variant) may have no SKU.
type Line struct {
	ID       string `json:"id"`
	SKU      string `json:"sku,omitempty"`
	Title    string `json:"title"`
	Quantity int64  `json:"quantity"`
	Current  int64  `json:"current_quantity"` // less than Quantity after a refund or a removal
	Price    string `json:"price"`            // unit price
	Variant  string `json:"variant,omitempty"`
}

// FulfillmentOrder is a group of an order's lines to fulfil from one location of the shop.
type FulfillmentOrder struct {
	ID       string                  `json:"id"`
	Status   string                  `json:"status"`
	Location string                  `json:"location"`
	Lines    []*FulfillmentOrderLine `json:"lines"`
}

// FulfillmentOrderLine is a line of a fulfillment order: what remains to ship of a line item.
type FulfillmentOrderLine struct {
	ID        string `json:"id"`
	LineItem  string `json:"line_item"`
	Total     int64  `json:"total"`
	Remaining int64  `json:"remaining"`
}

// Fulfillment is a fulfillment created with tracking: the lines it shipped by fulfillment
// order line id.
type Fulfillment struct {
	ID      string           `json:"id"`
	Order   string           `json:"order"`
	Number  string           `json:"number"`
	URL     string           `json:"url"`
	Company string           `json:"company"`
	Lines   map[string]int64 `json:"lines"`
	At      time.Time        `json:"created_at"`
}

// New returns a started sandbox Shopify on a free port, whose state lives as long as it does.
func New() (*Shop, error) {
	s := newShop()
	return s, s.Start()
}

// newShop returns a sandbox Shopify with its routes, not started.
func newShop() *Shop {
	s := &Shop{Server: sandbox.NewServer()}
	s.Registry = sandbox.NewRegistry[*shopState](s.state)
	s.AccessToken = sandbox.HeaderToken(tokenHeader)
	s.Seller = s.SellerOf
	s.Handle("POST /admin/api/{version}/graphql.json", OpGraphQL, s.graphql)
	s.Handle("POST "+TokenPath, OpToken, s.token(s.Token(sandbox.TokenEndpoint{Read: sandbox.FormGrant,
		Grants: []string{sandbox.GrantClientCredentials}, Prefix: "shpat_", TTL: ClientCredentialsTTL,
		Answer: func(v string, ttl time.Duration, _ *sandbox.Account) any {
			return map[string]any{"access_token": v, "expires_in": int(ttl.Seconds())}
		}})))
	s.Handle("GET "+AuthorizePath, OpAuthorize, s.authorize)
	sandbox.ServeAdminOrders(s.Server, s.Registry, sandbox.AdminOrders[*shopState, *Order]{
		SKU:   func(sh *shopState, asked string) string { return cmp.Or(asked, sh.defaultSKU()) },
		Place: (*shopState).placeOrder, Change: (*shopState).changeLine, Generic: genericOrder})
	return s
}

// AddShop opens a shop reached with token, stocking from a location of its own, whose
// bucket holds DefaultMaximum points restoring DefaultRestore a second; it returns the
// location's id.
func (s *Shop) AddShop(token, domain string) string {
	s.Add(token, sandbox.Account{}, func() *shopState { return newShopState(domain) })
	var location string
	s.Change(token, func(sh *shopState) {
		s.Permanent(token, token)
		sh.Domain, location = domain, sh.Location
	})
	return location
}

// newShopState is a new shop of domain with a location, every scope granted to its app and
// a full bucket of DefaultMaximum points.
func newShopState(domain string) *shopState {
	sh := &shopState{Domain: domain, NextID: 1000, Variants: map[string]*Variant{}, Levels: map[string]int64{},
		Orders: map[string]*Order{}, Keys: map[string]idempotent{}, Scopes: slices.Clone(AllScopes),
		Bucket: bucket{Maximum: DefaultMaximum, Restore: DefaultRestore, Available: DefaultMaximum, At: time.Now()}}
	sh.Location = sh.gid("Location")
	return sh
}

// AllScopes are the access scopes a new shop's app is granted: what the connector needs and
// read_all_orders.
var AllScopes = []string{"read_orders", "read_all_orders", "read_products", "write_inventory", "read_locations",
	"write_merchant_managed_fulfillment_orders"}

// SetScopes sets the access scopes granted to the shop's app (its tokens carry them).
func (s *Shop) SetScopes(token string, scopes ...string) {
	s.Change(token, func(sh *shopState) { sh.Scopes = scopes })
}

// AddLocation adds a location to the shop and returns its id.
func (s *Shop) AddLocation(token string) string {
	var id string
	s.Change(token, func(sh *shopState) {
		id = sh.gid("Location")
		sh.Others = append(sh.Others, id)
	})
	return id
}

// SetFulfillmentOrderStatus sets the status of the order's fulfillment order at a location
// (ON_HOLD, CLOSED...), as the merchant would in Shopify admin.
func (s *Shop) SetFulfillmentOrderStatus(token, order, location, status string) {
	s.ChangeOrder(token, order, time.Now(), func(o *Order) {
		for _, fo := range o.FulfillOrders {
			if fo.Location == location {
				fo.Status = status
			}
		}
	})
}

// SetApp gives the shop an app's client id and secret, which the client-credentials grant
// (TokenPath) takes for an access token of the shop that expires.
func (s *Shop) SetApp(token, clientID, secret string) {
	s.Change(token, func(sh *shopState) { sh.ClientID, sh.Secret = clientID, secret })
}

// ExpireTokens makes every access token the client-credentials grant gave expired now, as
// a day passing would (the legacy tokens stay): the next call with one is a 401.
func (s *Shop) ExpireTokens() {
	s.Lock()
	defer s.Unlock()
	past := time.Now().Add(-time.Second)
	for v, t := range s.Tokens() {
		if !t.Exp.IsZero() {
			t.Exp = past
			s.Tokens()[v] = t
		}
	}
}

// SetBucket sets the shop's cost bucket: maximum points, restoring restore a second (full now).
func (s *Shop) SetBucket(token string, maximum, restore float64) {
	s.Change(token, func(sh *shopState) {
		sh.Bucket = bucket{Maximum: maximum, Restore: restore, Available: maximum, At: time.Now()}
	})
}

// Spend takes points of the shop's bucket now, as another app of the shop would.
func (s *Shop) Spend(token string, points float64) {
	s.Change(token, func(sh *shopState) { sh.charge(math.Min(points, sh.Bucket.Maximum), time.Now()) })
}

// AddVariant adds a product variant of sku showing available at the shop's location, and
// returns its inventory item's id.
func (s *Shop) AddVariant(token, sku string, available int64) string {
	var item string
	s.Change(token, func(sh *shopState) {
		v := &Variant{ID: sh.gid("ProductVariant"), SKU: sku, Title: sku, InventoryItem: sh.gid("InventoryItem")}
		sh.Variants[v.ID] = v
		sh.Levels[v.InventoryItem] = available
		item = v.InventoryItem
	})
	return item
}

// SetAvailable sets what an inventory item shows available (a change made in Shopify).
func (s *Shop) SetAvailable(token, item string, available int64) {
	s.Change(token, func(sh *shopState) { sh.Levels[item] = available })
}

// Available is what the inventory item shows available, and whether the shop has it.
func (s *Shop) Available(token, item string) (q int64, ok bool) {
	s.With(token, func(sh *shopState) { q, ok = sh.Levels[item] })
	return q, ok
}

// Item is the inventory item of the shop's variant of sku ("" without one).
func (s *Shop) Item(token, sku string) string {
	var item string
	s.With(token, func(sh *shopState) { item = sh.item0(sku) })
	return item
}

// LineInput is a line of a new order: quantity of the variant of sku at price (a decimal),
// to fulfil from Location (default the shop's first). A line without a SKU is a custom
// item.
type LineInput struct {
	SKU      string
	Quantity int64
	Price    string
	Location string
}

// PutOrder places an order of lines in USD, updated at; the lines of each location make an
// open fulfillment order. It returns the order.
func (s *Shop) PutOrder(token string, at time.Time, lines ...LineInput) Order {
	var o Order
	s.Change(token, func(sh *shopState) { o = *sh.newOrder(at, "USD", lines) })
	return o
}

// newOrder places an order in currency (the lock held).
func (sh *shopState) newOrder(at time.Time, currency string, lines []LineInput) *Order {
	o := &Order{ID: sh.gid("Order"), Name: "#" + strconv.Itoa(1001+len(sh.Orders)), CreatedAt: at, UpdatedAt: at,
		FinancialStatus: "PAID", Currency: currency, Shipping: "5.00", Tax: "0.00", Email: "buyer@example.com",
		Address: Address{Name: "Sandbox Buyer", Address1: "1 Test Street", City: "Springfield", Province: "IL", Zip: "62701", Country: "US"}}
	byLocation := map[string]*FulfillmentOrder{}
	for _, in := range lines {
		loc := cmp.Or(in.Location, sh.Location)
		fo := byLocation[loc]
		if fo == nil {
			fo = &FulfillmentOrder{ID: sh.gid("FulfillmentOrder"), Status: "OPEN", Location: loc}
			byLocation[loc] = fo
			o.FulfillOrders = append(o.FulfillOrders, fo)
		}
		l := &Line{ID: sh.gid("LineItem"), SKU: in.SKU, Title: cmp.Or(in.SKU, "Custom item"), Quantity: in.Quantity, Current: in.Quantity, Price: in.Price}
		for _, v := range sh.Variants {
			if in.SKU != "" && v.SKU == in.SKU {
				l.Variant = v.ID
			}
		}
		o.Lines = append(o.Lines, l)
		fo.Lines = append(fo.Lines, &FulfillmentOrderLine{ID: sh.gid("FulfillmentOrderLineItem"), LineItem: l.ID, Total: in.Quantity, Remaining: in.Quantity})
	}
	sh.Orders[o.ID] = o
	return o
}

// ChangeOrder changes the shop's order id with f (cancel, refund) and marks it updated at.
func (s *Shop) ChangeOrder(token, id string, at time.Time, f func(*Order)) {
	s.Change(token, func(sh *shopState) {
		if o := sh.Orders[id]; o != nil {
			f(o)
			o.UpdatedAt = at
		}
	})
}

// Cancel cancels an order at (Shopify closes its open fulfillment orders).
func Cancel(at time.Time) func(*Order) {
	return func(o *Order) {
		o.CancelledAt = &at
		for _, fo := range o.FulfillOrders {
			if fo.Status == "OPEN" || fo.Status == "IN_PROGRESS" {
				fo.Status = "CANCELLED"
			}
		}
	}
}

// Refund refunds an order in full: every line's current quantity goes to 0.
func Refund(o *Order) {
	o.FinancialStatus = "REFUNDED"
	for _, l := range o.Lines {
		l.Current = 0
	}
}

// GetOrder returns the shop's order id.
func (s *Shop) GetOrder(token, id string) (o Order, ok bool) {
	s.With(token, func(sh *shopState) {
		if p := sh.Orders[id]; p != nil {
			o, ok = *p, true
		}
	})
	return o, ok
}

// Fulfillments are the fulfillments created on the shop's order id.
func (s *Shop) Fulfillments(token, order string) []Fulfillment {
	var out []Fulfillment
	s.With(token, func(sh *shopState) {
		for _, f := range sh.Fulfills {
			if f.Order == order {
				out = append(out, f)
			}
		}
	})
	return out
}

// Requests returns the GraphQL requests received so far.
func (s *Shop) Requests() []Request {
	s.Lock()
	defer s.Unlock()
	return slices.Clone(s.log)
}

// OverMax is the number of queries refused as over MaxQueryCost (MAX_COST_EXCEEDED).
func (s *Shop) OverMax() int {
	s.Lock()
	defer s.Unlock()
	return s.overMax
}

// Throttled is the number of calls refused for cost (THROTTLED).
func (s *Shop) Throttled() int {
	s.Lock()
	defer s.Unlock()
	return s.over
}

// gid is a new global id of a resource type of the shop.
func (sh *shopState) gid(typ string) string {
	sh.NextID++
	return fmt.Sprintf("gid://shopify/%s/%d", typ, sh.NextID)
}
