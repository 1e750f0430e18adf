package amazon

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// exchange is the Login with Amazon refresh-token grant at the auth endpoint (form-encoded).
// An invalid_grant or invalid_client answer is a *connectors.AuthError: the runtime counts
// it toward the channel's disconnection.
func exchange(ctx context.Context, s *connectors.Session) (connectors.Token, error) {
	cr := s.Credentials.(credentials)
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {cr.RefreshToken},
		"client_id": {cr.ClientID}, "client_secret": {cr.ClientSecret}}
	resp, err := s.Call(ctx, OpToken, connectors.Request{Method: http.MethodPost, URL: s.Endpoints.Auth,
		Header: http.Header{"Content-Type": {"application/x-www-form-urlencoded;charset=UTF-8"}}, Body: []byte(form.Encode())})
	if err != nil {
		return connectors.Token{}, err
	}
	var t struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if resp.Status/100 != 2 {
		e := connectors.ParseOAuthError(resp.Body)
		if e.Code == "invalid_grant" || e.Code == "invalid_client" || e.Code == "unauthorized_client" {
			return connectors.Token{}, &connectors.AuthError{Message: e.Message()}
		}
		return connectors.Token{}, fmt.Errorf("amazon token: status %d: %s", resp.Status, e.Message())
	}
	jerr := json.Unmarshal(resp.Body, &t)
	if jerr != nil || t.AccessToken == "" || t.ExpiresIn <= 0 {
		slog.WarnContext(ctx, "amazon: malformed token answer", "account", s.Account, "channel", s.Channel)
		return connectors.Token{}, fmt.Errorf("amazon token: the answer has no access_token and expires_in")
	}
	return connectors.Token{Value: t.AccessToken, ExpiresAt: time.Now().Add(time.Duration(t.ExpiresIn) * time.Second)}, nil
}

// apiError is an answer of the Selling Partner API other than 2xx, with Amazon's errors.
type apiError struct {
	Op     string
	Status int
	Errors []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details string `json:"details"`
	}
}

// Error implements the error interface: Amazon's own messages.
func (e *apiError) Error() string {
	msgs := make([]string, 0, len(e.Errors))
	for _, x := range e.Errors {
		m := x.Code + ": " + x.Message
		if x.Details != "" {
			m += " (" + x.Details + ")"
		}
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		msgs = append(msgs, http.StatusText(e.Status))
	}
	return fmt.Sprintf("amazon %s: status %d: %s", e.Op, e.Status, strings.Join(msgs, "; "))
}

// call makes an authorized call of op (path and query appended to the API endpoint; in,
// when set, sent as JSON) and returns the body of a 2xx answer. A 401, or a 403 Amazon
// says is the token's (code Unauthorized or InvalidAccessToken...), is a
// *connectors.AuthError; another status an *apiError.
func call(ctx context.Context, s *connectors.Session, op, method, path string, q url.Values, in any) ([]byte, error) {
	tok, err := s.AccessToken(ctx, func(ctx context.Context) (connectors.Token, error) { return exchange(ctx, s) })
	if err != nil {
		return nil, err
	}
	u := s.Endpoints.API + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := connectors.JSONRequest(method, u, http.Header{"x-amz-access-token": {tok}, "Accept": {"application/json"}}, in)
	if err != nil {
		return nil, err
	}
	resp, err := s.Call(ctx, op, req)
	if err != nil {
		return nil, err
	}
	if resp.Status/100 == 2 {
		return resp.Body, nil
	}
	e := &apiError{Op: op, Status: resp.Status}
	var body struct {
		Errors json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(resp.Body, &body) == nil {
		_ = json.Unmarshal(body.Errors, &e.Errors)
	}
	if resp.Status == http.StatusUnauthorized || resp.Status == http.StatusForbidden && tokenRefused(e) {
		return nil, &connectors.AuthError{Message: e.Error()}
	}
	return nil, e
}

// tokenRefused reports whether a 403 is Amazon refusing the access token (rather than a
// missing role of the app, which a new token does not cure either but which names itself).
func tokenRefused(e *apiError) bool {
	for _, x := range e.Errors {
		if x.Code == "Unauthorized" || x.Code == "InvalidAccessToken" || x.Code == "AccessDenied" {
			return true
		}
	}
	return len(e.Errors) == 0
}

// decode reads a 2xx answer of op into v; a malformed answer is logged and returned as an
// error naming the operation.
func decode(ctx context.Context, s *connectors.Session, op string, body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		slog.WarnContext(ctx, "amazon: malformed answer", "op", op, "account", s.Account, "channel", s.Channel, "error", err.Error())
		return fmt.Errorf("amazon %s: malformed answer: %w", op, err)
	}
	return nil
}
