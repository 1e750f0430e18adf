package connectors_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/local/sandbox"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// hostileSecrets are the credentials the hostile marketplaces are called with.
var hostileSecrets = map[string]string{"client_id": "client-hostile", "client_secret": "hostile-secret-value", "refresh_token": "hostile-refresh-value"}

// hostileToken is the access token the hostile marketplaces hand out.
const hostileToken = "hostile-access-token"

// verifyOn runs the runtime's Verify of a generic channel on a marketplace whose token
// endpoint is token (nil: it hands out hostileToken) and whose other paths api serves (nil:
// the shop of a seller without orders).
func verifyOn(t *testing.T, token, api http.HandlerFunc) error {
	t.Helper()
	if token == nil {
		token = func(w http.ResponseWriter, _ *http.Request) {
			sandbox.WriteJSON(w, http.StatusOK, map[string]any{"access_token": hostileToken, "expires_in": 3600})
		}
	}
	if api == nil {
		api = func(w http.ResponseWriter, _ *http.Request) {
			sandbox.WriteJSON(w, http.StatusOK, map[string]int{"orders": 0})
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/oauth/token", token)
	mux.HandleFunc("/", api)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return verifyAt(t, srv.URL, srv.URL+"/oauth/token")
}

// verifyAt runs the runtime's Verify of a generic channel of the endpoints api and auth.
func verifyAt(t *testing.T, api, auth string) error {
	t.Helper()
	connectors.Register(sandbox.GenericConnector)
	rt := &connectors.Runtime{Policy: webhookhttp.Policy{Local: true}, CallTimeout: 5 * time.Second}
	creds, _ := json.Marshal(hostileSecrets)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return rt.Verify(ctx, connectors.Channel{Account: "acct", UUID: "chan", Connector: "generic",
		Endpoints: connectors.Endpoints{API: api, Auth: auth}}, creds)
}

// echo answers status with the request (its headers and body) in an OAuth error of code.
func echo(status int, code string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		sandbox.WriteJSON(w, status, map[string]string{"error": code,
			"error_description": "you sent " + string(body) + " with " + jsonOf(r.Header)})
	}
}

// jsonOf is v in JSON.
func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestChannelWordsCleaned: what a marketplace answers reaches no error text with a credential
// value or token in it: a token endpoint refusing with the request echoed (the refusal's
// message too), an API answering 500 with the Authorization header echoed.
func TestChannelWordsCleaned(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		token, api http.HandlerFunc
		refusal    bool
	}{
		{"token endpoint echoes the request", echo(http.StatusUnauthorized, "invalid_client"), nil, true},
		{"token endpoint refuses the grant with the request", echo(http.StatusBadRequest, "invalid_grant"), nil, true},
		{"token endpoint fails with the request", echo(http.StatusInternalServerError, "server_error"), nil, false},
		{"API echoes the Authorization header", nil, echo(http.StatusInternalServerError, "server_error"), false},
		{"API refuses with the Authorization header", nil, echo(http.StatusUnauthorized, "invalid_token"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := verifyOn(t, tt.token, tt.api)
			if err == nil {
				t.Fatal("verified")
			}
			var ae *connectors.AuthError
			if got := errors.As(err, &ae); got != tt.refusal {
				t.Fatalf("refusal %v, want %v: %v", got, tt.refusal, err)
			}
			texts := []string{err.Error()}
			if ae != nil {
				texts = append(texts, ae.Message)
			}
			for _, text := range texts {
				for _, secret := range []string{hostileSecrets["client_secret"], hostileSecrets["refresh_token"], hostileToken} {
					if strings.Contains(text, secret) {
						t.Errorf("%q holds %q", text, secret)
					}
				}
				if !strings.Contains(text, "[redacted]") {
					t.Errorf("%q shows no redaction", text)
				}
			}
		})
	}
}

// TestAnswerTooLarge: an answer over 16 MiB is refused as such.
func TestAnswerTooLarge(t *testing.T) {
	t.Parallel()
	err := verifyOn(t, nil, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat(" ", 1<<20))
		for range 17 {
			_, _ = w.Write(chunk)
		}
	})
	if err == nil || !strings.Contains(err.Error(), "answer over 16 MiB") {
		t.Errorf("error %v, want an answer over 16 MiB", err)
	}
}

// TestNoRedirectFollowed: a redirect to another port of the host is not followed, so the
// bearer token goes nowhere else.
func TestNoRedirectFollowed(t *testing.T) {
	t.Parallel()
	var got atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization"))
		sandbox.WriteJSON(w, http.StatusOK, map[string]int{"orders": 0})
	}))
	t.Cleanup(other.Close)
	err := verifyOn(t, nil, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	})
	if v, _ := got.Load().(string); v != "" {
		t.Errorf("the other port got Authorization %q", v)
	}
	if err == nil {
		t.Error("a redirect verified the credentials")
	}
}

// TestUnreachableChannel: a channel whose address refuses the connection is the channel's
// failure, naming the address and the network error, never an outage of ours (a 503).
func TestUnreachableChannel(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	err = verifyAt(t, "http://"+addr, "http://"+addr+"/oauth/token")
	var un *connectors.Unreachable
	if !errors.As(err, &un) {
		t.Fatalf("error %v, want *Unreachable", err)
	}
	if got := errs.KindOf(err); got == errs.KindUnavailable {
		t.Errorf("kind %v, want not unavailable", got)
	}
	for _, want := range []string{addr, "connection refused"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %q", err, want)
		}
	}
}
