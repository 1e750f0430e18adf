package testenv

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/functions"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/local/template"
)

// Env is the local stack shared by a test binary's tests.
type Env struct {
	// Root is the repository root.
	Root     string
	Template *template.Template
	Stack    *gateway.Stack
	// Config is the application configuration of the stack (what the functions get).
	Config  app.Config
	Deps    *app.Deps
	Gateway *gateway.Gateway
	Server  *httptest.Server
	// URL is the API base URL, ending in /v1.
	URL     string
	Pollers *gateway.Pollers

	sync   channelSync
	fns    functionHooks
	procs  []*emulators.Process
	cancel context.CancelFunc
}

// Handler returns the handler of the function name over the stack's
// clients: what its Lambda runs (pkg/local/functions).
func (e *Env) Handler(name string) (any, error) { return functions.Lookup(e.Deps)(name) }

var (
	mu       sync.Mutex
	shared   *Env
	startErr error
	closed   bool
	cleanups []func()
)

// Main runs the tests and then stops whatever this package started. Call it from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	Shutdown()
	os.Exit(code)
}

// Shutdown stops the shared stack and DynamoDB Local, if started; the harness cannot be
// used afterwards. Main calls it.
func Shutdown() {
	mu.Lock()
	defer mu.Unlock()
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanups = nil
	shared, closed = nil, true
}

// Get returns the shared local stack, starting it on first use. With
// -short (make unit) it skips the test instead: the fast loop starts no
// emulator.
func Get(t testing.TB) *Env {
	t.Helper()
	SkipShort(t)
	mu.Lock()
	defer mu.Unlock()
	if closed {
		t.Fatal("testenv: Get after Shutdown")
	}
	if shared == nil && startErr == nil {
		shared, startErr = start()
		if startErr == nil {
			cleanups = append(cleanups, shared.close)
		}
	}
	if startErr != nil {
		t.Fatalf("testenv: %v", startErr)
	}
	return shared
}

// SkipShort skips the test when it runs with -short (make unit): for tests
// that need an emulator or a process the short run does not start.
func SkipShort(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
}

// testLogger logs warnings and errors (handler failures) to stderr, not every request.
func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

func start() (env *Env, err error) {
	ctx, cancel := context.WithCancel(context.Background())
	env = &Env{cancel: cancel}
	started := env // the named result is nil on the error returns
	defer func() {
		if err != nil {
			started.close()
		}
	}()
	if env.Root, err = emulators.RepoRoot(); err != nil {
		return nil, err
	}
	if env.Template, err = template.ParseFile(filepath.Join(env.Root, "template.yaml")); err != nil {
		return nil, err
	}
	startCtx, stop := context.WithTimeout(ctx, 60*time.Second)
	defer stop()
	emus, err := emulators.Start(startCtx, emulators.Options{})
	if err != nil {
		return nil, err
	}
	env.procs = append(env.procs, emus.All()...)
	env.Stack, err = gateway.Provision(startCtx, env.Template, gateway.Endpoints{
		DynamoDB: emus.DynamoDB.Endpoint, SQS: emus.SQS.Endpoint, KMS: emus.KMS.Endpoint,
	}, gateway.ProvisionOptions{})
	if err != nil {
		return nil, err
	}
	if env.Config, err = env.Stack.AppConfig(); err != nil {
		return nil, err
	}
	env.Config.SyncRetryBase = time.Second // retry failed channel pushes quickly
	// Webhook retries on a short schedule (3 retries, a second apart) and
	// attempts that give up after a second: the schedule scaled down, not
	// slept through.
	env.Config.WebhookRetrySchedule = []time.Duration{time.Second, time.Second, time.Second}
	env.Config.WebhookTimeout = time.Second
	if env.Deps, err = sdkchain.New(ctx, env.Config); err != nil {
		return nil, fmt.Errorf("app.New: %w", err)
	}
	log := testLogger()
	slog.SetDefault(log) // the handlers' request logs: warnings and errors only
	env.Gateway, err = gateway.NewGateway(env.Template, env.Handler, gateway.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	env.Server = httptest.NewServer(env.Gateway)
	env.URL = env.Server.URL + "/" + env.Gateway.Stage()
	env.Pollers, err = gateway.NewPollers(env.Stack, env.handler, gateway.PollerOptions{
		Logger:             log,
		FailedVisibility:   time.Second, // retry failed messages quickly instead of after minutes
		OwnVisibility:      gateway.SelfVisibility,
		StreamPollInterval: 50 * time.Millisecond,
		StreamRetryDelay:   10 * time.Millisecond, // retry and bisect failed stream batches quickly
		// A change reaches the stream function at once in tests; benchmarks keep the
		// template's batching window, whose latency they measure.
		StreamBatchingWindow: batchingWindow(),
	})
	if err != nil {
		return nil, err
	}
	env.Pollers.Start(ctx)
	if err := env.startSim(ctx, log); err != nil {
		return nil, err
	}
	return env, nil
}

// batchingWindow is the stream batching window of the harness: 250 ms, or
// the template's (0) when benchmarks run.
func batchingWindow() time.Duration {
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		return 0
	}
	return 250 * time.Millisecond
}

func (e *Env) close() {
	if e.Server != nil {
		e.Server.Close()
	}
	if e.Pollers != nil {
		e.Pollers.Stop()
	}
	if e.cancel != nil {
		e.cancel()
	}
	for _, p := range e.procs {
		_ = p.Stop()
	}
}

// Drain waits (up to 3 minutes: the whole stack is shared by parallel tests) until the SQS consumers have processed every queued message
// (delayed ones too), e.g. after an inventory adjustment, and the stream consumers every
// record of the table's stream, including the work they cause each other (a stream handler
// that queues messages whose consumer writes the table); it fails the test otherwise.
func (e *Env) Drain(t testing.TB) {
	t.Helper()
	// A batch whose receive's answer was lost comes back within its function's timeout and a
	// margin (75 s at most; gateway's receiveVisibility), well within this.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := e.Pollers.Drain(ctx); err != nil {
		t.Fatalf("testenv: %v", err)
	}
}
