package logctx

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestWithFrom(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil)).With("request_id", "r-1")
	From(With(context.Background(), log)).Info("hello")
	if got, want := buf.String(), `"request_id":"r-1"`; !strings.Contains(got, want) {
		t.Errorf("logged %s, want it to contain %s", got, want)
	}
	if got := From(context.Background()); got != slog.Default() {
		t.Errorf("From(empty) = %v, want slog.Default()", got)
	}
}
