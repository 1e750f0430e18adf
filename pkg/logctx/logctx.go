// Package logctx carries a request's logger in its context, so code at any
// depth logs with the request id, the function and the account that the edge
// (pkg/api for HTTP, pkg/queue for messages) attached, and never has to
// thread a logger through its arguments.
package logctx

import (
	"context"
	"log/slog"
	"time"
)

type key struct{}

// With returns ctx carrying log.
func With(ctx context.Context, log *slog.Logger) context.Context {
	return context.WithValue(ctx, key{}, log)
}

// From returns the logger ctx carries, or slog's default.
func From(ctx context.Context) *slog.Logger {
	if l, ok := ctx.Value(key{}).(*slog.Logger); ok {
		return l
	}
	return slog.Default()
}

// Count logs one occurrence of the event name (with attrs) as a CloudWatch
// embedded metric: the line carries the metric name with the value 1 under
// the namespace multisell, so CloudWatch counts it with no other setup, and
// the line is still a readable warning.
func Count(ctx context.Context, name string, attrs ...any) {
	emf := slog.Group("_aws", "Timestamp", time.Now().UnixMilli(), "CloudWatchMetrics", []map[string]any{{
		"Namespace": "multisell", "Dimensions": [][]string{{}}, "Metrics": []map[string]string{{"Name": name}},
	}})
	From(ctx).Warn(name, append([]any{emf, slog.Int(name, 1)}, attrs...)...)
}
