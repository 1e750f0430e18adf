package amazon

import (
	"context"
	"encoding/json"
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
// Login with Amazon grant in x-amz-access-token. A 401, or a 403 Amazon says is the token's
// (code Unauthorized or InvalidAccessToken...), is a refusal; another status an *apiError.
var authorized = connectors.Authorized{
	Exchange: exchange,
	Header: func(h http.Header, tok string) {
		h.Set("x-amz-access-token", tok)
		h.Set("Accept", "application/json")
	},
	Refused: func(status int, body []byte) bool {
		return status == http.StatusUnauthorized || status == http.StatusForbidden && tokenRefused(parseAPIError("", status, body))
	},
	Error: func(op string, status int, body []byte) error { return parseAPIError(op, status, body) },
}

// call makes an authorized call of op (path and query appended to the API endpoint; in,
// when set, sent as JSON) and returns the body of a 2xx answer.
func call(ctx context.Context, s *connectors.Session, op, method, path string, q url.Values, in any) ([]byte, error) {
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
	resp, err := s.Authorized(ctx, op, req, authorized)
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
	err := connectors.DecodeAnswer("amazon", op, body, v)
	if err != nil {
		slog.WarnContext(ctx, "amazon: malformed answer", "op", op, "account", s.Account, "channel", s.Channel, "error", s.Clean(err.Error()))
	}
	return err
}
