package idempotency_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/idempotency"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestReleasedAfterSpentDeadline: a write whose dependency hangs until the
// function's deadline answers 503 and frees its key, although the
// request's own deadline is spent, so the retry runs instead of being 409.
func TestReleasedAfterSpentDeadline(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{})
	replays := idempotency.Store{Table: env.Deps.Table}
	hang := func(ctx context.Context, _ *api.Request) (*api.Response, error) {
		<-ctx.Done() // a dependency that never answers
		return nil, ctx.Err()
	}
	ev := events.APIGatewayProxyRequest{HTTPMethod: http.MethodPost, Path: "/v1/shipments", Body: `{}`,
		Headers:        map[string]string{api.HeaderIdempotencyKey: "hung"},
		RequestContext: events.APIGatewayProxyRequestContext{RequestID: "first", Authorizer: map[string]any{"account_id": acct.ID}}}
	ctx, cancel := context.WithTimeout(context.Background(), 2500*time.Millisecond) // the function's timeout
	defer cancel()
	resp, err := api.Lambda(hang, nil, replays)(ctx, ev)
	if err != nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("the hung write: %d %v, want 503", resp.StatusCode, err)
	}
	prior, err := replays.Claim(context.Background(), acct.ID, "hung", "retry", "second")
	if got, want := prior, (*api.Replay)(nil); err != nil || got != want {
		t.Errorf("claim after the 503: %+v, %v; want the key free", got, err)
	}
}
