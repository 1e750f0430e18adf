package webhookhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/syncbuf"
)

// docPath is the page whose receiver examples the tests run.
const docPath = "../../docs/webhooks.md"

// example returns the code of the fenced block between <!-- example:name --> and
// <!-- /example:name --> in docs/webhooks.md.
func example(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "<!-- example:"+name+" -->")
	section, _, closed := strings.Cut(rest, "<!-- /example:"+name+" -->")
	if !ok || !closed {
		t.Fatalf("docs/webhooks.md has no example:%s markers", name)
	}
	_, code, ok := strings.Cut(section, "```")
	if !ok {
		t.Fatalf("example:%s has no fenced code", name)
	}
	_, code, _ = strings.Cut(code, "\n") // the fence's language
	code, _, ok = strings.Cut(code, "```")
	if !ok {
		t.Fatalf("example:%s has an unclosed fence", name)
	}
	return code
}

// TestDocReceivers runs the receivers of docs/webhooks.md (Node.js when node is on the
// PATH; Go, built with this module's go.mod) and posts them deliveries signed by Sign:
// signed ones, signed during a rotation with their secret second, a repeat, and ones
// that must be refused.
func TestDocReceivers(t *testing.T) {
	// pkg/testenv imports this package, so no testenv.SkipShort here.
	if testing.Short() {
		t.Skip("starts Node.js and builds a Go program: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	cases := []struct {
		name  string
		start func(t *testing.T, dir string) *exec.Cmd
		// worked is what the receiver prints when it works on the event of seq.
		worked func(seq int) string
	}{
		{"node", func(t *testing.T, dir string) *exec.Cmd {
			node, err := exec.LookPath("node")
			if err != nil {
				t.Skip("node is not on the PATH")
			}
			file := filepath.Join(dir, "receiver.js")
			if err := os.WriteFile(file, []byte(example(t, "node")), 0o600); err != nil {
				t.Fatal(err)
			}
			return exec.Command(node, file)
		}, func(seq int) string { return "event order.created " + strconv.Itoa(seq) + "\n" }},
		{"go", func(t *testing.T, dir string) *exec.Cmd {
			goTool, err := exec.LookPath("go") // go test puts its own first on the PATH
			if err != nil {
				t.Skip("no go tool to build the example")
			}
			// Built as a package of this module (an overlay, nothing written to the
			// tree), so that it uses the module's standardwebhooks version.
			src := filepath.Join(dir, "main.go")
			if err := os.WriteFile(src, []byte(example(t, "go")), 0o600); err != nil {
				t.Fatal(err)
			}
			pkgDir, err := filepath.Abs("zz_docexample")
			if err != nil {
				t.Fatal(err)
			}
			overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkgDir, "main.go"): src}})
			overlayFile := filepath.Join(dir, "overlay.json")
			if err := os.WriteFile(overlayFile, overlay, 0o600); err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(dir, "receiver")
			build := exec.Command(goTool, "build", "-overlay", overlayFile, "-o", bin, "./zz_docexample")
			if out, err := build.CombinedOutput(); err != nil {
				t.Fatalf("the Go example does not build: %v\n%s", err, out)
			}
			return exec.Command(bin)
		}, func(seq int) string { return `event {"seq":` + strconv.Itoa(seq) + `,` }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cmd := c.start(t, dir)
			secret, other := newSecret(t), newSecret(t)
			port := freePort(t)
			var out syncbuf.Buffer
			cmd.Env = append(os.Environ(), "MULTISELL_WEBHOOK_SECRET="+secret, "PORT="+strconv.Itoa(port))
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
			})
			url := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
			waitListening(t, "127.0.0.1:"+strconv.Itoa(port), &out)
			checkReceiver(t, url, secret, other, &out)
			// It worked on each verified event once (evt_1 came twice), on no other.
			want := map[int]int{1: 1, 2: 1, 3: 1, 4: 0, 5: 0, 6: 0, 7: 0, 8: 0, 9: 0}
			deadline := time.Now().Add(5 * time.Second)
			for !strings.Contains(out.String(), c.worked(3)) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			for seq, n := range want {
				if got := strings.Count(out.String(), c.worked(seq)); got != n {
					t.Errorf("the receiver worked on event %d %d times, want %d; its output:\n%s", seq, got, n, &out)
				}
			}
		})
	}
}

// freePort returns a port nothing listens on at the moment.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port
}

// waitListening waits up to 20 s for addr to take connections.
func waitListening(t *testing.T, addr string, out *syncbuf.Buffer) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return
		}
	}
	t.Fatalf("the receiver does not listen on %s; its output:\n%s", addr, out)
}

// checkReceiver posts deliveries to a receiver that holds secret, in order, and checks
// its answers.
func checkReceiver(t *testing.T, url, secret, other string, out *syncbuf.Buffer) {
	t.Helper()
	now := time.Now()
	body := func(seq int) []byte {
		return []byte(`{"seq":` + strconv.Itoa(seq) + `,"id":"evt_` + strconv.Itoa(seq) +
			`","type":"order.created","created_at":"2026-01-02T03:04:05Z","data":{"note":"héllo"}}`)
	}
	steps := []struct {
		name    string
		id      string
		secrets []string
		at      time.Time
		signed  []byte
		sent    []byte // nil: signed
		ok      bool
	}{
		{"signed", "evt_1", []string{secret}, now, body(1), nil, true},
		{"rotation, its secret second", "evt_2", []string{other, secret}, now, body(2), nil, true},
		{"rotation, its secret first", "evt_3", []string{secret, other}, now, body(3), nil, true},
		{"a repeat", "evt_1", []string{secret}, now, body(1), nil, true},
		{"other secret", "evt_4", []string{other}, now, body(4), nil, false},
		{"body changed", "evt_5", []string{secret}, now, body(5), body(6), false},
		{"id changed", "evt_7", []string{secret}, now, body(7), nil, false},
		{"six minutes old", "evt_8", []string{secret}, now.Add(-6 * time.Minute), body(8), nil, false},
		{"six minutes ahead", "evt_9", []string{secret}, now.Add(6 * time.Minute), body(9), nil, false},
	}
	for _, s := range steps {
		sig, err := Sign(s.secrets, s.id, s.at, s.signed)
		if err != nil {
			t.Fatal(err)
		}
		id := s.id
		if s.name == "id changed" {
			id = "evt_other"
		}
		sent := s.sent
		if sent == nil {
			sent = s.signed
		}
		req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewReader(sent))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = headers(id, s.at, sig)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v; the receiver's output:\n%s", s.name, err, out)
		}
		_ = resp.Body.Close()
		got, want := resp.StatusCode, http.StatusUnauthorized
		if s.ok {
			want = http.StatusNoContent
		}
		if got != want {
			t.Errorf("%s: status %d, want %d; the receiver's output:\n%s", s.name, got, want, out)
		}
	}
}
