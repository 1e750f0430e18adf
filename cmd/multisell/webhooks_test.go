package main

import (
	"cmp"
	"context"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/syncbuf"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// listening matches the line webhooks listen prints once it listens.
var listening = regexp.MustCompile(`listening for webhook deliveries on (http://[^/ ]+/)`)

// startListen runs `webhooks listen` with args on a port of its choosing (--port 0) until
// the test ends, and returns its URL, read from the line it prints to errOut (listeners
// are started one at a time); it fails t unless the command stops with exit status 0 when
// interrupted.
func startListen(t *testing.T, errOut *syncbuf.Buffer, args ...string) string {
	t.Helper()
	seen := len(listening.FindAllStringSubmatch(errOut.String(), -1))
	ctx, cancel := context.WithCancel(context.Background())
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"webhooks", "listen", "--port", "0"}, args...))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case c := <-code:
			if c != 0 {
				t.Errorf("webhooks listen exited %d after the interrupt, want 0", c)
			}
		case <-time.After(10 * time.Second):
			t.Error("webhooks listen did not stop within 10 s of the interrupt")
		}
	})
	for deadline := time.Now().Add(10 * time.Second); ; {
		if m := listening.FindAllStringSubmatch(errOut.String(), -1); len(m) > seen {
			return m[len(m)-1][1]
		}
		select {
		case c := <-code:
			t.Fatalf("webhooks listen exited %d before listening", c)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("webhooks listen is not listening after 10 s")
		}
	}
}

// TestWebhooksListen starts two listeners (they print to the process-wide stdout, so the
// test does not run in parallel with the others), posts deliveries signed well and
// badly, and checks the answers and the printed lines.
func TestWebhooksListen(t *testing.T) {
	var out, errOut syncbuf.Buffer
	stdout, stderr = &out, &errOut
	t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })

	newest, oldest, unknown := secret(t), secret(t), secret(t)
	answers204 := startListen(t, &errOut, "--secret", newest, "--secret", oldest)
	answers503 := startListen(t, &errOut, "--secret", newest, "--status", "503")

	now := time.Now()
	cases := []struct {
		name    string
		url     string
		method  string
		id      string
		secrets []string // signing secrets
		at      time.Time
		tamper  bool // send a body other than the one signed
		status  int
		printed string // a line the listener prints
	}{
		{name: "signed", url: answers204, id: "evt_a", secrets: []string{newest}, at: now, status: 204,
			printed: " verified evt_a order.created seq=1\n{\n  \"seq\": 1,"},
		{name: "signed with the older secret", url: answers204, id: "evt_b", secrets: []string{oldest}, at: now, status: 204,
			printed: " verified evt_b order.created seq=1\n"},
		{name: "rotation, the listener knowing the second secret", url: answers503, id: "evt_c", secrets: []string{unknown, newest}, at: now, status: 503,
			printed: " verified evt_c order.created seq=1 (answered 503)\n"},
		{name: "other secret", url: answers204, id: "evt_d", secrets: []string{unknown}, at: now, status: 401,
			printed: " REJECTED no matching signature (webhook-id evt_d)\n"},
		{name: "body changed", url: answers204, id: "evt_e", secrets: []string{newest}, at: now, tamper: true, status: 401,
			printed: " REJECTED no matching signature (webhook-id evt_e)\n"},
		{name: "too old", url: answers204, id: "evt_f", secrets: []string{newest}, at: now.Add(-10 * time.Minute), status: 401,
			printed: " REJECTED timestamp too old (webhook-id evt_f)\n"},
		{name: "unsigned", url: answers503, id: "evt_g", status: 401,
			printed: " REJECTED missing webhook-id, webhook-timestamp or webhook-signature header (webhook-id evt_g)\n"},
		{name: "not a POST", url: answers204, method: http.MethodGet, id: "evt_h", status: 405,
			printed: " REJECTED GET is not a delivery (POST) (webhook-id evt_h)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			body := `{"seq":1,"id":"` + c.id + `","type":"order.created","created_at":"2026-01-02T03:04:05Z","data":{"order_id":"42"}}`
			sent := body
			if c.tamper {
				sent = strings.Replace(body, `"42"`, `"43"`, 1)
			}
			req, err := http.NewRequest(cmp.Or(c.method, http.MethodPost), c.url, strings.NewReader(sent))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(webhookhttp.HeaderID, c.id)
			if c.secrets != nil {
				sig, err := webhookhttp.Sign(c.secrets, c.id, c.at, []byte(body))
				if err != nil {
					t.Fatal(err)
				}
				req.Header.Set(webhookhttp.HeaderTimestamp, strconv.FormatInt(c.at.Unix(), 10))
				req.Header.Set(webhookhttp.HeaderSignature, sig)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			if got, want := resp.StatusCode, c.status; got != want {
				t.Errorf("status %d, want %d", got, want)
			}
			if got := out.String(); !strings.Contains(got, c.printed) {
				t.Errorf("printed:\n%s\nwant a line with %q", got, c.printed)
			}
		})
	}
	t.Run("banner", func(t *testing.T) {
		t.Parallel()
		if got, want := errOut.String(), regexp.MustCompile(`listening for webhook deliveries on http://127\.0\.0\.1:\d+/ \(verified: 204, not verified: 401\)`); !want.MatchString(got) {
			t.Errorf("stderr %q, want a line matching %s", got, want)
		}
	})
	t.Cleanup(func() { // after the parallel subtests
		for _, s := range []string{newest, oldest, unknown} {
			if strings.Contains(out.String()+errOut.String(), strings.TrimPrefix(s, "whsec_")) {
				t.Error("a secret is printed")
			}
		}
	})
}

// TestWebhooksListenRefuses: bad arguments exit 1 (2 when the command is called wrongly: no
// or an unknown subcommand, an argument too many) with a message that shows no secret.
func TestWebhooksListenRefuses(t *testing.T) {
	good := secret(t)
	bad := "whsec_c2VjcmV0LXRoYXQtaXMtdG9vLXNob3J0"
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string
		exit   int
	}{
		{"no subcommand", []string{"webhooks"}, "multisell webhooks listen --secret", 2},
		{"unknown subcommand", []string{"webhooks", "send"}, "multisell webhooks listen --secret", 2},
		{"no secret", []string{"webhooks", "listen", "--port", "0"}, "--secret is required", 1},
		{"bad secret", []string{"webhooks", "listen", "--secret", good, "--secret", bad}, "--secret number 2 is not a signing secret", 1},
		{"bad status", []string{"webhooks", "listen", "--secret", good, "--status", "99"}, "--status 99 is not a status from 200 to 599", 1},
		{"bad port", []string{"webhooks", "listen", "--secret", good, "--port", "70000"}, "--port 70000 is not a port", 1},
		{"extra argument", []string{"webhooks", "listen", "--secret", good, "now"}, `unexpected argument "now"`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := cli(t, tc.args...)
			if want := tc.exit; code != want || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("got exit %d, stderr %q; want exit %d, stderr with %q", code, errOut, want, tc.stderr)
			}
			if strings.Contains(errOut, strings.TrimPrefix(bad, "whsec_")) || strings.Contains(errOut, strings.TrimPrefix(good, "whsec_")) {
				t.Errorf("stderr %q shows a secret", errOut)
			}
		})
	}
}

// secret is a new signing secret.
func secret(t *testing.T) string {
	t.Helper()
	s, err := webhookhttp.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	return s
}
