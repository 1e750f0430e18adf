// Package deadline keeps a Lambda invocation's last moments for its answer:
// work on the dependencies stops a margin before the function's timeout, so
// a hung call ends as an error the function still reports (a 503, a message
// made visible again soon) instead of a timeout (a 502, a message held for
// the queue's whole visibility timeout).
package deadline

import (
	"context"
	"time"
)

// Reserve returns ctx with a deadline margin before its own, when it has one
// (a Lambda invocation always does); otherwise ctx unchanged.
func Reserve(ctx context.Context, margin time.Duration) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok {
		return context.WithDeadline(ctx, d.Add(-margin))
	}
	return ctx, func() {}
}

// Detached returns a context for a short last step after ctx may be spent
// (giving work back, reporting it): ctx's values, none of its cancellation,
// and a timeout of its own.
func Detached(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), timeout)
}
