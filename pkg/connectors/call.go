package connectors

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// Authorized is how a connector's calls are authorised and their answers judged, for
// Session.Authorized.
type Authorized struct {
	// Exchange gets a new access token (the refresh-token grant, see RefreshGrant); the
	// session caches it for every instance (Session.AccessToken). Nil: the credentials hold
	// a token of their own and Header sets it.
	Exchange func(ctx context.Context, s *Session) (Token, error)
	// Header sets the access token on a request's header (nil: "Authorization: Bearer").
	Header func(h http.Header, token string)
	// Refused reports whether an answer other than 2xx is the channel refusing the token
	// or the credentials (nil: a 401).
	Refused func(status int, body []byte) bool
	// Error is the error of an answer other than 2xx in the channel's own words; a refused
	// one becomes an *AuthError with its message.
	Error func(op string, status int, body []byte) error
}

// Authorized sends req as op (Session.Call, within the channel's limits; a 429 the limits
// cannot wait for is *Throttled) with the channel's access token set by a.Header, and
// returns a 2xx answer; any other is a.Error's error, an *AuthError when a.Refused says the
// channel refused the token.
func (s *Session) Authorized(ctx context.Context, op string, req Request, a Authorized) (*Response, error) {
	tok := ""
	if a.Exchange != nil {
		var err error
		tok, err = s.AccessToken(ctx, func(ctx context.Context) (Token, error) { return a.Exchange(ctx, s) })
		if err != nil {
			return nil, err
		}
	}
	req.Header = req.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	if a.Header != nil {
		a.Header(req.Header, tok)
	} else {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	resp, err := s.Call(ctx, op, req)
	if err != nil {
		return nil, err
	}
	if resp.Status/100 == 2 {
		return resp, nil
	}
	refused := resp.Status == http.StatusUnauthorized
	if a.Refused != nil {
		refused = a.Refused(resp.Status, resp.Body)
	}
	err = a.Error(op, resp.Status, resp.Body)
	if refused {
		return nil, &AuthError{Message: err.Error()}
	}
	return nil, err
}

// DecodeAnswer reads the JSON answer of op into v: a malformed answer (not JSON, cut short,
// not the shape asked for) is an error naming the channel and the operation.
func DecodeAnswer(channel, op string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s %s: malformed answer: %w", channel, op, err)
	}
	return nil
}
