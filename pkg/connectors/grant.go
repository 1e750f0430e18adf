package connectors

import (
	"cmp"
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
	// URL, when set, is the token endpoint (default: the channel's endpoints.auth).
	URL string
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
	clientAuth(h, form, g.Basic, g.ClientID, g.ClientSecret)
	return s.postGrant(ctx, g.Op, g.Channel, cmp.Or(g.URL, s.Endpoints.Auth), h, form)
}

// clientAuth authenticates a grant's client: its id and secret as HTTP Basic authentication
// in h (basic), or in the form.
func clientAuth(h http.Header, form url.Values, basic bool, id, secret string) {
	if basic {
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(id+":"+secret)))
		return
	}
	form.Set("client_id", id)
	form.Set("client_secret", secret)
}

// ClientCredentialsGrant is an OAuth 2.0 client-credentials grant (RFC 6749, section 4.4):
// the client id and secret in the form, no user's token. Shopify's Dev Dashboard apps take
// it (docs/connectors.md, Shopify).
type ClientCredentialsGrant struct {
	// Op is the token endpoint's operation (a name of Spec.Limits, or none).
	Op string
	// Channel names the channel type in errors ("shopify").
	Channel string
	// URL is the token endpoint (the channel's endpoints.auth when it has one).
	URL                    string
	ClientID, ClientSecret string
}

// ClientCredentials trades the client id and secret for an access token; a refusal is an
// *AuthError as RefreshGrant's is.
func (s *Session) ClientCredentials(ctx context.Context, g ClientCredentialsGrant) (Token, error) {
	form := url.Values{"grant_type": {"client_credentials"}, "client_id": {g.ClientID}, "client_secret": {g.ClientSecret}}
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}
	return s.postGrant(ctx, g.Op, g.Channel, g.URL, h, form)
}

// postGrant posts a grant's form to the token endpoint u as op and reads the answer
// (ParseTokenAnswer).
func (s *Session) postGrant(ctx context.Context, op, channel, u string, h http.Header, form url.Values) (Token, error) {
	resp, err := s.Call(ctx, op, Request{Method: http.MethodPost, URL: u, Header: h, Body: []byte(form.Encode())})
	if err != nil {
		return Token{}, err
	}
	return ParseTokenAnswer(channel, resp.Status, resp.Body, s.rt.now())
}

// RenewToken replaces the access token the channel just refused (a 401 on a token that had
// not expired yet by the runtime's clock: revoked, or expired sooner on the channel's): the
// cached token is dropped when it is still that one (another instance may have renewed it
// already), then AccessToken gets the cached or a new one, one exchange for every
// instance. The refusal itself is not counted; a refusal of the exchange is, as always.
func (s *Session) RenewToken(ctx context.Context, exchange func(context.Context) (Token, error)) (string, error) {
	if err := s.DropToken(ctx); err != nil {
		return "", err
	}
	return s.AccessToken(ctx, exchange)
}

// ParseTokenAnswer reads a token endpoint's answer of status at now: the access token, its
// expiry and the refresh token when it has one (a rotating exchange's new one), an
// *AuthError for a refusal, an error for anything else.
func ParseTokenAnswer(channel string, status int, body []byte, now time.Time) (Token, error) {
	if status/100 != 2 {
		e := ParseOAuthError(body)
		if status == http.StatusUnauthorized || e.Code == "invalid_grant" || e.Code == "invalid_client" || e.Code == "unauthorized_client" {
			return Token{}, &AuthError{Message: e.Message()}
		}
		return Token{}, fmt.Errorf("%s token: status %d: %s", channel, status, e.Message())
	}
	var t struct {
		AccessToken  string `json:"access_token"`
		ExpiresIn    int64  `json:"expires_in"`
		RefreshToken string `json:"refresh_token"`
	}
	if err := json.Unmarshal(body, &t); err != nil || t.AccessToken == "" || t.ExpiresIn <= 0 {
		return Token{}, fmt.Errorf("%s token: the answer has no access_token and expires_in", channel)
	}
	return Token{Value: t.AccessToken, ExpiresAt: now.Add(time.Duration(t.ExpiresIn) * time.Second), Refresh: t.RefreshToken}, nil
}
