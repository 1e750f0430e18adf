package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/aws/aws-lambda-go/lambdacontext"
	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/local/template"
)

// Lookup returns the handler registered for a function folder name, as pkg/local/functions
// looks it up: an HTTP, authorizer or SQS handler function.
type Lookup func(name string) (any, error)

// errTimeout is returned when a handler runs past its function's timeout.
var errTimeout = errors.New("task timed out")

// roundTrip passes v through JSON into out, as the Lambda runtime does with events and
// responses, so nothing that only exists in memory reaches the other side.
func roundTrip(v, out any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("marshal: %w", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("unmarshal: %w", err)
	}
	return nil
}

// invoke runs a handler like the Lambda runtime: with a deadline of the function's
// timeout, a Lambda context, the event passed through JSON, and a panic turned into an
// error. The function keeps running in the background if it ignores its deadline.
func invoke[In, Out any](ctx context.Context, fn *template.Function, region, account string, h func(context.Context, In) (Out, error), event In) (Out, error) {
	return invokeAs(ctx, uuid.NewString(), fn, region, account, h, event)
}

// functionARN is the ARN a function's handler sees as its invoked function ARN.
func functionARN(region, account string, fn *template.Function) string {
	return fmt.Sprintf("arn:aws:lambda:%s:%s:function:%s", region, account, fn.LogicalID)
}

// invokeAs is invoke with the invocation's request id given.
func invokeAs[In, Out any](ctx context.Context, requestID string, fn *template.Function, region, account string, h func(context.Context, In) (Out, error), event In) (Out, error) {
	var (
		zero Out
		in   In
	)
	if err := roundTrip(event, &in); err != nil {
		return zero, fmt.Errorf("event: %w", err)
	}
	timeout := fn.Timeout
	if timeout <= 0 {
		timeout = 3 * time.Second
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	ctx = lambdacontext.NewContext(ctx, &lambdacontext.LambdaContext{
		AwsRequestID:       requestID,
		InvokedFunctionArn: functionARN(region, account, fn),
	})
	type result struct {
		out Out
		err error
	}
	done := make(chan result, 1)
	go func() {
		var res result
		defer func() {
			if p := recover(); p != nil {
				res = result{err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
			}
			done <- res
		}()
		res.out, res.err = h(ctx, in)
	}()
	select {
	case res := <-done:
		if res.err != nil {
			return zero, res.err
		}
		var out Out
		if err := roundTrip(res.out, &out); err != nil {
			return zero, fmt.Errorf("response: %w", err)
		}
		return out, nil
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return zero, fmt.Errorf("%w after %v", errTimeout, timeout)
		}
		return zero, ctx.Err()
	}
}
