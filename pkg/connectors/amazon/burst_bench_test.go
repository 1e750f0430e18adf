package amazon_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/amazon"
)

// The burst BenchmarkAmazonBurst imports (docs/scale.md, acceptance 2), and the schedule it
// polls on: connector-poll-schedule's rate and connector-poll's timeout (template.yaml).
const (
	burstOrders  = 1000
	burstSpan    = 5 * time.Minute
	pollTick     = 2 * time.Minute
	pollTimeout  = 120 * time.Second
	burstPageLen = 100 // getOrders' MaxResultsPerPage (DefaultPageSize)
)

// pollMargins is how long before its deadline a poll stops reading pages and order items
// (the runtime's and the connector's margins): real time, which the speed-up leaves as is.
const pollMargins = 10 * time.Second

// burstSpeedup is how many times faster than the published limits the benchmark runs
// (AMAZON_BURST_SPEEDUP, else 20): the sandbox's and the connector's rates, the runtime's
// MaxWait, the schedule and the poll's time are all scaled by it.
func burstSpeedup() float64 {
	if k, err := strconv.ParseFloat(os.Getenv("AMAZON_BURST_SPEEDUP"), 64); err == nil && k >= 1 {
		return k
	}
	return 20
}

// burstBound is the bound docs/connectors.md states for n orders at the published limits:
// getOrderItems' calls beyond its burst at its rate, plus one schedule tick.
func burstBound(n int) time.Duration {
	l := amazon.Published[amazon.OpGetOrderItems]
	return time.Duration(float64(max(n-l.Burst, 0))/l.Rate*float64(time.Second)) + pollTick
}

// callsTime is the time calls of op take at op's published limit: those beyond its burst at
// its rate.
func callsTime(op string, calls int) time.Duration {
	l := amazon.Published[op]
	return time.Duration(float64(max(calls-l.Burst, 0)) / l.Rate * float64(time.Second))
}

// BenchmarkAmazonBurst places burstOrders orders changed within burstSpan in the sandbox and
// polls the channel through the runtime as the schedule does (a poll each pollTick, each with
// pollTimeout), with the sandbox's and the connector's rates of getOrders and getOrderItems
// (their bursts as published), the runtime's MaxWait, the tick and the poll's time sped up
// burstSpeedup times, until every order was sent to the inbox. It reports the orders imported
// (imported: distinct orders sent), those sent again before the last was first sent (resent:
// 0 when no poll reads an order's items twice), the polls, the calls of getOrders and
// getOrderItems, the time the import took at the published limits (minutes: the run's time
// times the speed-up, which a slow machine only lengthens), the time its calls need at the
// published limits alone (calls-min: each operation's calls beyond its burst at its rate, the
// longer, plus one tick), the bound docs/connectors.md states (bound-min), and the pages the
// next poll read, the channel quiet (quiet-pages: at most 1). It runs once however many
// iterations it is given (docs/scale.md).
func BenchmarkAmazonBurst(b *testing.B) {
	k := burstSpeedup()
	scaled := map[string]connectors.Limit{}
	for _, op := range []string{amazon.OpGetOrders, amazon.OpGetOrderItems} {
		l := amazon.Published[op]
		scaled[op] = connectors.Limit{Rate: l.Rate * k, Burst: l.Burst}
	}
	f := newFixture(b, &amazon.Connector{}, scaled)
	start := time.Now()
	for i := range burstOrders {
		at := start.Add(-burstSpan + burstSpan*time.Duration(i)/burstOrders)
		f.order(fmt.Sprintf("114-%07d-%07d", i/burstPageLen, i), "Unshipped", at, "SKU-A")
	}
	rt := f.Runtime(time.Duration(float64(connectors.DefaultMaxWait) / k))
	rt.Overlap = connectors.DefaultOverlap
	tick := time.Duration(float64(pollTick) / k)
	work := time.Duration(float64(pollTimeout-pollMargins) / k)
	poll := func() connectors.PollResult {
		ctx, cancel := context.WithTimeout(context.Background(), pollMargins+work)
		defer cancel()
		res, err := rt.Poll(ctx, f.Ch)
		if err != nil {
			b.Logf("poll: %v (its position is kept)", err)
		}
		return res
	}
	sent := map[string]int{}
	resent, polls := 0, 0
	begin := time.Now()
	var last time.Time
	limit := begin.Add(3 * time.Duration(float64(burstBound(burstOrders))/k))
	for next := begin; len(sent) < burstOrders; next = next.Add(tick) {
		if time.Now().After(limit) {
			b.Fatalf("%d of %d orders imported after %d polls, three times the bound", len(sent), burstOrders, polls)
		}
		if d := time.Until(next); d > 0 {
			time.Sleep(d)
		} else if d < -tick {
			continue // the poll overran this tick, as a poll holding its lease makes the next Busy
		}
		poll()
		polls++
		for ref, docs := range f.Inbox.TakeOrders() {
			if sent[ref] > 0 {
				resent += len(docs)
			} else {
				resent += len(docs) - 1
				last = time.Now()
			}
			sent[ref] += len(docs)
		}
	}
	items, pages := f.sb.Calls(amazon.OpGetOrderItems), f.sb.Calls(amazon.OpGetOrders)
	time.Sleep(time.Until(last.Add(tick)))
	quiet := poll()
	took := time.Duration(float64(last.Sub(begin)) * k)
	calls := max(callsTime(amazon.OpGetOrderItems, items), callsTime(amazon.OpGetOrders, pages)) + pollTick
	b.ReportMetric(float64(len(sent)), "imported")
	b.ReportMetric(float64(resent), "resent")
	b.ReportMetric(float64(polls), "polls")
	b.ReportMetric(float64(pages), "getOrders")
	b.ReportMetric(float64(items), "getOrderItems")
	b.ReportMetric(took.Minutes(), "minutes")
	b.ReportMetric(calls.Minutes(), "calls-min")
	b.ReportMetric(burstBound(burstOrders).Minutes(), "bound-min")
	b.ReportMetric(float64(quiet.Pages), "quiet-pages")
}
