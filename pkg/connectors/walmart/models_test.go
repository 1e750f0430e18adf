package walmart_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/multisell/multisell/pkg/connectors/walmart"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// models are Walmart's US Marketplace models beside the repository, each serving any path.
var models = &connectorstest.Models{API: walmart.ProductionAPI, Fix: fixCollision, Files: map[string]string{
	"walmart/orders.json": "", "walmart/inventory.json": "", "walmart/auth.json": "", "walmart/feeds.json": "",
}}

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
	seen := f.Rec.Exchanges()
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
	in, err := models.ValidateRequest(x.Request, x.Body)
	if err != nil || x.Status/100 != 2 {
		return err
	}
	return connectorstest.ValidateAnswer(in, x.Status, http.Header{"Content-Type": {"application/json"}}, x.Answer)
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
