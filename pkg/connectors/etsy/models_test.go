package etsy_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	"github.com/multisell/multisell/pkg/testenv"
)

// model is Etsy's OpenAPI document as a router, loaded once per test binary.
var model struct {
	sync.Mutex
	router routers.Router
}

// loadModel loads Etsy's document (once per test binary) in a subtest that skips, saying so,
// when the document is not beside the repository; nil then.
func loadModel(t *testing.T) routers.Router {
	t.Helper()
	var router routers.Router
	t.Run("model", func(t *testing.T) {
		model.Lock()
		defer model.Unlock()
		if model.router == nil {
			file := testenv.ChannelModel(t, "etsy/3.0.0.json")
			doc, err := openapi3.NewLoader().LoadFromFile(file)
			if err != nil {
				t.Fatalf("load %s: %v", file, err)
			}
			doc.Servers = openapi3.Servers{{URL: etsy.ProductionAPI}}
			if model.router, err = gorillamux.NewRouter(doc); err != nil {
				t.Fatalf("route %s: %v", file, err)
			}
		}
		router = model.router
	})
	return router
}

// validateRequests checks every API request the sandbox received against Etsy's OpenAPI
// document (router; nil: not checked), its operation, parameters and body, and that none
// came over Etsy's published per-second and daily limits.
func validateRequests(t *testing.T, sb *sbx.Sandbox, router routers.Router) {
	if n, d := sb.Over(sbx.OpAPI), sb.OverDay(); n+d > 0 {
		t.Errorf("%d calls came over Etsy's per-second limit, %d over its daily one", n, d)
	}
	if router == nil {
		return
	}
	reqs := sb.Requests()
	for _, r := range reqs {
		if err := validate(router, r); err != nil {
			t.Errorf("%s %s (%s): %v", r.Method, r.URL, r.Op, err)
		}
	}
	t.Logf("%d requests checked against Etsy's OpenAPI document", len(reqs))
}

// validate checks one request against the document.
func validate(router routers.Router, r sbx.Request) error {
	u, err := url.Parse(etsy.ProductionAPI + r.URL)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(context.Background(), r.Method, u.String(), io.NopCloser(bytes.NewReader(r.Body)))
	if err != nil {
		return err
	}
	req.Header = r.Header.Clone()
	route, params, err := router.FindRoute(req)
	if err != nil {
		return err
	}
	if route.Operation.OperationID != r.Op {
		return fmt.Errorf("the document names it %s", route.Operation.OperationID)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}
	return openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
		Request: req, PathParams: params, Route: route, Options: opts})
}
