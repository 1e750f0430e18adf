package api

import (
	"context"
	"errors"
	"fmt"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

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
		{"timed out", fmt.Errorf("get: %w", context.DeadlineExceeded), 503, `{"error":"Service temporarily unavailable"}`},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, 503, `{"error":"Service temporarily unavailable"}`},
		{"unavailable kind", errs.Unavailable(errors.New("queue down")), 503, `{"error":"Service temporarily unavailable"}`},
		{"outcome unknown", errs.OutcomeUnknown("r-1", context.DeadlineExceeded), 503,
			`{"error":"Service temporarily unavailable","outcome":"unknown","request_id":"r-1"}`},
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
			if got, want := got.Headers["Retry-After"] != "", tt.wantStatus == 503; got != want {
				t.Errorf("Retry-After set: %v, want %v", got, want)
			}
		})
	}
}

// TestOutageAnswers: a handler stuck on a dependency is cut off before the
// function's deadline and answered 503 with Retry-After, and a write cut
// off so says its outcome is unknown; the rate limiter's outage is a 503 too.
func TestOutageAnswers(t *testing.T) {
	t.Parallel()
	hang := func(ctx context.Context, _ *Request) (*Response, error) {
		<-ctx.Done()
		return nil, fmt.Errorf("put: %w", ctx.Err())
	}
	tests := []struct {
		name     string
		method   string
		handler  Handler
		limiter  Limiter
		wantBody string
	}{
		{"a read hangs", "GET", hang, nil, `{"error":"Service temporarily unavailable"}`},
		{"a write hangs", "POST", hang, nil, `{"error":"Service temporarily unavailable","outcome":"unknown"}`},
		{"a write that knows it did nothing", "PUT", func(ctx context.Context, r *Request) (*Response, error) {
			_, err := hang(ctx, r)
			return nil, errs.Unavailable(err)
		}, nil, `{"error":"Service temporarily unavailable"}`},
		{"the limiter is down", "POST", nil, limiterFunc(func(context.Context, Account) (Quota, error) {
			return Quota{}, &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
		}), `{"error":"Service temporarily unavailable"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			timeout := answerMargin + 200*time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			start := time.Now()
			ev := events.APIGatewayProxyRequest{HTTPMethod: tt.method}
			ev.RequestContext.Authorizer = map[string]any{"account_id": "acct_1"}
			resp, err := Lambda(tt.handler, tt.limiter, nil)(ctx, ev)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != 503 || resp.Body != tt.wantBody || resp.Headers["Retry-After"] == "" {
				t.Errorf("got %d %s %v, want 503 %s with Retry-After", resp.StatusCode, resp.Body, resp.Headers, tt.wantBody)
			}
			if took := time.Since(start); took >= timeout {
				t.Errorf("answered after %v, at or past the deadline %v", took, timeout)
			}
		})
	}
}

// limiterFunc is a Limiter of a function.
type limiterFunc func(context.Context, Account) (Quota, error)

func (f limiterFunc) Allow(ctx context.Context, a Account) (Quota, error) { return f(ctx, a) }
