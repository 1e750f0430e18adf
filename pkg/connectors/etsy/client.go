package etsy

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/multisell/multisell/pkg/connectors"
)

// call makes an authorized call of the Open API (method, path under the API endpoint with
// its query, a body: nil, a form when in is url.Values, else in as JSON) and returns the
// answer of a 2xx. Each call first takes one of the channel's daily calls (DayLimit), then
// one of its per-second calls (OpAPI, in Session.Call). A 401 is a *connectors.AuthError;
// another status an *apiError with Etsy's message.
func call(ctx context.Context, s *connectors.Session, method, path string, in any) (*connectors.Response, error) {
	if err := s.TakeKeyed(ctx, OpDay, DayKey, DayLimit); err != nil {
		return nil, err
	}
	tok, err := accessToken(ctx, s)
	if err != nil {
		return nil, err
	}
	u := strings.TrimSuffix(s.Endpoints.API, "/") + path
	h := http.Header{"Accept": {"application/json"}}
	var req connectors.Request
	if form, ok := in.(url.Values); ok {
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		req = connectors.Request{Method: method, URL: u, Header: h, Body: []byte(form.Encode())}
	} else if req, err = connectors.JSONRequest(method, u, h, in); err != nil {
		return nil, err
	}
	cr := s.Credentials.(credentials)
	return s.Authorized(ctx, OpAPI, req, connectors.Authorized{
		Header: func(h http.Header, _ string) {
			h.Set("Authorization", "Bearer "+tok)
			h.Set("X-Api-Key", apiKey(cr.ClientID, cr.ClientSecret))
		},
		Error: func(_ string, status int, body []byte) error {
			return &apiError{Status: status, msg: fmt.Sprintf("etsy %s %s: status %d: %s", method, strings.SplitN(path, "?", 2)[0], status, errorMessage(body))}
		}})
}

// apiError is an answer of the Open API other than 2xx.
type apiError struct {
	Status int
	msg    string
}

// Error implements the error interface.
func (e *apiError) Error() string { return e.msg }

// maxQuoted bounds what of an unreadable answer an error quotes.
const maxQuoted = 200

// errorMessage is Etsy's error in an error body ({"error", "error_description"}), else the
// start of the body.
func errorMessage(body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		if e.Description != "" {
			return e.Error + ": " + e.Description
		}
		return e.Error
	}
	b := string(body)
	if len(b) > maxQuoted {
		b = strings.ToValidUTF8(b[:maxQuoted], "") + "..."
	}
	return strings.TrimSpace(b)
}
