// Package walmart is the local stack's Walmart sandbox: a stateful fake, on the
// sandbox.Server framework, of the US Marketplace API the Walmart connector calls, in
// Walmart's wire format, enforcing Walmart's documented rules (the rule table in
// docs/connectors.md, "Walmart rules"): the Token API (client credentials, Basic auth,
// tokens of 15 minutes), the WM_* headers on every call, getAllOrders (lastModifiedStartDate,
// nextCursor paging), getAnOrder, acknowledgeOrders, shippingUpdates (Walmart's carriers, or
// otherCarrier with a tracking URL), updateInventoryForAnItem and the bulk inventory feed
// (processed after FeedDelay, per-item statuses), with Walmart's error bodies. Tests and the
// CLI manage a seller's items and orders (admin.go).
package walmart

import (
	"cmp"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The operations as the sandbox counts and limits them (Walmart's operation ids).
const (
	OpToken          = "tokenAPI"
	OpGetAllOrders   = "getAllOrders"
	OpGetAnOrder     = "getAnOrder"
	OpAcknowledge    = "acknowledgeOrders"
	OpShipping       = "shippingUpdates"
	OpUpdateItem     = "updateInventoryForAnItem"
	OpBulkInventory  = "updateBulkInventory"
	OpFeedItemStatus = "getFeedItemStatus"
	OpFeedStatuses   = "getAllFeedStatuses"
	OpFeedErrors     = "getFeedErrorReport"
)

// The API's paths.
const (
	TokenPath     = "/v3/token"
	ordersPath    = "/v3/orders"
	orderPath     = ordersPath + "/{purchaseOrderId}"
	inventoryPath = "/v3/inventory"
	feedsPath     = "/v3/feeds"
	feedPath      = feedsPath + "/{feedId}"
)

// Walmart's header names.
const (
	headerToken       = "WM_SEC.ACCESS_TOKEN"
	headerService     = "WM_SVC.NAME"
	headerCorrelation = "WM_QOS.CORRELATION_ID"
)

// TokenTTL is the life of Walmart's access tokens: 15 minutes (expires_in 900).
const TokenTTL = 15 * time.Minute

// FeedsPerHour is Walmart's published limit of inventory feeds (10 an hour).
const FeedsPerHour = 10

// Sandbox is the Walmart sandbox.
type Sandbox struct {
	*sandbox.Server
	// The sellers by client id and their tokens (15 minutes', as Walmart's, unless TokenTTL
	// says otherwise).
	*sandbox.Registry[*Seller]
	// FeedDelay is how long after its upload a feed is processed (1 second by default).
	FeedDelay time.Duration

	// seen are the correlation ids of the calls served (no two calls may share one).
	seenMu sync.Mutex
	seen   map[string]bool
}

// Seller is one seller's account (in JSON in the state's file).
type Seller struct {
	sandbox.Account
	// Orders by purchase order id; Items are the seller's item quantities by SKU.
	Orders map[string]*PurchaseOrder `json:"orders"`
	Items  map[string]int64          `json:"items"`
	// Feeds are the inventory feeds uploaded, by feed id.
	Feeds map[string]*Feed `json:"feeds"`
	// Acks counts the acknowledgeOrders of each order; Shipments the shippingUpdates taken.
	Acks      map[string]int `json:"acks"`
	Shipments map[string]int `json:"shipments"`
	// Seq numbers the seller's orders and feeds.
	Seq int64 `json:"seq"`
}

// Feed is an uploaded inventory feed: its items and, once processed, their statuses.
type Feed struct {
	ID        string                       `json:"id"`
	Date      time.Time                    `json:"date"`
	Items     []Inventory                  `json:"items"`
	Processed bool                         `json:"processed"`
	Statuses  []PartnerItemIngestionStatus `json:"statuses,omitempty"`
}

// New returns a started sandbox on a free port, its state in memory.
func New() (*Sandbox, error) {
	s := newSandbox()
	return s, s.Start()
}

// newSandbox returns a sandbox with its operations, not started.
func newSandbox() *Sandbox {
	s := &Sandbox{Server: sandbox.NewServer(), FeedDelay: time.Second, seen: map[string]bool{}}
	s.Registry = sandbox.NewSavedRegistry[*Seller](s.Server)
	s.Seller = s.SellerOf
	s.AccessToken = sandbox.HeaderToken(headerToken)
	s.ErrorBody = func(status int, message string) any {
		return errorBody(http.StatusText(status), message)
	}
	s.SetLimit(OpBulkInventory, FeedsPerHour/3600.0, FeedsPerHour)
	s.Handle("POST "+TokenPath, OpToken, s.token)
	s.Handle("GET "+ordersPath, OpGetAllOrders, s.authed(s.getAllOrders))
	s.Handle("GET "+orderPath, OpGetAnOrder, s.authed(s.getAnOrder))
	s.Handle("POST "+orderPath+"/acknowledge", OpAcknowledge, s.authed(s.acknowledge))
	s.Handle("POST "+orderPath+"/shipping", OpShipping, s.authed(s.shipping))
	s.Handle("PUT "+inventoryPath, OpUpdateItem, s.authed(s.updateItem))
	s.Handle("POST "+feedsPath, OpBulkInventory, s.authed(s.uploadFeed))
	s.Handle("GET "+feedsPath, OpFeedStatuses, s.authed(s.feedStatuses))
	s.Handle("GET "+feedPath, OpFeedItemStatus, s.authed(s.feedItemStatus))
	s.Handle("GET "+feedPath+"/errorReport", OpFeedErrors, s.authed(s.feedErrorReport))
	sandbox.ServeAdminOrders(s.Server, s.Registry, sandbox.AdminOrders[*Seller, *PurchaseOrder]{
		SKU:   func(sl *Seller, asked string) string { return cmp.Or(asked, sandbox.FirstInStock(sl.Items)) },
		Place: (*Seller).placeOrder, Change: (*Seller).changeLine, Generic: genericOrder})
	return s
}

// errorBody is Walmart's error body of one error.
func errorBody(code, description string) ErrorBody {
	var b ErrorBody
	b.Errors.Error = []GatewayError{{Code: code, Description: description, Severity: "ERROR", Category: "DATA"}}
	return b
}

// writeError answers Walmart's error body.
func writeError(w http.ResponseWriter, status int, code, description string) {
	sandbox.WriteJSON(w, status, errorBody(code, description))
}

// token serves the Token API: the client-credentials grant, form-encoded, the client's id
// and secret as Basic auth, with WM_SVC.NAME and WM_QOS.CORRELATION_ID (the kit's
// Registry.Token answers OAuth's errors); tokens live TokenTTL.
func (s *Sandbox) token(w http.ResponseWriter, r *http.Request) {
	if !s.wmHeaders(w, r) {
		return
	}
	s.Token(sandbox.TokenEndpoint{Read: readGrant, Grants: []string{sandbox.GrantClientCredentials},
		Prefix: "eyJ", TTL: TokenTTL,
		Answer: func(v string, ttl time.Duration, _ *sandbox.Account) any {
			return map[string]any{"access_token": v, "token_type": "Bearer", "expires_in": int(ttl.Seconds())}
		}})(w, r)
}

// readGrant reads the Token API's request: Basic client auth (none is 401 invalid_client)
// and a form body.
func readGrant(r *http.Request) (sandbox.Grant, *sandbox.Refusal) {
	if _, _, ok := sandbox.BasicAuth(r); !ok {
		return sandbox.Grant{}, &sandbox.Refusal{Status: http.StatusUnauthorized, Code: "invalid_client", Description: "Basic client authentication is required"}
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/x-www-form-urlencoded" {
		return sandbox.Grant{}, &sandbox.Refusal{Status: http.StatusBadRequest, Code: "invalid_request", Description: "the body must be application/x-www-form-urlencoded"}
	}
	return sandbox.FormGrant(r)
}

// wmHeaders checks the headers every call carries: WM_SVC.NAME, a WM_QOS.CORRELATION_ID no
// call served before had (Walmart: "a unique ID which identifies each API call"), and
// Accept application/json (the sandbox answers JSON only). A call that fails them is
// answered 400 (406 for Accept) and false.
func (s *Sandbox) wmHeaders(w http.ResponseWriter, r *http.Request) bool {
	id := r.Header.Get(headerCorrelation)
	switch {
	case r.Header.Get(headerService) == "":
		writeError(w, http.StatusBadRequest, "MISSING_HEADER", headerService+" is required")
		return false
	case id == "":
		writeError(w, http.StatusBadRequest, "MISSING_HEADER", headerCorrelation+" is required")
		return false
	case !strings.Contains(r.Header.Get("Accept"), "application/json"):
		writeError(w, http.StatusNotAcceptable, "NOT_ACCEPTABLE", "Accept must be application/json")
		return false
	}
	s.seenMu.Lock()
	defer s.seenMu.Unlock()
	if s.seen[id] {
		writeError(w, http.StatusBadRequest, "DUPLICATE_CORRELATION_ID", headerCorrelation+" "+id+" identified another call")
		return false
	}
	if len(s.seen) > maxSeen {
		clear(s.seen)
	}
	s.seen[id] = true
	return true
}

// maxSeen bounds the correlation ids the sandbox remembers.
const maxSeen = 1 << 20

// authed serves h for the seller of a valid WM_SEC.ACCESS_TOKEN, after the WM_* headers'
// checks and, for a body, its Content-Type (application/json; the feed's upload takes
// multipart/form-data); else Walmart's 401, 400 or 415.
func (s *Sandbox) authed(h func(http.ResponseWriter, *http.Request, *Seller)) http.HandlerFunc {
	inner := s.Authed(func(w http.ResponseWriter, _ *http.Request) {
		writeError(w, http.StatusUnauthorized, "UNAUTHORIZED.GMP_GATEWAY_API", "Unauthorized token or token is expired")
	}, h)
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.wmHeaders(w, r) {
			return
		}
		if r.Method == http.MethodPost || r.Method == http.MethodPut {
			want := "application/json"
			if r.URL.Path == feedsPath {
				want = "multipart/form-data"
			}
			mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if r.ContentLength != 0 && mt != want {
				writeError(w, http.StatusUnsupportedMediaType, "UNSUPPORTED_MEDIA_TYPE", "Content-Type must be "+want)
				return
			}
		}
		inner(w, r)
	}
}
