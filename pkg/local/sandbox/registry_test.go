package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// kitSeller is a seller of the kit's tests.
type kitSeller struct{ Account }

// newKit is a registry of two sellers of one app (client "app"), the second refused, and a
// form token endpoint of both grants over it, with tokens living ttl.
func newKit(ttl time.Duration) (*Registry[*kitSeller], http.HandlerFunc) {
	g := NewRegistry[*kitSeller](func() any { return nil })
	g.TokenTTL = ttl
	open := func() *kitSeller { return &kitSeller{} }
	g.Add("s1", Account{ClientID: "app", Secret: "secret", Refresh: "r1"}, open)
	g.Add("s2", Account{ClientID: "app", Secret: "secret", Refresh: "r2"}, open)
	g.Refuse("s2", true)
	return g, g.Token(TokenEndpoint{Read: FormGrant, Grants: []string{GrantRefreshToken, GrantClientCredentials}, Prefix: "T|", TTL: time.Hour})
}

// TestTokenEndpoint: the kit's token endpoint gives a token to a client that authenticates
// with a grant of a seller whose credentials stand, and answers the OAuth errors the
// marketplaces answer otherwise.
func TestTokenEndpoint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		form       url.Values
		wantStatus int
		wantError  string
	}{
		{"refresh token", url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"}, "client_secret": {"secret"}, "refresh_token": {"r1"}}, 200, ""},
		{"client credentials", url.Values{"grant_type": {"client_credentials"}, "client_id": {"app"}, "client_secret": {"secret"}}, 200, ""},
		{"wrong secret", url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"}, "client_secret": {"x"}, "refresh_token": {"r1"}}, 401, "invalid_client"},
		{"unknown client", url.Values{"grant_type": {"refresh_token"}, "client_id": {"other"}, "client_secret": {"secret"}, "refresh_token": {"r1"}}, 401, "invalid_client"},
		{"wrong refresh token", url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"}, "client_secret": {"secret"}, "refresh_token": {"r9"}}, 400, "invalid_grant"},
		{"refused seller", url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"}, "client_secret": {"secret"}, "refresh_token": {"r2"}}, 400, "invalid_grant"},
		{"no refresh token", url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"}, "client_secret": {"secret"}}, 400, "invalid_request"},
		{"other grant", url.Values{"grant_type": {"password"}, "client_id": {"app"}, "client_secret": {"secret"}}, 400, "unsupported_grant_type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, h := newKit(0)
			got := post(h, tt.form)
			var body struct {
				Error       string `json:"error"`
				AccessToken string `json:"access_token"`
				ExpiresIn   int    `json:"expires_in"`
			}
			_ = json.Unmarshal(got.Body.Bytes(), &body)
			if got.Code != tt.wantStatus || body.Error != tt.wantError {
				t.Errorf("got %d %q, want %d %q", got.Code, body.Error, tt.wantStatus, tt.wantError)
			}
			if tt.wantStatus == 200 && (!strings.HasPrefix(body.AccessToken, "T|") || body.ExpiresIn != 3600) {
				t.Errorf("got token %q living %d s, want T|... living 3600 s", body.AccessToken, body.ExpiresIn)
			}
		})
	}
}

// post sends the form to the token handler h.
func post(h http.HandlerFunc, form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, TokenPath, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	w := httptest.NewRecorder()
	h(w, r)
	return w
}

// TestAuthed: the kit's auth middleware serves the seller of a token it gave, and denies a
// token it did not give, an expired one (TokenTTL short) and one of a refused seller.
func TestAuthed(t *testing.T) {
	t.Parallel()
	g, h := newKit(0)
	served := g.Authed(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) },
		func(w http.ResponseWriter, _ *http.Request, s *kitSeller) { _, _ = w.Write([]byte(s.Refresh)) })
	token := func() string {
		var body struct {
			AccessToken string `json:"access_token"`
		}
		_ = json.Unmarshal(post(h, url.Values{"grant_type": {"refresh_token"}, "client_id": {"app"},
			"client_secret": {"secret"}, "refresh_token": {"r1"}}).Body.Bytes(), &body)
		return body.AccessToken
	}
	good := token()
	g.Lock()
	g.tokens["expired"] = Token{Seller: "s1", Exp: time.Now().Add(-time.Second)}
	g.Permanent("refused", "s2")
	g.Unlock()
	tests := []struct {
		name, token, want string
	}{
		{"given", good, "r1"},
		{"not given", "T|other", ""},
		{"expired", "expired", ""},
		{"refused seller", "refused", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.Header.Set("Authorization", "Bearer "+tt.token)
			w := httptest.NewRecorder()
			served(w, r)
			if got := w.Body.String(); got != tt.want || (tt.want == "") != (w.Code == http.StatusUnauthorized) {
				t.Errorf("got %d %q, want %q", w.Code, got, tt.want)
			}
		})
	}
}
