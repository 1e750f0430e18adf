package amazon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

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

// authorized is how the Selling Partner API authorises a call: the access token of the
// Login with Amazon grant in x-amz-access-token. Only a 401 is a refusal of the credentials
// (with the token endpoint's own, auth.go); a 403 is a *connectors.Forbidden of the
// operation (answerError), any other status an *apiError.
var authorized = connectors.Authorized{
	Exchange: exchange,
	Header: func(h http.Header, tok string) {
		h.Set("x-amz-access-token", tok)
		h.Set("Accept", "application/json")
	},
	Refused: func(status int, _ []byte) bool { return status == http.StatusUnauthorized },
	Error:   answerError,
}

// answerError is the error of an answer of op other than 2xx: a 403 is Amazon forbidding
// the operation to this seller (a role the app lacks: it never counts toward the
// disconnection), naming its access token when Amazon says the token is expired or
// invalid (tokenStale); any other an *apiError.
func answerError(op string, status int, body []byte) error {
	e := parseAPIError(op, status, body)
	if status != http.StatusForbidden {
		return e
	}
	return &connectors.Forbidden{Op: op, Message: e.Error(), Token: tokenStale(e), Err: e}
}

// call makes an authorized call of op (path and query appended to the API endpoint; in,
// when set, sent as JSON) and returns the body of a 2xx answer. A 403 naming the access
// token is tried once more with a new token.
func call(ctx context.Context, s *connectors.Session, op, method, path string, q url.Values, in any) ([]byte, error) {
	body, err := callAs(ctx, s, authorized, op, method, path, q, in)
	if fb := (*connectors.Forbidden)(nil); errors.As(err, &fb) && fb.Token {
		// Amazon says the access token is expired or revoked before its time: once more
		// with a new one, whose exchange's refusal is what counts toward disconnecting.
		if err := s.DropToken(ctx); err != nil {
			return nil, err
		}
		body, err = callAs(ctx, s, authorized, op, method, path, q, in)
	}
	return body, err
}

// callAs makes the call as call does, authorised by a (authorized, or restricted's).
func callAs(ctx context.Context, s *connectors.Session, a connectors.Authorized, op, method, path string, q url.Values, in any) ([]byte, error) {
	u, err := apiBase(s)
	if err != nil {
		return nil, err
	}
	u += path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := connectors.JSONRequest(method, u, nil, in)
	if err != nil {
		return nil, err
	}
	resp, err := s.Authorized(ctx, op, req, a)
	if err != nil {
		return nil, err
	}
	return resp.Body, nil
}

// parseAPIError is the *apiError of an answer of op other than 2xx.
func parseAPIError(op string, status int, body []byte) *apiError {
	e := &apiError{Op: op, Status: status}
	var b struct {
		Errors json.RawMessage `json:"errors"`
	}
	if json.Unmarshal(body, &b) == nil {
		_ = json.Unmarshal(b.Errors, &e.Errors)
	}
	return e
}

// tokenStale reports whether a 403 is Amazon refusing the access token itself (code
// InvalidAccessToken, or details naming the access token: "The access token you provided
// has expired", "... is revoked, malformed or invalid") rather than an operation the app's
// roles do not allow ("Access to requested resource is denied." and nothing more).
func tokenStale(e *apiError) bool {
	for _, x := range e.Errors {
		if x.Code == "InvalidAccessToken" || strings.Contains(strings.ToLower(x.Details), "access token") {
			return true
		}
	}
	return false
}

// decode reads a 2xx answer of op into v; a malformed answer is logged and returned as an
// error naming the operation.
func decode(ctx context.Context, s *connectors.Session, op string, body []byte, v any) error {
	err := connectors.DecodeAnswer("amazon", op, body, v)
	if err != nil {
		slog.WarnContext(ctx, "amazon: malformed answer", "op", op, "account", s.Account, "channel", s.Channel, "error", s.Clean(err.Error()))
	}
	return err
}
