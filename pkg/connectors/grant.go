package connectors

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// RefreshGrant is an OAuth 2.0 refresh-token grant (RFC 6749, section 6) at the channel's
// auth endpoint: Amazon's Login with Amazon and eBay's identity API both take it.
type RefreshGrant struct {
	// Op is the token endpoint's operation (a name of Spec.Limits).
	Op string
	// Channel names the channel type in errors ("amazon").
	Channel                              string
	ClientID, ClientSecret, RefreshToken string
	// Scope, when set, is the scope asked for (space-separated).
	Scope string
	// Basic sends the client id and secret as HTTP Basic authentication (eBay) rather than
	// in the form (Login with Amazon).
	Basic bool
	// ContentType is the form's content type (default application/x-www-form-urlencoded).
	ContentType string
}

// RefreshGrant trades the refresh token for an access token. A refusal (a 401, or the OAuth
// errors invalid_grant, invalid_client, unauthorized_client: a refresh token revoked or
// expired, a client unknown) is an *AuthError, which the runtime counts toward the channel's
// disconnection; any other failure is an error that is not, and names no credential.
func (s *Session) RefreshGrant(ctx context.Context, g RefreshGrant) (Token, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {g.RefreshToken}}
	if g.Scope != "" {
		form.Set("scope", g.Scope)
	}
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}
	if g.ContentType != "" {
		h.Set("Content-Type", g.ContentType)
	}
	if g.Basic {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(g.ClientID+":"+g.ClientSecret)))
	} else {
		form.Set("client_id", g.ClientID)
		form.Set("client_secret", g.ClientSecret)
	}
	resp, err := s.Call(ctx, g.Op, Request{Method: http.MethodPost, URL: s.Endpoints.Auth, Header: h, Body: []byte(form.Encode())})
	if err != nil {
		return Token{}, err
	}
	return ParseTokenAnswer(g.Channel, resp.Status, resp.Body, s.rt.now())
}

// ParseTokenAnswer reads a token endpoint's answer of status at now: the access token and
// its expiry, an *AuthError for a refusal, an error for anything else.
func ParseTokenAnswer(channel string, status int, body []byte, now time.Time) (Token, error) {
	if status/100 != 2 {
		e := ParseOAuthError(body)
		if status == http.StatusUnauthorized || e.Code == "invalid_grant" || e.Code == "invalid_client" || e.Code == "unauthorized_client" {
			return Token{}, &AuthError{Message: e.Message()}
		}
		return Token{}, fmt.Errorf("%s token: status %d: %s", channel, status, e.Message())
	}
	var t struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" || t.ExpiresIn <= 0 {
		return Token{}, fmt.Errorf("%s token: the answer has no access_token and expires_in", channel)
	}
	return Token{Value: t.AccessToken, ExpiresAt: now.Add(time.Duration(t.ExpiresIn) * time.Second)}, nil
}
