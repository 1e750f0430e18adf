package testenv

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/app"
)

// functionHooks are the faults injected into, and the observers of, the
// stream and queue functions other than channel-sync (which has its own,
// see channels.go), by function name.
type functionHooks struct {
	mu        sync.Mutex
	served    map[string]app.SQSHandler // function -> the handler serving it instead
	midBatch  map[string]int            // function -> invocations left to fail mid-batch
	observers map[string]map[int]func(Invocation)
	nextID    int
}

// Invocation is one run of a stream or queue function, as
// ObserveFunction reports it: how many records it got, when it ran, and
// whether it was made to fail.
type Invocation struct {
	Records    int
	Start, End time.Time
	Failed     bool
}

// errMidBatch is the failure FailMidBatch injects.
var errMidBatch = errors.New("testenv: injected failure in the middle of a batch")

// FailMidBatch makes the next n invocations of the stream or queue
// function name (a folder under functions/) handle the first half of their
// batch and then fail as a whole: the event source mapping gives the whole
// batch again, so what the first half did is done twice. The faults are
// the whole stack's: a test running alongside may see some of them, which
// its work must take as any retry.
func (e *Env) FailMidBatch(t testing.TB, name string, n int) {
	e.fns.mu.Lock()
	defer e.fns.mu.Unlock()
	if e.fns.midBatch == nil {
		e.fns.midBatch = map[string]int{}
	}
	e.fns.midBatch[name] += n
	t.Cleanup(func() {
		e.fns.mu.Lock()
		defer e.fns.mu.Unlock()
		delete(e.fns.midBatch, name)
	})
}

// ObserveFunction calls observe after every invocation of the stream or
// queue function name until the test or benchmark ends.
func (e *Env) ObserveFunction(tb testing.TB, name string, observe func(Invocation)) {
	e.fns.mu.Lock()
	defer e.fns.mu.Unlock()
	if e.fns.observers == nil {
		e.fns.observers = map[string]map[int]func(Invocation){}
	}
	if e.fns.observers[name] == nil {
		e.fns.observers[name] = map[int]func(Invocation){}
	}
	id := e.fns.nextID
	e.fns.nextID++
	e.fns.observers[name][id] = observe
	tb.Cleanup(func() {
		e.fns.mu.Lock()
		defer e.fns.mu.Unlock()
		delete(e.fns.observers[name], id)
	})
}

// ServeQueueFunction makes the stack's event sources invoke handler instead of the queue
// function name's own, for the rest of the test binary (the stack is the binary's): for the
// tests of a function whose service needs a dependency pkg/app does not wire yet, which the
// test stands in for. The handler of the function itself (Env.Handler) is unchanged.
func (e *Env) ServeQueueFunction(name string, handler app.SQSHandler) {
	e.fns.mu.Lock()
	defer e.fns.mu.Unlock()
	if e.fns.served == nil {
		e.fns.served = map[string]app.SQSHandler{}
	}
	e.fns.served[name] = handler
}

// serving returns the handler ServeQueueFunction set for name, else own.
func (h *functionHooks) serving(name string, own app.SQSHandler) app.SQSHandler {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.served[name]; s != nil {
		return s
	}
	return own
}

// failNow reports whether this invocation of name is to fail mid-batch
// (and counts it).
func (h *functionHooks) failNow(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.midBatch[name] <= 0 {
		return false
	}
	h.midBatch[name]--
	return true
}

// observe tells name's observers of an invocation.
func (h *functionHooks) observe(name string, inv Invocation) {
	h.mu.Lock()
	obs := make([]func(Invocation), 0, len(h.observers[name]))
	for _, o := range h.observers[name] {
		obs = append(obs, o)
	}
	h.mu.Unlock()
	for _, o := range obs {
		o(inv)
	}
}

// wrap returns the handler of function name with the hooks around it.
func (h *functionHooks) wrap(name string, handler any) any {
	switch run := handler.(type) {
	case app.StreamHandler:
		return app.StreamHandler(hooked(h, name, run, func(ev events.DynamoDBEvent) (int, events.DynamoDBEvent) {
			return len(ev.Records), events.DynamoDBEvent{Records: ev.Records[:len(ev.Records)/2]}
		}))
	case app.SQSHandler:
		served := func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
			return h.serving(name, run)(ctx, ev)
		}
		return app.SQSHandler(hooked(h, name, served, func(ev events.SQSEvent) (int, events.SQSEvent) {
			return len(ev.Records), events.SQSEvent{Records: ev.Records[:len(ev.Records)/2]}
		}))
	}
	return handler
}

// hooked is run with the hooks of function name around it; split gives an
// event's number of records and its first half.
func hooked[E, R any](h *functionHooks, name string, run func(context.Context, E) (R, error), split func(E) (int, E)) func(context.Context, E) (R, error) {
	return func(ctx context.Context, ev E) (R, error) {
		start := time.Now()
		n, half := split(ev)
		if h.failNow(name) {
			_, _ = run(ctx, half)
			h.observe(name, Invocation{Records: n, Start: start, End: time.Now(), Failed: true})
			var none R
			return none, errMidBatch
		}
		resp, err := run(ctx, ev)
		h.observe(name, Invocation{Records: n, Start: start, End: time.Now()})
		return resp, err
	}
}
