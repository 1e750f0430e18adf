package connectors

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestClientCredentials: the grant posts grant_type client_credentials with the client id
// and secret in the form to the URL given and reads the token answer; a refusal is an
// *AuthError. A verify session's RenewToken exchanges anew.
func TestClientCredentials(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil || r.URL.Path != "/admin/oauth/access_token" || r.PostForm.Get("grant_type") != "client_credentials" ||
			r.PostForm.Get("client_id") != "id" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_request"}`))
			return
		}
		if r.PostForm.Get("client_secret") != "secret" {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"error":"invalid_client","error_description":"Client credentials are invalid"}`))
			return
		}
		_, _ = w.Write([]byte(`{"access_token":"tok","scope":"read_orders","expires_in":86399}`))
	}))
	t.Cleanup(srv.Close)
	now := time.Unix(1_800_000_000, 0)
	s := &Session{rt: &Runtime{Now: func() time.Time { return now }}, HTTP: srv.Client(), verify: true}
	tests := []struct {
		name, path, secret string
		want               string
		auth               bool
	}{
		{"token", "/admin/oauth/access_token", "secret", "tok", false},
		{"wrong secret", "/admin/oauth/access_token", "nope", "", true},
		{"not the token endpoint", "/nope", "secret", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tok, err := s.ClientCredentials(context.Background(), ClientCredentialsGrant{Op: "token", Channel: "test",
				URL: srv.URL + tt.path, ClientID: "id", ClientSecret: tt.secret})
			var ae *AuthError
			if got := tok.Value; got != tt.want || errors.As(err, &ae) != tt.auth || (err == nil) != (tt.want != "") {
				t.Errorf("got %q, %v; want %q, an AuthError: %v", got, err, tt.want, tt.auth)
			}
			if err == nil && !tok.ExpiresAt.Equal(now.Add(86399*time.Second)) {
				t.Errorf("expires at %s", tok.ExpiresAt)
			}
		})
	}
}

// TestRenewTokenVerify: a verify session caches nothing, and RenewToken gets a new token
// even while the one it holds has not expired.
func TestRenewTokenVerify(t *testing.T) {
	t.Parallel()
	s := &Session{rt: &Runtime{}, verify: true}
	n := 0
	exchange := func(context.Context) (Token, error) {
		n++
		return Token{Value: string(rune('a' + n - 1)), ExpiresAt: time.Now().Add(time.Hour)}, nil
	}
	c := context.Background()
	var got []string
	for _, f := range []func(context.Context, func(context.Context) (Token, error)) (string, error){s.AccessToken, s.AccessToken, s.RenewToken} {
		tok, err := f(c, exchange)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, tok)
	}
	if want := "[a a b]"; fmt.Sprint(got) != want {
		t.Errorf("tokens %s, want %s", fmt.Sprint(got), want)
	}
}
