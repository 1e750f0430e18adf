package conformance_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/testenv"
)

// route is one Api event of template.yaml: a method on a resource path.
type route struct {
	Method string // upper case
	Path   string // resource path with {param}s, e.g. /warehouses/{uuid}
	// Function is the logical id of the function that serves it: routes of one function
	// with one method are aliases of each other.
	Function string
}

func (r route) String() string { return r.Method + " " + r.Path }

// params returns the names of the path parameters in order.
func (r route) params() []string {
	var out []string
	for seg := range strings.SplitSeq(strings.Trim(r.Path, "/"), "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, strings.TrimSuffix(seg[1:len(seg)-1], "+"))
		}
	}
	return out
}

// hasBody reports whether requests of the route carry a body.
func (r route) hasBody() bool {
	return r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch
}

// keys returns the query parameters that name the resource of a route whose path does
// not (DELETE /listings?channel_uuid=U&channel_sku=S), in order.
func (r route) keys() []string { return queryKeys[r.Method+" "+r.canonical()] }

// queryKeys holds the query parameters naming the resource, by method and canonical path,
// of the routes that take them.
var queryKeys = map[string][]string{
	"DELETE /listings":       {"channel_uuid", "channel_sku"},
	"GET /inventory/history": {"sku", "warehouse_uuid"},
}

// names returns the names of the path parameters, then of the keys.
func (r route) names() []string { return append(r.params(), r.keys()...) }

// upsert reports whether the route creates or replaces what its {sku} names
// (PUT /products/{sku}, PUT /variation_groups/{sku}): an unknown SKU is a creation.
func (r route) upsert() bool { return r.hasBody() && slices.Contains(r.params(), "sku") }

// canonical is the path with the /inventories alias spelled /inventory.
func (r route) canonical() string {
	if rest, ok := strings.CutPrefix(r.Path, "/inventories"); ok {
		return "/inventory" + rest
	}
	return r.Path
}

// expand returns the request path with each parameter replaced by value(name),
// percent-encoded once.
func (r route) expand(value func(name string) string) string {
	segs := strings.Split(r.Path, "/")
	for i, seg := range segs {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			segs[i] = url.PathEscape(value(strings.TrimSuffix(seg[1:len(seg)-1], "+")))
		}
	}
	return strings.Join(segs, "/")
}

// build returns the request path of expand followed by the route's keys, each set to
// value(name), percent-encoded once.
func (r route) build(value func(name string) string) string {
	path := r.expand(value)
	keys := r.keys()
	if len(keys) == 0 {
		return path
	}
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = k + "=" + url.QueryEscape(value(k))
	}
	return path + "?" + strings.Join(q, "&")
}

// withQuery is path with the query q added: after "?", or "&" when path has a query already
// (the routes whose keys are query parameters).
func withQuery(path, q string) string {
	switch {
	case q == "":
		return path
	case strings.Contains(path, "?"):
		return path + "&" + q
	}
	return path + "?" + q
}

var (
	routesOnce sync.Once
	routesVal  []route
	publicVal  []route
	routesErr  error
)

// publicRoutes returns the API routes of template.yaml without the authorizer (allRoutes
// reads them).
func publicRoutes(t testing.TB) []route {
	t.Helper()
	allRoutes(t)
	return publicVal
}

// allRoutes returns every API route of template.yaml behind the authorizer, read with
// pkg/local/template, sorted by path and method.
func allRoutes(t testing.TB) []route {
	t.Helper()
	env := testenv.Get(t)
	routesOnce.Do(func() {
		tpl, err := template.ParseFile(filepath.Join(env.Root, "template.yaml"))
		if err != nil {
			routesErr = err
			return
		}
		if tpl.API == nil {
			routesErr = errNoAPI
			return
		}
		for _, fn := range tpl.Functions {
			for _, ev := range fn.APIEvents {
				if ev.RestAPI != "" && ev.RestAPI != tpl.API.LogicalID {
					continue
				}
				if tpl.API.AuthorizerFor(ev) == nil {
					// A public route (a marketplace's redirect back): no account's checks
					// apply; TestPublicRoutes holds it.
					publicVal = append(publicVal, route{Method: ev.Method, Path: ev.Path, Function: fn.LogicalID})
					continue
				}
				methods := []string{ev.Method}
				if ev.Method == "ANY" {
					methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
				}
				for _, m := range methods {
					routesVal = append(routesVal, route{Method: m, Path: ev.Path, Function: fn.LogicalID})
				}
			}
		}
		slices.SortFunc(routesVal, func(a, b route) int {
			if c := strings.Compare(a.Path, b.Path); c != 0 {
				return c
			}
			return strings.Compare(a.Method, b.Method)
		})
	})
	if routesErr != nil {
		t.Fatalf("template.yaml: %v", routesErr)
	}
	if len(routesVal) == 0 {
		t.Fatal("template.yaml has no API routes")
	}
	return routesVal
}

type constError string

func (e constError) Error() string { return string(e) }

const errNoAPI = constError("no AWS::Serverless::Api")

// ids names one resource of each kind of an account, to fill path parameters and
// bodies with.
type ids struct {
	Warehouse string // a warehouse uuid
	Product   string // a stand-alone product, stocked at Warehouse and ordered in Seq
	Child     string // a product in the variation group Group
	Group     string // a variation group
	Seq       int64  // an open order
	RequestID string // an applied inventory adjustment
	Channel   string // a channel uuid
	Listing   string // the channel SKU of a listing on Channel, linked to Product
	Webhook   string // a webhook id
	Delivery  string // a delivery of Webhook (a ping, ended)
}

// param returns the value of a path parameter or key of rt.
func (x ids) param(rt route, name string) (string, bool) {
	switch name {
	case "uuid":
		if strings.HasPrefix(rt.Path, "/channels/") {
			return x.Channel, true
		}
		return x.Warehouse, true
	case "channel_uuid":
		return x.Channel, true
	case "warehouse_uuid":
		return x.Warehouse, true
	case "channel_sku":
		return x.Listing, true
	case "sku":
		if strings.HasPrefix(rt.Path, "/variation_groups/") {
			return x.Group, true
		}
		return x.Product, true
	case "sb_order_seq":
		return strconv.FormatInt(x.Seq, 10), true
	case "request_id":
		return x.RequestID, true
	case "id":
		return x.Webhook, true
	case "delivery_id":
		return x.Delivery, true
	}
	return "", false
}

// path returns the request path of rt naming x's resources, with its keys.
func (x ids) path(t testing.TB, rt route) string {
	t.Helper()
	return rt.build(func(name string) string {
		v, ok := x.param(rt, name)
		if !ok {
			t.Fatalf("%s: no fixture for parameter {%s}: teach ids.param in pkg/conformance about it", rt, name)
		}
		return v
	})
}

// paramKind is how a path parameter or key is validated: a SKU (1 to 255 characters
// without control characters, else 422), an order sequence number or an id (anything
// unknown is 404).
func paramKind(name string) string {
	switch name {
	case "sku", "channel_sku":
		return "sku"
	case "sb_order_seq":
		return "seq"
	}
	return "id"
}

// notFoundMessage is the 404 message of an unknown resource named by rt's path or keys
// (docs/openapi.yaml), "" when none is fixed.
func notFoundMessage(rt route) string {
	ps := rt.params()
	switch {
	case slices.Contains(rt.keys(), "channel_sku"):
		return "Listing not found"
	case slices.Contains(ps, "uuid") && strings.HasPrefix(rt.Path, "/channels/"):
		return "Channel not found"
	case slices.Contains(ps, "uuid"):
		return "Warehouse not found"
	case slices.Contains(ps, "sb_order_seq"):
		return "Order not found"
	case slices.Contains(ps, "request_id"):
		return "Adjustment not found"
	case slices.Contains(ps, "delivery_id"):
		return "" // Webhook not found or Delivery not found, by which is unknown
	case slices.Contains(ps, "id") && strings.HasPrefix(rt.Path, "/webhooks/"):
		return "Webhook not found"
	case slices.Contains(ps, "sku") && strings.HasPrefix(rt.Path, "/variation_groups/"):
		return "Variation group not found"
	case slices.Contains(ps, "sku"):
		return "Product not found"
	}
	return ""
}

// emptyLists are the bodies of the lists that answer an object, as an
// account without any of their resources sees them (the others are []).
var emptyLists = map[string]string{
	"GET /events":   `{"events":[],"next_after":0}`,
	"GET /webhooks": `{"webhooks":[]}`,
}

// write describes a route with a body.
type write struct {
	// body returns a valid body naming x's resources; it may create what the body needs
	// (a free child product for a group) through c.
	body func(c *caller, x ids) any
	// foreign is the status, and foreignMsg the message, when another account sends the
	// body built from the owner's ids: 404 for a write on the owner's resource, 200 for
	// a creation of the caller's own.
	foreign    int
	foreignMsg string
	// bodiless is an action that reads no body (POST /webhooks/{id}/ping):
	// body returns nil, and the malformed-body checks do not apply.
	bodiless bool
	// text is the path in body's value (map keys and slice indexes) of a text field,
	// which need not be in the valid body, and field how the 422 names it; textless is
	// set instead for a body without any text field.
	text     []any
	field    string
	textless bool
}

// webhookAction is the write of a POST that acts on a webhook and reads no
// body.
var webhookAction = write{body: func(*caller, ids) any { return nil }, bodiless: true,
	foreign: http.StatusNotFound, foreignMsg: "Webhook not found"}

func productBody(_ *caller, _ ids) any {
	return map[string]any{"name": "Conformance product", "brand": "Conformance"}
}

// productWrite is the write of each method of /products/{sku}.
var productWrite = write{body: productBody, foreign: http.StatusOK, text: []any{"name"}, field: "name"}

// inventoryWrite is the write of a method of /inventory setting onHand.
func inventoryWrite(onHand int) write {
	return write{
		body: func(_ *caller, x ids) any {
			return map[string]any{"inventory": []any{map[string]any{"sku": x.Product, "warehouse_uuid": x.Warehouse, "on_hand": onHand}}}
		},
		foreign: http.StatusNotFound, foreignMsg: "Warehouse not found",
		text: []any{"inventory", 0, "bin_location"}, field: "inventory[0].bin_location",
	}
}

// genericSandbox is the marketplace POST /channels connects to (pkg/local/sandbox's generic
// one, its connector registered), started on first use.
var genericSandbox = sync.OnceValue(func() *sandbox.Generic {
	connectors.Register(sandbox.GenericConnector)
	sb, err := sandbox.NewGeneric()
	if err != nil {
		panic(err)
	}
	sb.AddSeller("conformance", "conformance-secret", "conformance-refresh")
	return sb
})

// consentApp registers the Amazon connector and makes an app of the stack's its operator
// app, once (POST /channels/authorizations builds its consent URL; nothing calls the
// marketplace).
func consentApp(env *testenv.Env) {
	consentAppOnce.Do(func() {
		connectors.Register(amazon.Default)
		if err := env.Deps.LocalApps.Set("amazon", consent.AppConfig{App: connectors.App{ClientID: "conformance-app", ClientSecret: "conformance-app-secret",
			RedirectURI: consent.CallbackURL(env.URL, "amazon"), Extra: map[string]string{"application_id": "amzn1.sp.solution.conformance"}}}); err != nil {
			panic(err)
		}
	})
}

// consentAppOnce guards consentApp.
var consentAppOnce sync.Once

// writes holds a valid body per route with a body, by method and canonical path.
var writes = map[string]write{
	"POST /warehouses": {
		body:    func(*caller, ids) any { return map[string]any{"warehouse": map[string]any{"name": "Conformance"}} },
		foreign: http.StatusOK, text: []any{"warehouse", "name"}, field: "name",
	},
	"PUT /warehouses/{uuid}": {
		body:    func(*caller, ids) any { return map[string]any{"warehouse": map[string]any{"city": "Oakland"}} },
		foreign: http.StatusNotFound, foreignMsg: "Warehouse not found", text: []any{"warehouse", "city"}, field: "city",
	},
	"POST /products/{sku}":  productWrite,
	"PUT /products/{sku}":   productWrite,
	"PATCH /products/{sku}": productWrite,
	"PUT /variation_groups/{sku}": {
		body: func(c *caller, _ ids) any {
			child := c.newChild()
			return map[string]any{"name": "Conformance group", "child_skus": []string{child}, "variation_attributes": []string{"color"}}
		},
		foreign: http.StatusOK, text: []any{"description"}, field: "description",
	},
	// A connect through the generic sandbox's connector: B's is a channel of its own.
	"POST /channels": {
		body: func(*caller, ids) any {
			sb := genericSandbox()
			return map[string]any{"channel": map[string]any{"name": "Conformance", "type": "generic",
				"credentials": map[string]any{"client_id": "conformance", "client_secret": "conformance-secret", "refresh_token": "conformance-refresh"},
				"endpoints":   map[string]any{"api": sb.URL, "auth": sb.URL + "/oauth/token"}}}
		},
		foreign: http.StatusCreated, text: []any{"channel", "name"}, field: "channel.name",
	},
	// An authorization of Amazon (the stack's app of Amazon set on first use): B's is one
	// of its own.
	"POST /channels/authorizations": {
		body: func(c *caller, _ ids) any {
			consentApp(c.env)
			return map[string]any{"authorization": map[string]any{"type": "amazon", "name": "Conformance",
				"return_url": hookURL(), "marketplace_id": "ATVPDKIKX0DER"}}
		},
		foreign: http.StatusCreated, text: []any{"authorization", "name"}, field: "authorization.name",
	},
	"PATCH /channels/{uuid}": {
		body:    func(*caller, ids) any { return map[string]any{"channel": map[string]any{"state": "active"}} },
		foreign: http.StatusNotFound, foreignMsg: "Channel not found",
		textless: true, // a state of two values
	},
	"PUT /channels/{uuid}": {
		body: func(*caller, ids) any {
			return map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{
				"percent": 80, "max": "50", "min": nil, "safety": 2, "sync": true}}}
		},
		foreign: http.StatusNotFound, foreignMsg: "Channel not found",
		textless: true, // numbers, a flag and warehouse uuids
	},
	// B names A's channel; A's own is not an eBay channel (a 422 for A).
	"POST /channels/{uuid}/migrations": {
		body:    func(*caller, ids) any { return map[string]any{"listing_refs": []string{"110000000001"}} },
		foreign: http.StatusNotFound, foreignMsg: "Channel not found",
		textless: true, // eBay ItemIDs, digits only: any other text is refused as not one
	},
	// B names A's channel: its own has that uuid nowhere.
	"PUT /listings": {
		body: func(_ *caller, x ids) any {
			return map[string]any{"listing": map[string]any{"channel_uuid": x.Channel, "channel_sku": x.Listing,
				"sku": x.Product, "listing_ref": "conf-ref", "inventory_rules": map[string]any{"percent": 50}}}
		},
		foreign: http.StatusNotFound, foreignMsg: "Channel not found", text: []any{"listing", "listing_ref"}, field: "listing_ref",
	},
	"POST /inventory":  inventoryWrite(3),
	"PUT /inventory":   inventoryWrite(8),
	"PATCH /inventory": inventoryWrite(9),
	"POST /shipments": {
		body: func(_ *caller, x ids) any {
			return map[string]any{"shipment": map[string]any{"sb_order_seq": x.Seq, "carrier_name": "UPS",
				"tracking_number": "1Z999AA10123456784", "items": []any{map[string]any{"sku": x.Product, "quantity": 1}}}}
		},
		foreign: http.StatusNotFound, foreignMsg: "Order is not found.",
		text: []any{"shipment", "tracking_number"}, field: "shipment.tracking_number",
	},
	"POST /webhooks": {
		body: func(*caller, ids) any {
			return map[string]any{"webhook": map[string]any{"url": hookURL(), "events": []string{"listing.sync_failed"}}}
		},
		foreign: http.StatusCreated, text: []any{"webhook", "description"}, field: "description",
	},
	"PUT /webhooks/{id}": {
		body:    func(*caller, ids) any { return map[string]any{"webhook": map[string]any{"description": "Conformance"}} },
		foreign: http.StatusNotFound, foreignMsg: "Webhook not found", text: []any{"webhook", "description"}, field: "description",
	},
	"POST /webhooks/{id}/rotate_secret":                  webhookAction,
	"POST /webhooks/{id}/ping":                           webhookAction,
	"POST /webhooks/{id}/deliveries/{delivery_id}/retry": webhookAction,
}

// hookURL is where the worlds' webhooks point: a receiver on loopback that
// takes every delivery at once, so deliveries end at their first attempt.
var hookURL = sync.OnceValue(func() string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	return srv.URL + "/conformance"
})

// writeFor returns the write description of rt, failing the test if there is none.
func writeFor(t testing.TB, rt route) write {
	t.Helper()
	w, ok := writes[rt.Method+" "+rt.canonical()]
	if !ok {
		t.Fatalf("%s: no valid body known: add the route to writes in pkg/conformance", rt)
	}
	return w
}

// newChild creates a product that can join a variation group varying on color.
func (c *caller) newChild() string {
	c.t.Helper()
	sku := uniq("conf-child")
	c.must(http.StatusOK, http.MethodPut, "/products/"+url.PathEscape(sku),
		map[string]any{"name": "Child " + sku, "custom_attributes": map[string]any{"color": sku}}, nil)
	return sku
}
