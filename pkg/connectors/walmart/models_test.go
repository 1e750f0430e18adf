package walmart_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/multisell/multisell/pkg/connectors/walmart"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// modelFiles are Walmart's US Marketplace models beside the repository.
var modelFiles = []string{"walmart/orders.json", "walmart/inventory.json", "walmart/auth.json", "walmart/feeds.json"}

// models are the models as routers, loaded once per test binary.
var models = struct {
	sync.Mutex
	routers []routers.Router
}{}

// loadModels loads the models (once per test binary); a subtest that skips, saying so, when
// they are not beside the repository. It returns whether they are loaded.
func loadModels(t *testing.T) bool {
	t.Helper()
	ok := false
	t.Run("models", func(t *testing.T) {
		models.Lock()
		defer models.Unlock()
		if models.routers != nil {
			ok = true
			return
		}
		var rs []routers.Router
		for _, name := range modelFiles {
			file := testenv.ChannelModel(t, name)
			doc, err := openapi3.NewLoader().LoadFromFile(file)
			if err != nil {
				t.Fatalf("load %s: %v", file, err)
			}
			fixCollision(doc)
			doc.Servers = openapi3.Servers{{URL: walmart.ProductionAPI}}
			r, err := gorillamux.NewRouter(doc)
			if err != nil {
				t.Fatalf("route %s: %v", file, err)
			}
			rs = append(rs, r)
		}
		models.routers = rs
		ok = true
	})
	return ok
}

// fixCollision undoes the collision of the models' copy (../shared/channel-models/README.md):
// there the name of the refund request's lines stands for the lines of orders and of
// shipping updates too. An order's lines are OrderLinesType, a shipping update's lines
// ShippingLinesType, and their statuses ShipLineStatusesType, as Walmart's reference pages
// have them. The copy's getAnOrder has one more slip, mended below.
func fixCollision(doc *openapi3.T) {
	s := doc.Components.Schemas
	if s == nil || s["ShippingLinesType"] == nil {
		return
	}
	if rec := s["OrderShipmentRecord"]; rec != nil && rec.Value != nil {
		rec.Value.Properties["orderLines"] = s["ShippingLinesType"]
	}
	if line := s["ShippingLineType"]; line != nil && line.Value != nil {
		line.Value.Properties["orderLineStatuses"] = s["ShipLineStatusesType"]
	}
	for _, name := range []string{"GetOrderResponseRecord", "Order"} {
		if o := s[name]; o != nil && o.Value != nil {
			o.Value.Properties["orderLines"] = s["OrderLinesType"]
		}
	}
	// getAnOrder's schema is the bare Order while its example (and Walmart's answer) is
	// {"order": ...}, as GetOrderResponse.
	if p := doc.Paths.Find("/v3/orders/{purchaseOrderId}"); p != nil && p.Get != nil {
		if r := p.Get.Responses.Status(http.StatusOK); r != nil && r.Value != nil {
			if mt := r.Value.Content.Get("application/json"); mt != nil {
				mt.Schema = s["GetOrderResponse"]
			}
		}
	}
}

// validate checks every request the connector sent to the sandbox against Walmart's models
// and the WM_* header rules, and every 2xx answer of the sandbox against the models.
func (f *fixture) validate(t *testing.T) {
	if !f.models {
		t.Log("Walmart's models are not beside the repository: the requests were not checked against them")
		return
	}
	seen := f.rec.Exchanges()
	if err := headerRules(seen); err != nil {
		t.Error(err)
	}
	for _, x := range seen {
		if err := validateExchange(x); err != nil {
			t.Errorf("%s %s: %v", x.Request.Method, x.Request.URL.RequestURI(), err)
		}
	}
	t.Logf("%d requests and answers checked against Walmart's models and header rules", len(seen))
}

// headerRules checks the WM_* header rules Walmart's reference pages give every call (the
// models' copies lost them): WM_SVC.NAME, a WM_QOS.CORRELATION_ID of its own (the same
// request sent again after a 429 or a 5xx keeps its id), Accept application/json, and the
// access token in WM_SEC.ACCESS_TOKEN, except on the Token API, which takes Basic client
// authentication instead.
func headerRules(seen []connectorstest.Exchange) error {
	ids := map[string]bool{}
	for _, x := range seen {
		h, where := foldHeader(x.Request.Header), x.Request.Method+" "+x.Request.URL.Path
		token := x.Request.URL.Path == "/v3/token"
		switch {
		case h.Get("WM_SVC.NAME") == "":
			return fmt.Errorf("%s: no WM_SVC.NAME", where)
		case h.Get("WM_QOS.CORRELATION_ID") == "":
			return fmt.Errorf("%s: no WM_QOS.CORRELATION_ID", where)
		case h.Get("Accept") != "application/json":
			return fmt.Errorf("%s: Accept %q, want application/json", where, h.Get("Accept"))
		case token && !strings.HasPrefix(h.Get("Authorization"), "Basic "):
			return fmt.Errorf("%s: the Token API needs Basic client authentication", where)
		case !token && h.Get("WM_SEC.ACCESS_TOKEN") == "":
			return fmt.Errorf("%s: no WM_SEC.ACCESS_TOKEN", where)
		case len(x.Body) > 0 && h.Get("Content-Type") == "":
			return fmt.Errorf("%s: a body without Content-Type", where)
		}
		if x.Status == http.StatusTooManyRequests || x.Status >= 500 {
			continue
		}
		id := h.Get("WM_QOS.CORRELATION_ID")
		if ids[id] {
			return fmt.Errorf("%s: WM_QOS.CORRELATION_ID %s of another call", where, id)
		}
		ids[id] = true
	}
	return nil
}

// foldHeader is h with its names canonical: the connector sends the WM_* names as Walmart
// writes them, which Header.Get would not find.
func foldHeader(h http.Header) http.Header {
	out := http.Header{}
	for k, v := range h {
		for _, x := range v {
			out.Add(k, x)
		}
	}
	return out
}

// validateExchange checks one request, and its answer when a 2xx, against the models.
func validateExchange(x connectorstest.Exchange) error {
	req := x.Request.Clone(context.Background())
	u, _ := url.Parse(walmart.ProductionAPI + x.Request.URL.RequestURI())
	req.URL, req.Host = u, u.Host
	req.Body = io.NopCloser(bytes.NewReader(x.Body))
	var (
		route  *routers.Route
		params map[string]string
		err    error
	)
	for _, r := range models.routers {
		if route, params, err = r.FindRoute(req); err == nil {
			break
		}
	}
	if route == nil {
		return fmt.Errorf("not an operation of Walmart's models: %w", err)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	if x.Status/100 != 2 {
		return nil
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: x.Status, Header: http.Header{"Content-Type": {"application/json"}},
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(x.Answer)
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		return fmt.Errorf("answer %d: %w", x.Status, err)
	}
	return nil
}

// TestRequestsMatchModels: the requests of an order's import, acknowledgement and shipment,
// single updates and a feed validate against Walmart's models and the WM_* header rules
// (the fixture's cleanup checks them).
func TestRequestsMatchModels(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	f := newFixture(t)
	if !f.models {
		t.Skip("Walmart's models are not beside the repository")
	}
	exercise(t, f)
}
