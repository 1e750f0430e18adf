package connectorstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// planted is the generic connector with one behaviour broken by its hooks.
type planted struct {
	*sandbox.Connector
	parse  func(raw []byte, err error) (any, error)
	poll   func(q connectors.OrdersQuery, p connectors.OrderPage, err error) (connectors.OrderPage, error)
	since  func(connectors.OrdersQuery) connectors.OrdersQuery
	push   func([]connectors.QuantityResult) []connectors.QuantityResult
	track  func(connectors.Tracking) connectors.Tracking
	verify func(error) error
}

// ParseCredentials implements connectors.Connector.
func (p *planted) ParseCredentials(raw []byte) (any, error) {
	v, err := p.Connector.ParseCredentials(raw)
	if p.parse != nil {
		return p.parse(raw, err)
	}
	return v, err
}

// Verify implements connectors.Connector.
func (p *planted) Verify(ctx context.Context, s *connectors.Session) error {
	err := p.Connector.Verify(ctx, s)
	if p.verify != nil {
		return p.verify(err)
	}
	return err
}

// PollOrders implements connectors.Connector.
func (p *planted) PollOrders(ctx context.Context, s *connectors.Session, q connectors.OrdersQuery) (connectors.OrderPage, error) {
	if p.since != nil {
		q = p.since(q)
	}
	page, err := p.Connector.PollOrders(ctx, s, q)
	if p.poll != nil {
		return p.poll(q, page, err)
	}
	return page, err
}

// PushQuantities implements connectors.Connector.
func (p *planted) PushQuantities(ctx context.Context, s *connectors.Session, b []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	res, err := p.Connector.PushQuantities(ctx, s, b)
	if p.push != nil {
		return p.push(res), err
	}
	return res, err
}

// PostTracking implements connectors.Connector.
func (p *planted) PostTracking(ctx context.Context, s *connectors.Session, t connectors.Tracking) error {
	if p.track != nil {
		t = p.track(t)
	}
	return p.Connector.PostTracking(ctx, s, t)
}

// pollErr is a poll hook that replaces the error of a poll by what f makes of it.
func pollErr(f func(error) error) func(connectors.OrdersQuery, connectors.OrderPage, error) (connectors.OrderPage, error) {
	return func(_ connectors.OrdersQuery, p connectors.OrderPage, err error) (connectors.OrderPage, error) {
		if err != nil {
			return p, f(err)
		}
		return p, nil
	}
}

// breaks are, per case, a generic connector broken so that the case must fail.
var breaks = map[string]func(p *planted){
	CaseCredentials: func(p *planted) {
		p.parse = func(raw []byte, err error) (any, error) {
			v, _ := p.Connector.ParseCredentials(raw)
			return v, nil // takes anything
		}
	},
	CaseRefusal: func(p *planted) {
		p.poll = pollErr(func(err error) error { return errors.New(err.Error()) }) // a refusal told as a failure
	},
	CaseNotRefusal: func(p *planted) {
		p.poll = pollErr(func(err error) error { return &connectors.AuthError{Message: err.Error()} }) // any failure told as a refusal
	},
	CaseThrottling: func(p *planted) {
		p.poll = pollErr(func(err error) error { return errors.New(err.Error()) }) // Throttled told as a failure
	},
	CasePaging: func(p *planted) {
		p.poll = func(_ connectors.OrdersQuery, page connectors.OrderPage, err error) (connectors.OrderPage, error) {
			page.Next = "" // the first page only
			return page, err
		}
	},
	CaseResume: func(p *planted) {
		p.since = func(q connectors.OrdersQuery) connectors.OrdersQuery {
			q.Since = time.Now().Add(-time.Hour) // ignores the cursor
			return q
		}
	},
	CaseResults: func(p *planted) {
		p.push = func(r []connectors.QuantityResult) []connectors.QuantityResult {
			if len(r) > 0 {
				r = r[:len(r)-1] // one result short
			}
			return r
		}
	},
	CaseTracking: func(p *planted) {
		p.track = func(t connectors.Tracking) connectors.Tracking {
			t.ShipmentID += time.Now().Format(time.RFC3339Nano) // a new shipment each time
			return t
		}
	},
	CaseBadAnswers: func(p *planted) {
		p.poll = func(_ connectors.OrdersQuery, page connectors.OrderPage, err error) (connectors.OrderPage, error) {
			var ae *connectors.AuthError
			if err != nil && !errors.As(err, &ae) {
				return connectors.OrderPage{}, nil // a bad answer read as no orders
			}
			return page, err
		}
	},
	CaseBadOrder: func(p *planted) {
		p.poll = func(_ connectors.OrdersQuery, _ connectors.OrderPage, err error) (connectors.OrderPage, error) {
			return connectors.OrderPage{}, errors.Join(err, errors.New("an unreadable order on the page")) // a bad order fails its page
		}
	},
	CaseForeign: func(p *planted) {
		p.poll = editDocs(func(d map[string]any) { d["channel_uuid"] = "00000000-0000-4000-8000-000000000001" })
	},
	CaseShippedFirst: func(p *planted) {
		p.poll = editDocs(func(d map[string]any) { // maps no line state
			for _, line := range lines(d) {
				delete(line, "quantity_shipped")
				delete(line, "carrier_name")
				delete(line, "tracking_number")
			}
		})
	},
	CaseShippedAfter: func(p *planted) {
		first := map[string]any{}
		p.poll = editDocs(func(d map[string]any) { // reads line state only when it first sees an order
			ref, _ := d["display_ref"].(string)
			if items, ok := first[ref]; ok {
				d["items"] = items
			} else {
				first[ref] = d["items"]
			}
		})
	},
	CaseOneCancelled: func(p *planted) {
		p.poll = editDocs(func(d map[string]any) { // a line's cancellation told as the order's
			for _, line := range lines(d) {
				if n, _ := line["quantity_cancelled"].(float64); n > 0 {
					d["cancelled_at"] = d["ordered_at"]
				}
			}
		})
	},
}

// editDocs is a poll hook that changes every document of a page by edit.
func editDocs(edit func(doc map[string]any)) func(connectors.OrdersQuery, connectors.OrderPage, error) (connectors.OrderPage, error) {
	return func(_ connectors.OrdersQuery, page connectors.OrderPage, err error) (connectors.OrderPage, error) {
		for i, o := range page.Orders {
			var d map[string]any
			_ = json.Unmarshal(o.Document, &d)
			edit(d)
			page.Orders[i].Document, _ = json.Marshal(d)
		}
		return page, err
	}
}

// lines are the items of a document.
func lines(d map[string]any) []map[string]any {
	items, _ := d["items"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// runtimeGuarded are the cases a connector alone cannot break, since the runtime guards them:
// endless paging is the runtime's to bound (a connector cannot end it), and the runtime
// redacts credentials from every error it records, so no connector can leak one (a planted
// leak was caught before the runtime redacted). The suite's own cases check the runtime.
var runtimeGuarded = map[string]bool{CaseEndless: true, CaseNoCredential: true}

// TestPlanted: each case of the suite fails for a generic connector broken in what the
// case checks.
func TestPlanted(t *testing.T) {
	testenv.SkipShort(t)
	env := testenv.Get(t)
	acct := env.NewAccount(t, testenv.AccountOptions{}).ID
	for _, c := range cases {
		if runtimeGuarded[c.name] {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			brk, ok := breaks[c.name]
			if !ok {
				t.Fatalf("no planted connector breaks case %q", c.name)
			}
			p := &planted{Connector: &sandbox.Connector{}}
			brk(p)
			rec := &recorder{}
			var wg sync.WaitGroup
			cs := newCase(t, rec, GenericHarness(p), env, acct)
			wg.Go(func() { c.run(cs) })
			wg.Wait()
			if rec.skipped || !rec.failed {
				t.Errorf("case %q passed (skipped: %v) for a connector that breaks it; its log:\n%s", c.name, rec.skipped, rec.log)
			} else {
				t.Logf("case %q failed, as it must:\n%s", c.name, rec.log)
			}
		})
	}
}

// recorder is a T that records a case's failure instead of reporting it.
type recorder struct {
	mu              sync.Mutex
	failed, skipped bool
	log             string
}

// Helper implements T.
func (r *recorder) Helper() {}

// Logf implements T.
func (r *recorder) Logf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.log += fmt.Sprintf(format, args...) + "\n"
}

// Errorf implements T: the case failed.
func (r *recorder) Errorf(format string, args ...any) {
	r.Logf(format, args...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
}

// Fatalf implements T: the case failed and ends.
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// Skipf implements T: the case was skipped and ends.
func (r *recorder) Skipf(format string, args ...any) {
	r.Logf(format, args...)
	r.mu.Lock()
	r.skipped = true
	r.mu.Unlock()
	runtime.Goexit()
}
