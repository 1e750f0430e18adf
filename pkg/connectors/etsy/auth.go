package etsy

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// apiKey is the x-api-key of the app: its keystring and shared secret, "keystring:secret",
// the form Etsy requires on every call since 2026 (docs/connectors.md, "Etsy").
func apiKey(clientID, secret string) string { return clientID + ":" + secret }

// accessToken is the channel's user access token: cached for the fleet, else one refresh
// grant with the newest refresh token (Session.RotatingAccessToken), whose answer's new
// refresh token the runtime keeps, since Etsy rotates it.
func accessToken(ctx context.Context, s *connectors.Session) (string, error) {
	cr := s.Credentials.(credentials)
	return s.RotatingAccessToken(ctx, cr.RefreshToken, func(ctx context.Context, refresh string) (connectors.Token, error) {
		t, _, err := grant(ctx, s, s.Endpoints.Auth, url.Values{"grant_type": {"refresh_token"},
			"client_id": {cr.ClientID}, "refresh_token": {refresh}})
		return t, err
	})
}

// grant posts a grant's form to Etsy's token endpoint u and reads its answer: the access
// token, its expiry and the new refresh token, and the user id the access token starts with
// ("12345678.abc..."; "" when it has none). invalid_grant, invalid_client, unauthorized_client
// and a 401 are *connectors.AuthError.
func grant(ctx context.Context, s *connectors.Session, u string, form url.Values) (connectors.Token, string, error) {
	resp, err := s.Call(ctx, OpToken, connectors.Request{Method: http.MethodPost, URL: u,
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}},
		Body:   []byte(form.Encode())})
	if err != nil {
		return connectors.Token{}, "", err
	}
	return tokenAnswer(resp.Status, resp.Body, time.Now())
}

// tokenAnswer reads a token endpoint's answer of status at now (grant).
func tokenAnswer(status int, body []byte, now time.Time) (connectors.Token, string, error) {
	t, err := connectors.ParseTokenAnswer("etsy", status, body, now)
	if err != nil {
		return connectors.Token{}, "", err
	}
	return t, userOf(t.Value), nil
}

// userOf is the user id an Etsy token starts with ("" when it starts with none).
func userOf(token string) string {
	for i, r := range token {
		switch {
		case r == '.' && i > 0:
			return token[:i]
		case r < '0' || r > '9':
			return ""
		}
	}
	return ""
}
