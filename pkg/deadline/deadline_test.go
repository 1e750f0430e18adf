package deadline

import (
	"context"
	"testing"
	"time"
)

func TestReserve(t *testing.T) {
	t.Parallel()
	end := time.Now().Add(time.Hour)
	tests := []struct {
		name    string
		ctx     func() (context.Context, context.CancelFunc)
		want    time.Time
		wantSet bool
	}{
		{"no deadline", func() (context.Context, context.CancelFunc) { return context.Background(), func() {} }, time.Time{}, false},
		{"a deadline", func() (context.Context, context.CancelFunc) { return context.WithDeadline(context.Background(), end) }, end.Add(-2 * time.Second), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			parent, cancel := tt.ctx()
			defer cancel()
			ctx, done := Reserve(parent, 2*time.Second)
			defer done()
			got, ok := ctx.Deadline()
			if ok != tt.wantSet || !got.Equal(tt.want) {
				t.Errorf("deadline = %v, %v; want %v, %v", got, ok, tt.want, tt.wantSet)
			}
		})
	}
}

func TestDetached(t *testing.T) {
	t.Parallel()
	parent, cancel := context.WithCancel(context.Background())
	cancel()
	ctx, done := Detached(parent, time.Minute)
	defer done()
	if err := ctx.Err(); err != nil {
		t.Fatalf("detached context is done: %v", err)
	}
	if d, ok := ctx.Deadline(); !ok || time.Until(d) > time.Minute {
		t.Errorf("deadline = %v, %v; want within a minute", d, ok)
	}
}
