package gateway

import (
	"testing"

	"github.com/multisell/multisell/pkg/local/template"
)

// TestReceivers: a FIFO queue has as many receive loops as its event's MaximumConcurrency,
// at most fifoReceivers, else one; a standard queue at least standardReceivers; the
// pollers' Concurrency raises either.
func TestReceivers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		queue       string
		max         int
		concurrency int
		want        int
	}{
		{"fifo without a ceiling", "q.fifo", 0, 1, 1},
		{"fifo under the cap", "q.fifo", 10, 1, 10},
		{"fifo over the cap", "q.fifo", 50, 1, fifoReceivers},
		{"standard", "q", 0, 1, standardReceivers},
		{"concurrency asked", "q.fifo", 0, 20, 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := &Pollers{opts: PollerOptions{Concurrency: tt.concurrency}}
			s := &source{queue: QueueInfo{Name: tt.queue}, event: template.SQSEvent{MaxConcurrency: tt.max}}
			if got := p.receivers(s); got != tt.want {
				t.Errorf("receivers = %d, want %d", got, tt.want)
			}
		})
	}
}
