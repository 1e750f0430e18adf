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
