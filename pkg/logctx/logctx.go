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
	From(ctx).Warn(name, append(emf(name, "Count", 1), attrs...)...)
}

// Metric logs value of the metric name in unit (a CloudWatch unit: Count,
// Milliseconds, ...) as an embedded metric line at Info level, with attrs:
// what an operator watches that is not a failure (docs/operations.md).
func Metric(ctx context.Context, name, unit string, value float64, attrs ...any) {
	From(ctx).Info(name, append(emf(name, unit, value), attrs...)...)
}

// emf is the attributes that make a log line a CloudWatch embedded metric
// value of name in the namespace multisell, with no dimensions.
func emf(name, unit string, value float64) []any {
	return []any{
		slog.Group("_aws", "Timestamp", time.Now().UnixMilli(), "CloudWatchMetrics", []map[string]any{{
			"Namespace": "multisell", "Dimensions": [][]string{{}}, "Metrics": []map[string]string{{"Name": name, "Unit": unit}},
		}}),
		slog.Float64(name, value),
	}
}
