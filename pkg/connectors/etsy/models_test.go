package etsy_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/multisell/multisell/pkg/connectors/etsy"
	sbx "github.com/multisell/multisell/pkg/local/sandbox/etsy"
	"github.com/multisell/multisell/pkg/testenv/connectorstest"
)

// models is Etsy's OpenAPI document.
var models = &connectorstest.Models{API: etsy.ProductionAPI, Files: map[string]string{"etsy/3.0.0.json": ""}}

// validateRequests checks every API request the sandbox received against Etsy's OpenAPI
// document (when loaded), its operation, parameters and body, and that none came over
// Etsy's published per-second and daily limits.
func validateRequests(t *testing.T, sb *sbx.Sandbox, loaded bool) {
	if n, d := sb.Over(sbx.OpAPI), sb.OverDay(); n+d > 0 {
		t.Errorf("%d calls came over Etsy's per-second limit, %d over its daily one", n, d)
	}
	if !loaded {
		return
	}
	reqs := sb.Requests()
	for _, r := range reqs {
		if err := validate(r); err != nil {
			t.Errorf("%s %s (%s): %v", r.Method, r.URL, r.Op, err)
		}
	}
	t.Logf("%d requests checked against Etsy's OpenAPI document", len(reqs))
}

// validate checks one request against the document, and that the document names its
// operation as the sandbox does.
func validate(r sbx.Request) error {
	req, err := http.NewRequestWithContext(context.Background(), r.Method, r.URL, nil)
	if err != nil {
		return err
	}
	req.Header = r.Header.Clone()
	in, err := models.ValidateRequest(req, r.Body)
	if in != nil && in.Route.Operation.OperationID != r.Op {
		return fmt.Errorf("the document names it %s", in.Route.Operation.OperationID)
	}
	return err
}
