package connectors_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// TestParseTokenAnswer: invalid_grant, invalid_client and a 401 are refusals of the
// credentials (they count toward disconnection); a 5xx or an answer without a token is an
// error of its own.
func TestParseTokenAnswer(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		name   string
		status int
		body   string
		auth   bool
	}{
		{"invalid_grant", http.StatusBadRequest, `{"error":"invalid_grant","error_description":"revoked"}`, true},
		{"invalid_client", http.StatusUnauthorized, `{"error":"invalid_client"}`, true},
		{"unauthorized_client", http.StatusBadRequest, `{"error":"unauthorized_client"}`, true},
		{"401 without a code", http.StatusUnauthorized, `nope`, true},
		{"invalid_request", http.StatusBadRequest, `{"error":"invalid_request"}`, false},
		{"5xx", http.StatusServiceUnavailable, `oops`, false},
		{"no token", http.StatusOK, `{"expires_in":7200}`, false},
		{"no expiry", http.StatusOK, `{"access_token":"x"}`, false},
		{"cut short", http.StatusOK, `{"access_token":"x","expi`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := connectors.ParseTokenAnswer("test", tc.status, []byte(tc.body), now)
			var ae *connectors.AuthError
			if err == nil || errors.As(err, &ae) != tc.auth {
				t.Errorf("got %v, want an error, an AuthError: %v", err, tc.auth)
			}
		})
	}
	tok, err := connectors.ParseTokenAnswer("test", http.StatusOK, []byte(`{"access_token":"v^1","expires_in":7200}`), now)
	if err != nil || tok.Value != "v^1" || !tok.ExpiresAt.Equal(now.Add(2*time.Hour)) {
		t.Errorf("got %+v, %v", tok, err)
	}
}

// FuzzParseTokenAnswer: no token answer panics the parser; a token it accepts is not empty.
func FuzzParseTokenAnswer(f *testing.F) {
	f.Add(200, []byte(`{"access_token":"x","expires_in":7200}`))
	f.Add(400, []byte(`{"error":"invalid_grant"}`))
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		tok, err := connectors.ParseTokenAnswer("test", status, body, time.Unix(0, 0))
		if err == nil && tok.Value == "" {
			t.Fatal("an empty token accepted")
		}
	})
}
