package app

import (
	"context"
	"log/slog"
	"os"
)

// MustNew builds Deps from cfg or exits: for a function's main.
func MustNew(cfg Config) *Deps {
	SetupLogging()
	d, err := New(context.Background(), cfg)
	if err != nil {
		slog.Error("start", "error", err)
		os.Exit(1)
	}
	return d
}

// MustHandler returns the handler of the function name or exits.
func (d *Deps) MustHandler(name string) any {
	h, err := d.Handler(name)
	if err != nil {
		slog.Error("start", "function", name, "error", err)
		os.Exit(1)
	}
	return h
}
