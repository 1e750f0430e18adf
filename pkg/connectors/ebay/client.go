package ebay

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// call makes an authorized call of op (method, path under the API endpoint, a JSON body when
// in is not nil), with an access token of the sell scopes, and returns the answer of a 2xx.
// A 401 is a *connectors.AuthError; another status an error with eBay's messages.
func call(ctx context.Context, s *connectors.Session, op, method, path string, in any) (*connectors.Response, error) {
	return callAt(ctx, s, op, method, strings.TrimSuffix(s.Endpoints.API, "/"), path, in, exchange)
}

// callAt is call to path under the host base, with the access token exchange makes.
func callAt(ctx context.Context, s *connectors.Session, op, method, base, path string, in any,
	exchange func(context.Context, *connectors.Session) (connectors.Token, error)) (*connectors.Response, error) {
	req, err := connectors.JSONRequest(method, base+path, http.Header{
		"Accept":                  {"application/json"},
		"X-Ebay-C-Marketplace-Id": {s.Credentials.(credentials).MarketplaceID},
	}, in)
	if err != nil {
		return nil, err
	}
	return s.Authorized(ctx, op, req, connectors.Authorized{Exchange: exchange,
		Error: func(_ string, status int, body []byte) error {
			var e ErrorBody
			_ = json.Unmarshal(body, &e)
			return &apiError{Status: status, Errors: e.Errors,
				msg: fmt.Sprintf("ebay %s %s: status %d: %s", method, strings.SplitN(path, "?", 2)[0], status, errorMessage(body))}
		}})
}

// apiError is an answer of eBay's REST APIs other than 2xx: its status and eBay's errors.
type apiError struct {
	Status int
	Errors []Error
	msg    string
}

// Error implements the error interface.
func (e *apiError) Error() string { return e.msg }

// has reports whether eBay's errors hold one of ids.
func (e *apiError) has(ids ...int) bool {
	for _, x := range e.Errors {
		if slices.Contains(ids, x.ErrorID) {
			return true
		}
	}
	return false
}

// errorMessage is eBay's messages in an error body, else the start of the body.
func errorMessage(body []byte) string {
	var e ErrorBody
	_ = json.Unmarshal(body, &e)
	return clip(messages(e.Errors), string(body))
}

// messages joins eBay errors as "message (errorId n)".
func messages(errs []Error) string {
	var parts []string
	for _, e := range errs {
		parts = append(parts, fmt.Sprintf("%s (errorId %d)", cmp.Or(e.Message, e.LongMessage, e.Category), e.ErrorID))
	}
	return strings.Join(parts, "; ")
}

// maxQuoted bounds what of an unreadable answer an error quotes.
const maxQuoted = 200

// clip is msg, or when it is empty the start of body.
func clip(msg, body string) string {
	if msg != "" {
		return msg
	}
	if len(body) > maxQuoted {
		body = strings.ToValidUTF8(body[:maxQuoted], "") + "..."
	}
	return strings.TrimSpace(body)
}
