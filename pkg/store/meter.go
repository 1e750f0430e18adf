package store

import (
	"context"
	"sync"
)

// Meter counts the DynamoDB calls of one request and the capacity they
// consumed: the request's cost. It is safe for concurrent use.
type Meter struct {
	mu    sync.Mutex
	calls map[string]int
	read  float64
	write float64
}

type meterKey struct{}

// WithMeter returns ctx carrying a new Meter, which it also returns.
func WithMeter(ctx context.Context) (context.Context, *Meter) {
	m := &Meter{calls: map[string]int{}}
	return context.WithValue(ctx, meterKey{}, m), m
}

// MeterFrom returns the Meter of ctx, or nil.
func MeterFrom(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}

func (m *Meter) record(op string, read, write float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls[op]++
	m.read += read
	m.write += write
}

// Calls is the number of calls made.
func (m *Meter) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.calls {
		n += c
	}
	return n
}

// Ops returns the number of calls per operation name (GetItem, Query, ...).
func (m *Meter) Ops() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]int, len(m.calls))
	for k, v := range m.calls {
		out[k] = v
	}
	return out
}

// ReadUnits is the read capacity consumed.
func (m *Meter) ReadUnits() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.read
}

// WriteUnits is the write capacity consumed.
func (m *Meter) WriteUnits() float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.write
}

// EnsureMeter returns ctx and its Meter, adding a new one if ctx has none:
// a caller that measures (a benchmark) sees the calls of the request it made.
func EnsureMeter(ctx context.Context) (context.Context, *Meter) {
	if m := MeterFrom(ctx); m != nil {
		return ctx, m
	}
	return WithMeter(ctx)
}
