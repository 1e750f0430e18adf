package inventory_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/inventory"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
)

// loadAccounts, loadWorkers and loadSKUs shape the adjustment load: accounts each with
// workers enqueueing PUTs of 1-3 records among skus at once, as clients at raised limits.
const (
	loadAccounts = 4
	loadWorkers  = 4
	loadSKUs     = 200
)

// loadDuration is how long the load runs: ADJUST_LOAD (a Go duration; make bench sets
// 60s), else 5 s, so the benchmark stays short where nobody asked for the full minute.
func loadDuration() time.Duration {
	if d, err := time.ParseDuration(os.Getenv("ADJUST_LOAD")); err == nil && d > 0 {
		return d
	}
	return 5 * time.Second
}

// throughput is one run of the load: accepted and applied adjustments a second, and how
// long after the load's end the last was applied.
type throughput struct {
	accepted, applied, appliedInLoad float64
	drain                            time.Duration
	// backlogMax is the most adjustments the queue held (waiting or being applied) at a
	// sample, a second apart, during the load; backlogEnd what it held at the load's end. A
	// consumer that keeps up holds a backlog that does not grow with the load's length.
	backlogMax, backlogEnd int
	// calls are the DynamoDB calls of the consumer per adjustment by operation (consumeCost).
	calls map[string]float64
	err   error
}

var (
	throughputOnce sync.Once
	throughputRun  throughput
)

// BenchmarkAdjustThroughput loads the adjustments queue from 4 accounts for loadDuration on
// the local stack (its pollers running inventory-adjust-consumer as Lambda would) and reports
// accepted/s, applied/s (every adjustment accepted, over the time from the load's start to
// the last applied), applied_in_load/s (those applied by the load's end, over the load's
// time: what the consumer kept up with while the load ran), drain_s, the time from the load's
// end to the last applied, and the queue's backlog (backlog_max over the load, sampled each
// second, and backlog_end); then the consumer's DynamoDB calls per adjustment of a batch
// shaped as the load's (ddb-calls/adj, and <operation>/adj). The load runs once however many
// iterations the benchmark is given (docs/scale.md).
func BenchmarkAdjustThroughput(b *testing.B) {
	throughputOnce.Do(func() { throughputRun = adjustLoad(b) })
	if throughputRun.err != nil {
		b.Fatal(throughputRun.err)
	}
	b.ReportMetric(throughputRun.accepted, "accepted/s")
	b.ReportMetric(throughputRun.applied, "applied/s")
	b.ReportMetric(throughputRun.appliedInLoad, "applied_in_load/s")
	b.ReportMetric(throughputRun.drain.Seconds(), "drain_s")
	b.ReportMetric(float64(throughputRun.backlogMax), "backlog_max")
	b.ReportMetric(float64(throughputRun.backlogEnd), "backlog_end")
	total := 0.0
	for op, n := range throughputRun.calls {
		b.ReportMetric(n, op+"/adj")
		total += n
	}
	b.ReportMetric(total, "ddb-calls/adj")
}

// adjustLoad runs the load and waits for its last adjustment of each account to be applied
// (an account's adjustments apply in order).
func adjustLoad(b *testing.B) throughput {
	env := newFixture(b).env
	svc := env.Deps.Inventory()
	type account struct {
		id, wh string
		// last is the request id each worker had accepted last: one of them is the
		// account's last in the queue's order.
		last [loadWorkers]string
	}
	accts := make([]*account, loadAccounts)
	for i := range accts {
		f := newFixture(b)
		accts[i] = &account{id: f.acct.ID, wh: f.warehouse("bench")}
	}
	load := loadDuration()
	ctx, cancel := context.WithTimeout(context.Background(), load+5*time.Minute)
	defer cancel()
	start := time.Now()
	end := start.Add(load)
	var (
		accepted   atomic.Int64
		wg         sync.WaitGroup
		failed     atomic.Value
		backlogMax int
	)
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for time.Now().Before(end) {
			time.Sleep(time.Second)
			if n, err := backlog(ctx, env.Deps.SQS, env.Deps.Config.AdjustmentsQueueURL); err == nil {
				backlogMax = max(backlogMax, n)
			}
		}
	}()
	for _, a := range accts {
		for w := range loadWorkers {
			wg.Go(func() {
				for n := 0; time.Now().Before(end); n++ {
					items := make([]inventory.Item, 1+n%3)
					for j := range items {
						items[j] = onHand(fmt.Sprintf("B%03d", (w*7919+n*31+j*97)%loadSKUs), a.wh, int64(n))
					}
					id, err := svc.Enqueue(ctx, a.id, inventory.MethodPut, items)
					if err != nil {
						failed.Store(err)
						return
					}
					a.last[w] = id
					accepted.Add(1)
				}
			})
		}
	}
	wg.Wait()
	loadEnd := time.Now()
	if err, _ := failed.Load().(error); err != nil {
		return throughput{err: fmt.Errorf("enqueue: %w", err)}
	}
	backlogEnd, err := backlog(ctx, env.Deps.SQS, env.Deps.Config.AdjustmentsQueueURL)
	if err != nil {
		return throughput{err: err}
	}
	<-sampled
	for _, a := range accts {
		for _, id := range a.last {
			if err := waitApplied(ctx, svc, a.id, id); err != nil {
				return throughput{err: err}
			}
		}
	}
	applied := time.Now()
	n := float64(accepted.Load())
	calls, err := consumeCost(ctx, svc, accts[0].id, accts[0].wh)
	return throughput{accepted: n / loadEnd.Sub(start).Seconds(), applied: n / applied.Sub(start).Seconds(),
		appliedInLoad: (n - float64(backlogEnd)) / loadEnd.Sub(start).Seconds(), drain: applied.Sub(loadEnd), backlogMax: backlogMax, backlogEnd: backlogEnd, calls: calls, err: err}
}

// backlog is how many messages the queue holds, waiting or received and not yet deleted
// (the approximate counts SQS keeps).
func backlog(ctx context.Context, c *sqs.Client, url string) (int, error) {
	out, err := c.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: &url, AttributeNames: []sqstypes.QueueAttributeName{
		sqstypes.QueueAttributeNameApproximateNumberOfMessages, sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible}})
	if err != nil {
		return 0, fmt.Errorf("the adjustments queue's backlog: %w", err)
	}
	n := 0
	for _, v := range out.Attributes {
		k, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("the adjustments queue's backlog %q: %w", v, err)
		}
		n += k
	}
	return n, nil
}

// costBatch is the number of messages of the batch consumeCost measures: a full batch of
// the adjustments queue's event (template.yaml, BatchSize).
const costBatch = 10

// consumeCost is the consumer's DynamoDB calls per adjustment, by operation, of a batch of
// costBatch PUTs of 1-3 records each, on records that exist (as the load's mostly are:
// the batch is applied once before it is measured), each in a message group of its own.
func consumeCost(ctx context.Context, svc inventory.Service, account, wh string) (map[string]float64, error) {
	h := inventory.Handlers{Service: svc}
	var meter *store.Meter
	for range 2 {
		var ev events.SQSEvent
		for i := range costBatch {
			items := make([]inventory.Item, 1+i%3)
			for j := range items {
				items[j] = onHand(fmt.Sprintf("B%03d", (i*37+j*97)%loadSKUs), wh, int64(i))
			}
			body, err := queue.Encode(inventory.Adjustment{RequestID: inventory.NewRequestID(account), Account: account,
				Method: inventory.MethodPut, Items: items})
			if err != nil {
				return nil, err
			}
			ev.Records = append(ev.Records, events.SQSMessage{MessageId: strconv.Itoa(i), Body: body,
				Attributes: map[string]string{"MessageGroupId": "cost-" + strconv.Itoa(i)}})
		}
		var mctx context.Context
		mctx, meter = store.WithMeter(ctx)
		resp, err := h.Consume(mctx, ev)
		if err == nil && len(resp.BatchItemFailures) > 0 {
			err = fmt.Errorf("%d of %d messages failed", len(resp.BatchItemFailures), costBatch)
		}
		if err != nil {
			return nil, fmt.Errorf("consume a batch: %w", err)
		}
	}
	out := map[string]float64{}
	for op, n := range meter.Ops() {
		out[op] = float64(n) / costBatch
	}
	return out, nil
}

// waitApplied waits until the request id of account is no longer queued.
func waitApplied(ctx context.Context, svc inventory.Service, account, id string) error {
	for {
		st, err := svc.AdjustmentStatus(ctx, account, id)
		if err != nil {
			return fmt.Errorf("status of %s: %w", id, err)
		}
		if st.Status != inventory.StatusQueued {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
}
