package walmart

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/redact"
)

// ServiceName is the WM_SVC.NAME every call carries, as Walmart's reference pages give it.
const ServiceName = "Walmart Marketplace"

// The headers Walmart requires of every call (their names as Walmart writes them).
const (
	HeaderToken       = "WM_SEC.ACCESS_TOKEN"
	HeaderService     = "WM_SVC.NAME"
	HeaderCorrelation = "WM_QOS.CORRELATION_ID"
	// HeaderTokenCount is the count of calls Walmart's answer says are left now.
	HeaderTokenCount = "x-current-token-count"
)

// now is the connector's clock.
var now = time.Now

// wmHeaders are the headers of every call: the service name, a fresh correlation id (a
// random GUID, as Walmart asks, so that no two calls share one) and Accept JSON. The header
// map is set by key as Walmart spells the names (Go would canonicalize WM_SVC.NAME to
// Wm_svc.name; HTTP header names are case-insensitive, and the sandbox reads them so).
func wmHeaders() http.Header {
	return http.Header{
		HeaderService:     {ServiceName},
		HeaderCorrelation: {correlationID()},
		"Accept":          {"application/json"},
	}
}

// correlationID is a new random GUID.
func correlationID() string { return uuid.NewString() }

// call makes an authorized call of op (method, path under the API endpoint, a JSON body when
// in is not nil) and returns the answer of a 2xx; see send.
func call(ctx context.Context, s *connectors.Session, op, method, path string, in any) (*connectors.Response, error) {
	req, err := connectors.JSONRequest(method, apiURL(s, path), wmHeaders(), in)
	if err != nil {
		return nil, err
	}
	return send(ctx, s, op, req)
}

// apiURL is path under the channel's API endpoint.
func apiURL(s *connectors.Session, path string) string {
	return strings.TrimSuffix(s.Endpoints.API, "/") + path
}

// send sends req as op with the channel's access token in WM_SEC.ACCESS_TOKEN (the cached
// one, or a new one from the Token API) and returns the answer of a 2xx. The count of calls
// Walmart says are left (x-current-token-count) becomes the level of op's shared bucket. A
// 401 is the token refused: it is renewed once (one exchange for every instance) and the call
// sent again; a second 401 is a *connectors.AuthError. Another status is an *apiError with
// Walmart's messages.
func send(ctx context.Context, s *connectors.Session, op string, req connectors.Request) (*connectors.Response, error) {
	a := connectors.Authorized{Exchange: exchange,
		Header: func(h http.Header, token string) { h[HeaderToken] = []string{token} },
		Error: func(_ string, status int, body []byte) error {
			return &apiError{Status: status, Errors: gatewayErrors(body),
				msg: fmt.Sprintf("walmart %s %s: status %d: %s", req.Method, strings.SplitN(strings.TrimPrefix(req.URL, s.Endpoints.API), "?", 2)[0], status, errorMessage(body))}
		}}
	resp, err := s.Authorized(ctx, op, req, a)
	if _, refused := err.(*connectors.AuthError); refused { // the answer's 401, not an exchange's refusal (counted already)
		if _, rerr := s.RenewToken(ctx, func(ctx context.Context) (connectors.Token, error) { return exchange(ctx, s) }); rerr != nil {
			return nil, rerr
		}
		req.Header[HeaderCorrelation] = []string{correlationID()}
		resp, err = s.Authorized(ctx, op, req, a)
	}
	if resp != nil {
		reportCount(ctx, s, op, resp.Header)
	}
	return resp, err
}

// reportCount makes op's shared bucket the count of calls Walmart's answer says are left,
// restoring at the connector's rate.
func reportCount(ctx context.Context, s *connectors.Session, op string, h http.Header) {
	v := h.Get(HeaderTokenCount)
	if v == "" {
		return
	}
	n, err := strconv.ParseFloat(v, 64)
	lim, ok := Limits[op]
	if err != nil || !ok || n < 0 {
		return
	}
	if err := s.ReportCost(ctx, op, connectors.CostStatus{Maximum: float64(lim.Burst), Available: n, Restore: lim.Rate}); err != nil {
		slog.WarnContext(ctx, "walmart: the bucket's count not kept", "channel", s.Channel, "op", op, "error", err.Error())
	}
}

// apiError is an answer of Walmart's API other than 2xx: its status and Walmart's errors.
type apiError struct {
	Status int
	Errors []GatewayError
	msg    string
}

// Error implements the error interface.
func (e *apiError) Error() string { return e.msg }

// gatewayErrors reads Walmart's errors from an error body, in the shapes Walmart answers:
// {"errors":{"error":[...]}}, {"errors":[...]} and {"error":[...]}.
func gatewayErrors(body []byte) []GatewayError {
	var nested struct {
		Errors struct {
			Error []GatewayError `json:"error"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &nested) == nil && len(nested.Errors.Error) > 0 {
		return nested.Errors.Error
	}
	var flat struct {
		Errors []GatewayError `json:"errors"`
		Error  []GatewayError `json:"error"`
	}
	if json.Unmarshal(body, &flat) == nil {
		return append(flat.Errors, flat.Error...)
	}
	return nil
}

// errorMessage is Walmart's messages in an error body, else the start of the body.
func errorMessage(body []byte) string {
	return clip(messages(gatewayErrors(body)), string(body))
}

// messages joins Walmart errors as "code: description (info)".
func messages(errs []GatewayError) string {
	var parts []string
	for _, e := range errs {
		p := e.Code
		if e.Description != "" {
			p += ": " + e.Description
		}
		if e.Info != "" && e.Info != e.Description {
			p += " (" + e.Info + ")"
		}
		parts = append(parts, p)
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
	return strings.TrimSpace(redact.Clip(strings.ToValidUTF8(body, ""), maxQuoted))
}
