package connectors

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
)

// CodeGrant is an OAuth 2.0 authorization-code grant (RFC 6749, section 4.1.3) at a
// marketplace's token endpoint: the code its consent page gave, for the refresh token of
// the merchant who approved the operator's app (docs/connectors.md, "Connecting a
// merchant").
type CodeGrant struct {
	// Op is the token endpoint's operation (a name of Spec.Limits, or none).
	Op string
	// Channel names the channel type in errors ("amazon").
	Channel string
	// URL is the token endpoint.
	URL                    string
	ClientID, ClientSecret string
	// Code is the code of the callback, RedirectURI the redirect_uri the consent was asked
	// with (eBay's RuName), CodeVerifier the PKCE verifier ("": none).
	Code, RedirectURI, CodeVerifier string
	// Basic sends the client id and secret as HTTP Basic authentication (eBay) rather than
	// in the form (Login with Amazon).
	Basic bool
}

// CodeGrant trades the code for a token: its access token, expiry and refresh token
// (Token.Refresh). A refusal (a code used, expired or another client's: invalid_grant, a
// 401, invalid_client) is an *AuthError; an answer without a refresh token is an error.
// Neither names the code or a token.
func (s *Session) CodeGrant(ctx context.Context, g CodeGrant) (Token, error) {
	form := url.Values{"grant_type": {"authorization_code"}, "code": {g.Code}}
	if g.RedirectURI != "" {
		form.Set("redirect_uri", g.RedirectURI)
	}
	if g.CodeVerifier != "" {
		form.Set("code_verifier", g.CodeVerifier)
	}
	h := http.Header{"Content-Type": {"application/x-www-form-urlencoded"}, "Accept": {"application/json"}}
	clientAuth(h, form, g.Basic, g.ClientID, g.ClientSecret)
	t, err := s.postGrant(ctx, g.Op, g.Channel, g.URL, h, form)
	if err != nil {
		return Token{}, err
	}
	if t.Refresh == "" {
		return Token{}, fmt.Errorf("%s token: the answer to the code has no refresh_token", g.Channel)
	}
	return t, nil
}
