package ebay

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// Scopes are the sell scopes the connector's access tokens ask for.
var Scopes = []string{
	"https://api.ebay.com/oauth/api_scope/sell.fulfillment",
	"https://api.ebay.com/oauth/api_scope/sell.inventory",
}

// accessToken is the channel's access token, from the fleet's cache or a new exchange.
func accessToken(ctx context.Context, s *connectors.Session) (string, error) {
	return s.AccessToken(ctx, func(ctx context.Context) (connectors.Token, error) { return exchange(ctx, s) })
}

// exchange trades the refresh token for a user access token: the refresh-token grant with
// the sell scopes, the client id and secret as Basic auth. invalid_grant (a refresh token
// revoked or expired) and invalid_client are *connectors.AuthError.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {cr.RefreshToken}, "scope": {strings.Join(Scopes, " ")}}
	basic := base64.StdEncoding.EncodeToString([]byte(cr.ClientID + ":" + cr.ClientSecret))
	resp, err := s.Call(ctx, OpToken, connectors.Request{Method: http.MethodPost, URL: s.Endpoints.Auth,
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Authorization": {"Basic " + basic}},
		Body:   []byte(form.Encode())})
	if err != nil {
		return connectors.Token{}, err
	}
	return parseToken(resp.Status, resp.Body, time.Now())
}

// parseToken reads the token endpoint's answer of status at now.
func parseToken(status int, body []byte, now time.Time) (connectors.Token, error) {
	if status/100 != 2 {
		e := connectors.ParseOAuthError(body)
		msg := e.Message()
		if status/100 == 4 && (e.Code == "invalid_grant" || e.Code == "invalid_client" || status == http.StatusUnauthorized) {
			return connectors.Token{}, &connectors.AuthError{Message: msg}
		}
		return connectors.Token{}, fmt.Errorf("ebay token: status %d: %s", status, clip(msg, string(body)))
	}
	var t TokenAnswer
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" || t.ExpiresIn <= 0 {
		return connectors.Token{}, fmt.Errorf("ebay token: the answer has no access_token and expires_in")
	}
	return connectors.Token{Value: t.AccessToken, ExpiresAt: now.Add(time.Duration(t.ExpiresIn) * time.Second)}, nil
}
