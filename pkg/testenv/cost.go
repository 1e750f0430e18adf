package testenv

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/store"
)

// CostCase is one call whose DynamoDB cost is checked (CheckCosts) and
// measured (BenchCosts, which `make bench` prints as a table).
type CostCase struct {
	// Name names the endpoint, e.g. "GET /warehouses".
	Name string
	// Run makes the call once; i numbers the runs, for calls that must
	// differ each time (a new SKU to create, say).
	Run func(ctx context.Context, i int) error
	// Want is the budget: DynamoDB calls by operation name.
	Want map[string]int
}

var (
	cachedOnce sync.Once
	cachedGW   *gateway.Gateway
	cachedErr  error
)

// Request returns a CostCase.Run that sends an API request as acct through
// the local gateway, in-process, with the authorizer's result cached as API
// Gateway caches it: the meter sees exactly the endpoint's own calls,
// including the rate limiter's write. body(i) gives the body of run i (nil
// for none); the call fails unless the status is want.
func (e *Env) Request(acct Account, method, path string, want int, body func(i int) any) func(context.Context, int) error {
	return func(ctx context.Context, i int) error {
		cachedOnce.Do(func() {
			cachedGW, cachedErr = gateway.NewGateway(e.Template, e.Handler,
				gateway.Options{AuthCacheTTL: time.Hour, Logger: testLogger()})
		})
		if cachedErr != nil {
			return cachedErr
		}
		var payload []byte
		if body != nil {
			if b := body(i); b != nil {
				if s, ok := b.(string); ok {
					payload = []byte(s)
				} else if j, err := json.Marshal(b); err == nil {
					payload = j
				} else {
					return err
				}
			}
		}
		req := httptest.NewRequestWithContext(ctx, method, "/"+cachedGW.Stage()+path, bytes.NewReader(payload))
		req.Header.Set("Authorization", BasicAuth(acct))
		req.Header.Set("Content-Type", "application/json")
		if _, warm := warmed.LoadOrStore(acct.Token, true); !warm {
			// Fill the authorizer cache outside the meter, with a read.
			w := httptest.NewRequest(http.MethodGet, "/"+cachedGW.Stage()+"/channels", nil)
			w.Header.Set("Authorization", BasicAuth(acct))
			cachedGW.ServeHTTP(httptest.NewRecorder(), w)
		}
		rec := httptest.NewRecorder()
		cachedGW.ServeHTTP(rec, req)
		if rec.Code != want {
			return fmt.Errorf("%s %s: status %d, want %d: %.300s", method, path, rec.Code, want, rec.Body.String())
		}
		return nil
	}
}

// warmed holds the tokens whose authorizer result is cached.
var warmed sync.Map

// CheckCosts runs each case once and fails the test when its DynamoDB calls
// differ from the budget.
func CheckCosts(t *testing.T, cases []CostCase) {
	t.Helper()
	for _, c := range cases {
		ctx, meter := store.WithMeter(context.Background())
		if err := c.Run(ctx, 0); err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got := meter.Ops(); !maps.Equal(got, c.Want) {
			t.Errorf("%s: DynamoDB calls %v, want %v", c.Name, got, c.Want)
		}
	}
}

// BenchCosts runs each case as a sub-benchmark and reports its DynamoDB
// calls, read and write capacity units per call next to the time per call.
func BenchCosts(b *testing.B, cases []CostCase) {
	for _, c := range cases {
		b.Run(c.Name, func(b *testing.B) {
			calls, rcu, wcu, i := 0, 0.0, 0.0, 0
			for b.Loop() {
				ctx, meter := store.WithMeter(context.Background())
				if err := c.Run(ctx, i); err != nil {
					b.Fatal(err)
				}
				calls, rcu, wcu, i = calls+meter.Calls(), rcu+meter.ReadUnits(), wcu+meter.WriteUnits(), i+1
			}
			b.ReportMetric(float64(calls)/float64(i), "ddb-calls/op")
			b.ReportMetric(rcu/float64(i), "ddb-rcu/op")
			b.ReportMetric(wcu/float64(i), "ddb-wcu/op")
		})
	}
}

// Percentile is the p-th percentile of xs (nearest rank), 0 for none: the
// latencies benchmarks report.
func Percentile(xs []float64, p int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}
