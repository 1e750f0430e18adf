package walmart

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"

	"github.com/multisell/multisell/pkg/connectors"
)

// exchange gets an access token with the Token API's client-credentials grant: a form of
// grant_type=client_credentials, the client id and secret as Basic auth, and the WM_* headers
// every call carries (the token is the one it has none of). Walmart's token lives 15 minutes
// (expires_in 900); the runtime caches it sealed and renews it a minute before. A 401,
// invalid_client or invalid_grant is a *connectors.AuthError.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	h := wmHeaders()
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(cr.ClientID+":"+cr.ClientSecret)))
	body := url.Values{"grant_type": {"client_credentials"}}.Encode()
	resp, err := s.Call(ctx, OpToken, connectors.Request{Method: http.MethodPost, URL: s.Endpoints.Auth, Header: h, Body: []byte(body)})
	if err != nil {
		return connectors.Token{}, err
	}
	if resp.Status/100 != 2 && connectors.ParseOAuthError(resp.Body).Code == "" {
		// Walmart's gateway answers its own error body, not OAuth's.
		if msg := errorMessage(resp.Body); resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden {
			return connectors.Token{}, &connectors.AuthError{Message: "walmart token: " + msg}
		}
	}
	return connectors.ParseTokenAnswer("walmart", resp.Status, resp.Body, now())
}
