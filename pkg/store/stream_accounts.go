package store

import (
	"context"
	"sync"

	"github.com/aws/aws-lambda-go/events"
	"github.com/multisell/multisell/pkg/logctx"
)

// ByAccount runs work once per account named in changes, with that
// account's changes in stream order, at most parallel accounts at a time
// (an account's own work stays in order). It returns the sequence number of
// the first record of the earliest account whose work failed ("" when all
// succeeded): a stream consumer reports it as its batch item failure, so
// the batch is retried from there, which is right for work that a replayed
// record leaves unchanged. onError sees each account's failure (to log it).
func ByAccount(ctx context.Context, changes []Change, parallel int, work func(ctx context.Context, account string, changes []Change) error, onError func(account string, err error)) string {
	groups := map[string][]Change{}
	first := map[string]int{}
	var order []string
	for i, c := range changes {
		if _, ok := groups[c.Account]; !ok {
			first[c.Account] = i
			order = append(order, c.Account)
		}
		groups[c.Account] = append(groups[c.Account], c)
	}
	failed := -1
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, max(parallel, 1))
	)
	for _, account := range order {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			err := work(ctx, account, groups[account])
			if err == nil {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			onError(account, err)
			if failed < 0 || first[account] < failed {
				failed = first[account]
			}
		}()
	}
	wg.Wait()
	if failed < 0 {
		return ""
	}
	return changes[failed].Seq
}

// Earliest returns whichever of the sequence numbers a and b comes first
// in changes ("" counts as none).
func Earliest(changes []Change, a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	for _, c := range changes {
		if c.Seq == a || c.Seq == b {
			return c.Seq
		}
	}
	return a
}

// HandleStream is a stream function's handler around work: it converts the
// records, runs work on them and reports the record work returns ("" for
// none) as the batch item failure, so the batch is retried from there. A
// batch it cannot even convert fails whole (the mapping bisects it down to
// the bad record, which ends in the failure destination). It logs one line
// per batch, named what, with its DynamoDB calls and capacity.
func HandleStream(ctx context.Context, ev events.DynamoDBEvent, what string, work func(context.Context, []Change) string) (events.DynamoDBEventResponse, error) {
	ctx, meter := EnsureMeter(ctx)
	changes, err := Changes(ev.Records)
	if err != nil {
		return events.DynamoDBEventResponse{}, err
	}
	failed := work(ctx, changes)
	logctx.From(ctx).Info(what, "records", len(changes), "failed_from", failed,
		"ddb_calls", meter.Calls(), "ddb_rcu", meter.ReadUnits(), "ddb_wcu", meter.WriteUnits())
	var resp events.DynamoDBEventResponse
	if failed != "" {
		resp.BatchItemFailures = []events.DynamoDBBatchItemFailure{{ItemIdentifier: failed}}
	}
	return resp, nil
}
