package api

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/deadline"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// Handler serves one authenticated API call. It returns a Response, or an
// error: an errs.Error of a client kind (possibly wrapped) becomes its 4xx
// (see failure), anything else a logged 500.
type Handler func(ctx context.Context, r *Request) (*Response, error)

// LambdaHandler is the Lambda proxy-integration signature of an endpoint.
type LambdaHandler = func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error)

// Limiter decides whether an account may make one more request now.
type Limiter interface {
	// Allow counts the request when it may proceed and returns the
	// account's quota after it (Quota.Allowed false: refused, counting
	// nothing).
	Allow(ctx context.Context, a Account) (Quota, error)
}

// ErrRevoked is what a Limiter returns for credentials the authorizer's
// cached answer still allows but that are no longer valid: the account's
// secret was rotated, or the account disabled. The request is answered 401.
var ErrRevoked = errors.New("credentials revoked")

// Lambda adapts h to API Gateway: it takes the account from the authorizer
// context, enforces the rate limit, answers a write sent with an
// Idempotency-Key through replays (see idempotent), logs the request with
// its id and its DynamoDB cost, and maps errors to responses. A panic is a
// logged 500.
func Lambda(h Handler, lim Limiter, replays Replays) LambdaHandler {
	return func(ctx context.Context, ev events.APIGatewayProxyRequest) (resp events.APIGatewayProxyResponse, err error) {
		start := time.Now()
		ctx, cancel := deadline.Reserve(ctx, answerMargin)
		defer cancel()
		ctx, meter := store.EnsureMeter(ctx)
		log := slog.Default().With("request_id", ev.RequestContext.RequestID,
			"method", ev.HTTPMethod, "resource", ev.Resource)
		ctx = logctx.With(ctx, log)
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				resp, err = internalError(), nil
			}
			log.Info("request", "status", resp.StatusCode, "duration_ms", time.Since(start).Milliseconds(),
				"ddb_calls", meter.Calls(), "ddb_rcu", meter.ReadUnits(), "ddb_wcu", meter.WriteUnits())
		}()
		acct, ok := AccountFromAuthorizer(ev.RequestContext.Authorizer)
		if !ok {
			return Unauthorized(), nil
		}
		log = log.With("account_id", acct.ID)
		ctx = logctx.With(ctx, log)
		if lim != nil {
			q, lerr := lim.Allow(ctx, acct)
			if errors.Is(lerr, ErrRevoked) {
				log.Info("revoked credentials", "secret_version", acct.SecretVersion)
				return Unauthorized(), nil
			}
			if lerr != nil {
				log.Error("rate limiter", "error", lerr)
				resp, _ = failure(lerr)
				return resp, nil
			}
			defer func() { q.setHeaders(&resp) }()
			if !q.Allowed {
				return RateLimited(q.Reset), nil
			}
		}
		r := &Request{APIGatewayProxyRequest: ev, Account: acct}
		if key, sent := headerLookup(ev.Headers, ev.MultiValueHeaders, HeaderIdempotencyKey); sent && replays != nil && writes[ev.HTTPMethod] {
			return idempotent(ctx, log, replays, h, r, key), nil
		}
		return serve(ctx, log, h, r), nil
	}
}

// answerMargin is how long before the function's deadline a request stops
// waiting on its dependencies, so that it still answers (a 503) in time
// rather than being cut off by the timeout (a 502 from API Gateway).
const answerMargin = 2 * time.Second

// serve runs h on r and turns its result into the proxy response. A write
// that ran out of time may have taken effect: its 503 says the outcome is
// unknown, unless the handler's error is typed (an errs.Error), which says
// what is known.
func serve(ctx context.Context, log *slog.Logger, h Handler, r *Request) events.APIGatewayProxyResponse {
	out, err := h(ctx, r)
	if _, typed := errs.As(err); err != nil && !typed && writes[r.HTTPMethod] && errs.TimedOut(err) {
		err = errs.OutcomeUnknown("", err) // a typed error says itself what is known
	}
	if err != nil {
		resp, client := failure(err)
		if !client {
			log.Error("handler", "error", err)
		}
		return resp
	}
	if out == nil {
		out = &Response{Status: http.StatusOK, Body: map[string]any{}}
	}
	return out.proxy()
}

// AccountFromAuthorizer reads the account the authorizer put in the request
// context. API Gateway may hand context values over as strings or numbers.
func AccountFromAuthorizer(m map[string]any) (Account, bool) {
	id, _ := m["account_id"].(string)
	if id == "" {
		return Account{}, false
	}
	return Account{ID: id, RPS: intValue(m["rps"]), RPM: intValue(m["rpm"]), SecretVersion: intValue(m["secret_version"])}, true
}

func intValue(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case int64:
		return int(x)
	case string:
		n, _ := strconv.Atoi(x)
		return n
	}
	return 0
}
