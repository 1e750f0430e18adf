package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/app/sdkchain"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/syncbuf"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestRestartDelay: the waits between restarts double from 250 ms, and the fifth quick
// failure in a row gives up.
func TestRestartDelay(t *testing.T) {
	for _, tc := range []struct {
		failures int
		want     time.Duration
		wantOK   bool
	}{
		{1, 250 * time.Millisecond, true},
		{2, 500 * time.Millisecond, true},
		{3, time.Second, true},
		{4, 2 * time.Second, true},
		{5, 0, false},
	} {
		t.Run(fmt.Sprint(tc.failures), func(t *testing.T) {
			got, ok := restartDelay(tc.failures)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("restartDelay(%d) = %v, %v; want %v, %v", tc.failures, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}

// TestSuperviseGivesUp: an emulator that fails again soon after each restart, by exiting
// or because the stack cannot be set up on it, is restarted with growing waits, and the
// fifth quick failure in a row ends supervise with an error that says so.
func TestSuperviseGivesUp(t *testing.T) {
	testenv.SkipShort(t)
	t.Parallel()
	for _, tc := range []struct {
		name      string
		killEvery bool  // kill each new process (else only the first)
		afterErr  error // what after returns
	}{
		{"keeps exiting", true, nil},
		{"cannot be set up", false, errors.New("no queues")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := emulators.StartDynoxide(context.Background(), emulators.DynoxideOptions{})
			if err != nil {
				t.Fatal(err)
			}
			set := &emulatorSet{procs: []*emulators.Process{p}}
			t.Cleanup(set.stop)
			var afters atomic.Int32
			done := make(chan error, 1)
			start := time.Now()
			go func() {
				done <- set.supervise(context.Background(), func(context.Context) error { afters.Add(1); return tc.afterErr })
			}()
			killed := map[int]bool{}
			for {
				if p := set.get(0); !killed[p.Pid()] && (tc.killEvery || len(killed) == 0) {
					select {
					case <-p.Done():
					default:
						killed[p.Pid()] = true
						_ = syscall.Kill(p.Pid(), syscall.SIGKILL)
					}
				}
				select {
				case err = <-done:
				case <-time.After(10 * time.Millisecond):
					continue
				}
				break
			}
			if err == nil || !strings.Contains(err.Error(), "dynoxide failed 5 times in a row") {
				t.Errorf("supervise = %v, want it to give up after 5 failures", err)
			}
			if got := afters.Load(); got != 4 {
				t.Errorf("after ran %d times, want 4 (once per restart)", got)
			}
			if d := time.Since(start); d < 3750*time.Millisecond {
				t.Errorf("gave up after %v, want the waits (0.25+0.5+1+2 s) in between", d)
			}
		})
	}
}

// TestServeRestartsEmulators: `multisell serve` (what `make run` runs) restarts an
// emulator killed under it, on the same endpoint, and goes on serving. After fauxqs is
// killed (its queues and messages are gone with it), its queues are made again and a PUT
// /inventory is accepted and applied; after Dynoxide is killed, the data from before is
// there, a PUT is accepted and applied, and the stream poller delivers the change (its
// event is in the feed).
func TestServeRestartsEmulators(t *testing.T) {
	testenv.SkipShort(t)
	dir, _, _, serve := startServe(t, "--demo=false")
	sf := waitStackFile(t, dir, serve, func(*stackFile) bool { return true })
	deps, err := sdkchain.New(context.Background(), sf.config())
	if err != nil {
		t.Fatal(err)
	}
	created, err := deps.Accounts().Create(context.Background(),
		accounts.Input{Name: t.Name(), RPS: testenv.Unthrottled, RPM: testenv.Unthrottled})
	if err != nil {
		t.Fatal(err)
	}
	api := stackAPI{t: t, url: sf.APIURL, token: created.AccountToken, secret: created.SecretKey}
	var wh struct {
		UUID string `json:"warehouse_uuid"`
	}
	api.call(http.MethodPost, "/warehouses", `{"warehouse":{"name":"Main"}}`, &wh)
	adjust := func(onHand int) string {
		var got struct {
			RequestID string `json:"request_id"`
		}
		api.call(http.MethodPut, "/inventory", fmt.Sprintf(`{"inventory":[{"sku":"KEPT-1","warehouse_uuid":%q,"on_hand":%d}]}`, wh.UUID, onHand), &got)
		testenv.WaitFor(t, func() bool {
			var adj struct {
				Status string `json:"status"`
			}
			api.call(http.MethodGet, "/inventory/adjustments/"+got.RequestID, "", &adj)
			return adj.Status == "applied"
		}, "the adjustment to be applied")
		return got.RequestID
	}
	onHand := func() int {
		var recs []struct {
			OnHand int `json:"on_hand"`
		}
		api.call(http.MethodGet, "/inventory?sku=KEPT-1", "", &recs)
		if len(recs) != 1 {
			t.Fatalf("GET /inventory?sku=KEPT-1: %d records, want 1", len(recs))
		}
		return recs[0].OnHand
	}
	adjust(5)

	for _, tc := range []struct {
		name   string
		pid    func(*stackFile) int
		onHand int
	}{
		{"fauxqs", func(s *stackFile) int { return s.SQSPID }, 7},
		{"dynoxide", func(s *stackFile) int { return s.DynamoDBPID }, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, killed := onHand(), tc.pid(sf)
			if err := syscall.Kill(killed, syscall.SIGKILL); err != nil {
				t.Fatalf("kill %s (pid %d): %v", tc.name, killed, err)
			}
			sf = waitStackFile(t, dir, serve, func(s *stackFile) bool { return tc.pid(s) != killed })
			if got := onHand(); got != before {
				t.Errorf("on_hand after the restart = %d, want %d as before", got, before)
			}
			id := adjust(tc.onHand)
			if got := onHand(); got != tc.onHand {
				t.Errorf("on_hand after the adjustment = %d, want %d", got, tc.onHand)
			}
			testenv.WaitFor(t, func() bool {
				var feed struct {
					Events []struct {
						Data struct {
							RequestID string `json:"request_id"`
						} `json:"data"`
					} `json:"events"`
				}
				api.call(http.MethodGet, "/events?type=inventory_adjustment.applied", "", &feed)
				for _, e := range feed.Events {
					if e.Data.RequestID == id {
						return true
					}
				}
				return false
			}, "the adjustment's event in the feed")
		})
	}
}

// served is a `multisell serve` that startServe runs: done is closed when it exits,
// with its exit status in code then. A test and startServe's cleanup both wait on done,
// so a test that saw serve exit does not leave the cleanup waiting for a status it took.
type served struct {
	done chan struct{}
	code int
}

// startServe runs `multisell serve --port 0` with args on a temporary folder until the
// test ends, then interrupts it: it must exit 0 within 30 s, and its serve.log is logged
// when the test failed. It returns the folder, serve's outputs (stdout and stderr are
// theirs meanwhile) and the run. The test must skip in short mode first (serve starts
// the emulators).
func startServe(t *testing.T, args ...string) (dir string, out, errOut *syncbuf.Buffer, s *served) {
	t.Helper()
	out, errOut = &syncbuf.Buffer{}, &syncbuf.Buffer{}
	stdout, stderr = out, errOut
	t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })
	dir = filepath.Join(t.TempDir(), "data")
	ctx, cancel := context.WithCancel(context.Background())
	s = &served{done: make(chan struct{})}
	go func() {
		s.code = run(ctx, append([]string{"serve", "--port", "0", "--dir", dir}, args...))
		close(s.done)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
			if s.code != 0 && !t.Failed() {
				t.Errorf("serve exited %d after the interrupt, want 0; stderr: %s", s.code, errOut.String())
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30 s of the interrupt")
		}
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "logs", "serve.log"))
			t.Logf("serve.log:\n%s", log)
		}
	})
	return dir, out, errOut, s
}

// waitStackFile waits up to 45 s for dir/stack.json to satisfy ok and returns it; it fails
// the test when serve exits meanwhile.
func waitStackFile(t *testing.T, dir string, serve *served, ok func(*stackFile) bool) *stackFile {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-serve.done:
			t.Fatalf("serve exited %d", serve.code)
		case <-time.After(50 * time.Millisecond):
		}
		s, err := readStackFile(dir)
		if err != nil {
			t.Fatal(err)
		}
		if s != nil && ok(s) {
			return s
		}
	}
	t.Fatal("timed out waiting for stack.json")
	return nil
}

// stackAPI calls a running stack's API as one account.
type stackAPI struct {
	t                  *testing.T
	url, token, secret string
}

// call sends a request ("" body: none) and decodes its JSON answer into out; an answer
// other than 2xx fails the test.
func (a stackAPI) call(method, path, body string, out any) {
	a.t.Helper()
	var reader io.Reader
	if body != "" {
		reader = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, a.url+path, reader)
	if err != nil {
		a.t.Fatal(err)
	}
	req.SetBasicAuth(a.token, a.secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		a.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, got)
	}
	if err := json.Unmarshal(got, out); err != nil {
		a.t.Fatalf("%s %s: %v in %s", method, path, err, got)
	}
}
