package gateway

import (
	"context"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/errs"
)

// Throttle is a usage plan's steady rate (requests per second) and burst.
type Throttle struct {
	Rate  float64
	Burst int
}

// KeyPlans returns the throttle of the usage plan the API key is on, or false for a key
// on none.
type KeyPlans func(ctx context.Context, key string) (Throttle, bool, error)

// AccountPlans is the local stand-in for API Gateway's keys and plans: an account's API
// key is its id (accounts.APIKey), and its plan is the one of its rate (rate and burst its
// rps), as `multisell accounts create` arranges on AWS (pkg/usageplans).
func AccountPlans(accts AccountReader) KeyPlans {
	return func(ctx context.Context, key string) (Throttle, bool, error) {
		a, err := accts.Get(ctx, key)
		if errs.KindOf(err) == errs.KindNotFound || (err == nil && accounts.APIKey(a.ID) != key) {
			return Throttle{}, false, nil
		}
		if err != nil {
			return Throttle{}, false, err
		}
		rps := a.RPS
		if rps <= 0 {
			rps = accounts.DefaultRPS
		}
		return Throttle{Rate: float64(rps), Burst: rps}, true, nil
	}
}

// AccountReader reads one account by its id (the accounts service); an
// unknown id is an errs.KindNotFound error.
type AccountReader interface {
	Get(ctx context.Context, id string) (accounts.Account, error)
}

// planRefresh is how long the gateway keeps a key's plan before asking UsagePlans again
// (API Gateway, too, takes a while to apply a plan's change).
const planRefresh = time.Minute

// playsUsagePlans reports whether requests are throttled per API key: usage plans are
// played, the API's key source is the authorizer and its methods need a key.
func (g *Gateway) playsUsagePlans() bool {
	return g.opts.UsagePlans != nil && g.api.APIKeySource == "AUTHORIZER" && g.api.APIKeyRequired
}

// buckets holds a token bucket per API key.
type buckets struct {
	mu    sync.Mutex
	byKey map[string]*bucket
}

// bucket is one key's token bucket: Burst tokens at most, refilled at Rate a second; a
// request takes one or is throttled.
type bucket struct {
	plan    Throttle
	planAt  time.Time // when plan was read
	tokens  float64
	refills time.Time // when tokens was last brought up to date
}

// throttle applies the usage plan of key to one request and returns the gateway response
// type that refuses it, or "": INVALID_API_KEY for no key or one on no plan, THROTTLED for
// a key over its plan's rate.
func (g *Gateway) throttle(ctx context.Context, key string) string {
	if key == "" {
		return respInvalidAPIKey
	}
	now := time.Now()
	if g.opts.Now != nil {
		now = g.opts.Now()
	}
	g.buckets.mu.Lock()
	b, ok := g.buckets.byKey[key]
	g.buckets.mu.Unlock()
	if !ok || now.Sub(b.planAt) > planRefresh {
		plan, found, err := g.opts.UsagePlans(ctx, key)
		if err != nil {
			g.log.Error("usage plan lookup", "error", err.Error())
			return respDefault5XX
		}
		if !found {
			return respInvalidAPIKey
		}
		g.buckets.mu.Lock()
		if b, ok = g.buckets.byKey[key]; !ok {
			b = &bucket{tokens: float64(plan.Burst), refills: now}
			g.buckets.byKey[key] = b
		}
		b.plan, b.planAt = plan, now
		g.buckets.mu.Unlock()
	}
	g.buckets.mu.Lock()
	defer g.buckets.mu.Unlock()
	if elapsed := now.Sub(b.refills).Seconds(); elapsed > 0 {
		b.tokens = min(float64(b.plan.Burst), b.tokens+elapsed*b.plan.Rate)
		b.refills = now
	}
	if b.tokens < 1 {
		return respThrottled
	}
	b.tokens--
	return ""
}
