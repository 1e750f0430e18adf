// Package logctx carries a request's logger in its context, so code at any
// depth logs with the request id, the function and the account that the edge
// (pkg/api for HTTP, pkg/queue for messages) attached, and never has to
// thread a logger through its arguments.
package logctx

import (
	"context"
	"log/slog"
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
