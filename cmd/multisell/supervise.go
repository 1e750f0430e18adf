package main

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/gateway"
)

// Supervision: serve restarts an emulator that exits, on the same port (Dynoxide on the same
// database), and then runs afterEmulatorsStart, so `make run` stays up; it gives up, and
// serve stops, when one keeps exiting soon after its start.
const (
	// quickExit is how soon after its start an emulator that exits has failed quickly; one
	// that ran longer starts the count of quick failures over.
	quickExit = 30 * time.Second
	// maxQuickFailures is how many quick failures in a row (an exit, a failed restart, or a
	// restart afterEmulatorsStart could not complete) make serve give up.
	maxQuickFailures = 5
	// firstRestartDelay is the wait before a restart after the first failure; it doubles
	// with each quick failure in a row (0.25, 0.5, 1, 2 s).
	firstRestartDelay = 250 * time.Millisecond
)

// restartDelay is the wait before restarting an emulator after its n-th quick failure in a
// row (n >= 1), and false when serve gives up instead.
func restartDelay(n int) (time.Duration, bool) {
	if n >= maxQuickFailures {
		return 0, false
	}
	return firstRestartDelay << (n - 1), true
}

// afterEmulatorsStart brings back what the emulators lost, after every start of them:
// serve's first (before the API serves), and each restart of one that exited. fauxqs keeps
// its queues and their messages in memory, so the queues are provisioned again, with the
// same names and so the same URLs (existing queues are kept), and every inventory
// adjustment still queued is sent again, in the order accepted (a copy of a message that
// survived changes nothing twice), and so is every pending webhook delivery; Dynoxide keeps
// its data in its file.
func afterEmulatorsStart(ctx context.Context, deps *app.Deps, stack *gateway.Stack) error {
	if err := stack.ProvisionQueues(ctx); err != nil {
		return fmt.Errorf("after the emulators started: %w", err)
	}
	n, err := deps.Inventory().Resend(ctx, time.Now())
	if err != nil {
		return fmt.Errorf("after the emulators started: send queued adjustments again: %w", err)
	}
	if n > 0 {
		slog.Info("queued adjustments sent again", "count", n)
	}
	everyPending := time.Now().AddDate(1, 0, 0) // retries still waiting included: their messages are gone too
	if n, err = deps.Webhooks().Resend(ctx, everyPending); err != nil {
		return fmt.Errorf("after the emulators started: send pending webhook deliveries again: %w", err)
	}
	if n > 0 {
		slog.Info("pending webhook deliveries sent again", "count", n)
	}
	return nil
}

// emulatorSet is serve's emulators: Dynoxide, fauxqs and local-kms, the processes running now.
type emulatorSet struct {
	mu    sync.Mutex
	procs []*emulators.Process
	// afterMu runs one restart's after at a time.
	afterMu sync.Mutex
}

// startEmulators starts Dynoxide (data in dbPath), fauxqs and local-kms (keys in kmsDir)
// side by side.
func startEmulators(ctx context.Context, dbPath, kmsDir string) (*emulatorSet, error) {
	set, err := emulators.Start(ctx, emulators.Options{
		Dynoxide: emulators.DynoxideOptions{DBPath: dbPath}, KMS: emulators.KMSOptions{DataDir: kmsDir},
	})
	if err != nil {
		return nil, err
	}
	return &emulatorSet{procs: set.All()}, nil
}

// dynamoDB, sqs and kms are the emulators running now.
func (e *emulatorSet) dynamoDB() *emulators.Process { return e.get(0) }
func (e *emulatorSet) sqs() *emulators.Process      { return e.get(1) }
func (e *emulatorSet) kms() *emulators.Process      { return e.get(2) }

func (e *emulatorSet) get(i int) *emulators.Process {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.procs[i]
}

// stop stops the emulators running now.
func (e *emulatorSet) stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, p := range e.procs {
		if p != nil {
			_ = p.Stop()
		}
	}
}

// supervise keeps the emulators running until ctx ends (then it returns nil): one that
// exits is logged and restarted, then after runs (afterEmulatorsStart and what serve
// updates). It returns an error, and stops supervising, when an emulator fails
// maxQuickFailures times in a row.
func (e *emulatorSet) supervise(ctx context.Context, after func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make(chan error, len(e.procs))
	for i := range e.procs {
		go func() { errs <- e.keep(ctx, i, after) }()
	}
	var first error
	for range e.procs {
		if err := <-errs; err != nil && first == nil {
			first = err
			cancel()
		}
	}
	return first
}

// keep restarts emulator i whenever it exits, until ctx ends or it gives up.
func (e *emulatorSet) keep(ctx context.Context, i int, after func(context.Context) error) error {
	p := e.get(i)
	started, failures := time.Now(), 0
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.Done():
		}
		if ctx.Err() != nil {
			return nil
		}
		ran := time.Since(started)
		if ran >= quickExit {
			failures = 0
		}
		slog.Error("emulator exited; restarting it on the same port", "emulator", p.Name, "pid", p.Pid(),
			"ran", ran.Round(time.Millisecond).String(), "endpoint", p.Endpoint, "output", lastOutput(p))
		for {
			failures++
			delay, ok := restartDelay(failures)
			if !ok {
				return fmt.Errorf("%s failed %d times in a row within %v of its start; the local stack stops. Its last output: %s",
					p.Name, failures, quickExit, lastOutput(p))
			}
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(delay):
			}
			next, err := p.Restart(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return nil
				}
				slog.Error("emulator restart failed", "emulator", p.Name, "failures", failures, "error", err.Error())
				continue
			}
			e.mu.Lock()
			e.procs[i] = next
			e.mu.Unlock()
			p, started = next, time.Now()
			if err := e.after(ctx, after); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				// Not usable as it is: start it over.
				slog.Error("emulator restarted, but the stack could not be set up on it; restarting it again",
					"emulator", p.Name, "pid", p.Pid(), "error", err.Error())
				_ = syscall.Kill(p.Pid(), syscall.SIGKILL)
				<-p.Done()
				continue
			}
			slog.Info("emulator restarted", "emulator", p.Name, "pid", p.Pid(), "endpoint", p.Endpoint)
			break
		}
	}
}

// after runs f, one restart at a time.
func (e *emulatorSet) after(ctx context.Context, f func(context.Context) error) error {
	e.afterMu.Lock()
	defer e.afterMu.Unlock()
	return f(ctx)
}

// lastOutput is the end of what an emulator printed, for a log line.
func lastOutput(p *emulators.Process) string {
	out := strings.TrimSpace(p.Output())
	if len(out) > 2000 {
		out = "..." + out[len(out)-2000:]
	}
	return out
}
