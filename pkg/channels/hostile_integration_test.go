package channels_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/testenv"
)

// echoing is the generic sandbox behind a proxy whose token endpoint, once echo is on,
// refuses every exchange with the request's body and headers echoed in its
// error_description, as a hostile marketplace may.
func echoing(t *testing.T, sb *sandbox.Generic) (*httptest.Server, *atomic.Bool) {
	t.Helper()
	target, _ := url.Parse(sb.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	var echo atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/oauth/token" || !echo.Load() {
			proxy.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		head, _ := json.Marshal(r.Header)
		sandbox.WriteJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_grant",
			"error_description": "you sent " + string(body) + " with " + string(head)})
	}))
	t.Cleanup(srv.Close)
	return srv, &echo
}

// TestHostileEchoLeaksNothing: a channel connected through a marketplace whose token endpoint
// then echoes the request (the client secret and refresh token) is refused three times and
// disconnected; the connect refused meanwhile (422), the table's raw items, the events, the
// webhook delivered and the logs hold no credential value. Not parallel: it captures the
// process's default logger.
func TestHostileEchoLeaksNothing(t *testing.T) {
	env, sb, acct, c := fixture(t)
	logs := captureLogs(t)
	var (
		mu    sync.Mutex
		hooks bytes.Buffer
	)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooks.Write(b)
		mu.Unlock()
	}))
	t.Cleanup(rcv.Close)
	if r := c.Do(http.MethodPost, "/webhooks", map[string]any{"webhook": map[string]any{"url": rcv.URL,
		"events": []string{"channel.disconnected"}}}); r.Status != http.StatusCreated {
		t.Fatalf("webhook: %d %s", r.Status, r)
	}
	hostile, echo := echoing(t, sb)
	body := map[string]any{"channel": map[string]any{"name": "Hostile", "type": "generic", "credentials": creds(nil),
		"endpoints": map[string]any{"api": hostile.URL, "auth": hostile.URL + "/oauth/token"}}}
	r := c.Do(http.MethodPost, "/channels", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("connect: %d %s", r.Status, r)
	}
	var made envelope
	r.JSON(t, &made)
	echo.Store(true)
	var leaks bytes.Buffer
	refused := c.Do(http.MethodPost, "/channels", body)
	if refused.Status != http.StatusUnprocessableEntity {
		t.Errorf("connect on the echo: %d %s, want 422", refused.Status, refused)
	}
	leaks.WriteString(refused.String())
	svc := env.Deps.Connectors()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for range connectors.RefusalsToDisconnect {
		_, _ = svc.PollChannel(ctx, connectors.ChannelRef{Account: acct.ID, UUID: made.Channel.UUID})
	}
	testenv.WaitFor(t, func() bool {
		env.Drain(t)
		mu.Lock()
		defer mu.Unlock()
		return bytes.Contains(hooks.Bytes(), []byte("channel.disconnected"))
	}, "the channel.disconnected webhook")
	leaks.WriteString(c.Do(http.MethodGet, "/events", nil).String())
	leaks.WriteString(c.Do(http.MethodGet, "/channels", nil).String())
	for _, item := range rawItems(t, env, acct.ID, "CH", "CHCRED", "CONN", "EV") {
		for _, v := range item {
			if s, ok := v.(*types.AttributeValueMemberS); ok {
				leaks.WriteString(s.Value)
			}
		}
	}
	mu.Lock()
	leaks.Write(hooks.Bytes())
	mu.Unlock()
	logs.mu.Lock()
	leaks.Write(logs.buf.Bytes())
	logs.mu.Unlock()
	if !bytes.Contains(leaks.Bytes(), []byte("[redacted]")) {
		t.Error("nothing redacted: the echo did not reach what the test reads")
	}
	for _, secret := range []string{clientSecret, refreshToken} {
		if bytes.Contains(leaks.Bytes(), []byte(secret)) {
			t.Errorf("%q is in clear in the 422, the events, the webhook, the table or the logs", secret)
		}
	}
}

// TestConnectUnreachable: a connect whose endpoints refuse the connection (a closed port) is
// a 422 naming the address and the network error, never a 503.
func TestConnectUnreachable(t *testing.T) {
	t.Parallel()
	_, _, _, c := fixture(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	r := c.Do(http.MethodPost, "/channels", map[string]any{"channel": map[string]any{"name": "Closed", "type": "generic",
		"credentials": creds(nil), "endpoints": map[string]any{"api": "http://" + addr, "auth": "http://" + addr + "/oauth/token"}}})
	if r.Status != http.StatusUnprocessableEntity {
		t.Errorf("connect to a closed port: %d %s, want 422", r.Status, r)
	}
	for _, want := range []string{addr, "connection refused"} {
		if !strings.Contains(r.String(), want) {
			t.Errorf("%s does not name %q", r, want)
		}
	}
}
