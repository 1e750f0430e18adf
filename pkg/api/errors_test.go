package api

import (
	"errors"
	"fmt"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
)

func TestErrorResponse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantBody   string
	}{
		{"malformed", errs.Malformed("Request body is not valid JSON"), 400, `{"error":"Request body is not valid JSON"}`},
		{"invalid", errs.Invalid("%s must be an integer", "limit"), 422, `{"error":"limit must be an integer"}`},
		{"fields", errs.Fields(map[string][]string{"name": {"can't be blank"}}), 422, `{"error":{"name":["can't be blank"]}}`},
		{"not found, wrapped", fmt.Errorf("get: %w", errs.NotFound("Order not found")), 404, `{"error":"Order not found"}`},
		{"conflict", errs.Conflict("Inventory already exists"), 409, `{"error":"Inventory already exists"}`},
		{"too large", errs.TooLarge("Request body is too large (limit 1 MiB)"), 413, `{"error":"Request body is too large (limit 1 MiB)"}`},
		{"internal kind", errs.Errorf(errs.KindInternal, "secret detail"), 500, `{"error":"Internal server error"}`},
		{"plain error", errors.New("secret detail"), 500, `{"error":"Internal server error"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, client := failure(tt.err)
			if got.StatusCode != tt.wantStatus || got.Body != tt.wantBody {
				t.Errorf("failure(%v) = %d %s, want %d %s", tt.err, got.StatusCode, got.Body, tt.wantStatus, tt.wantBody)
			}
			if wantClient := tt.wantStatus < 500; client != wantClient {
				t.Errorf("failure(%v) client = %v, want %v", tt.err, client, wantClient)
			}
			if ct := got.Headers["Content-Type"]; ct != ContentType {
				t.Errorf("Content-Type = %q, want %q", ct, ContentType)
			}
		})
	}
}
