package api

import (
	"net/http"
	"strconv"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/errs"
)

// statusOf is the HTTP status of each error kind: the one place where what
// went wrong becomes a status code (docs/api-conventions.md lists them).
var statusOf = map[errs.Kind]int{
	errs.KindMalformed:   http.StatusBadRequest,
	errs.KindInvalid:     http.StatusUnprocessableEntity,
	errs.KindNotFound:    http.StatusNotFound,
	errs.KindConflict:    http.StatusConflict,
	errs.KindTooLarge:    http.StatusRequestEntityTooLarge,
	errs.KindUnavailable: http.StatusServiceUnavailable,
}

// RetryAfterUnavailable is the Retry-After, in seconds, of a 503: about how
// long a dependency's hiccup lasts.
const RetryAfterUnavailable = 5

// failure is the response to a handler's error, and whether the client
// caused it: an errs.Error of a client kind is its status with
// {"error":"message"} (or {"error":{"field":["message"]}} for per-field
// errors); a dependency's failure is a 503 (see unavailable); anything else
// is a 500 whose details only the log sees.
func failure(err error) (resp events.APIGatewayProxyResponse, clientError bool) {
	kind := errs.KindOf(err)
	if kind == errs.KindUnavailable {
		return unavailable(err), false
	}
	e, ok := errs.As(err)
	if !ok {
		return internalError(), false
	}
	status, ok := statusOf[kind]
	switch {
	case !ok:
		return internalError(), false
	case e.Fields != nil:
		return (&Response{Status: status, Body: map[string]any{"error": e.Fields}}).proxy(), true
	default:
		return (&Response{Status: status, Body: map[string]string{"error": e.Message}}).proxy(), true
	}
}

// Unavailable is the 503 of an outage, as API Gateway's AUTHORIZER_FAILURE
// response repeats it (template.yaml).
func Unavailable() events.APIGatewayProxyResponse { return unavailable(nil) }

// unavailable is the 503 of a dependency's failure, with Retry-After:
// {"error":"Service temporarily unavailable"}, plus "outcome":"unknown"
// (and the request_id to look it up, when there is one) for a write that
// may have taken effect.
func unavailable(err error) events.APIGatewayProxyResponse {
	body := map[string]string{"error": errs.UnavailableMessage}
	if e, ok := errs.As(err); ok && e.OutcomeUnknown {
		body["outcome"] = "unknown"
		if e.RequestID != "" {
			body["request_id"] = e.RequestID
		}
	}
	resp := (&Response{Status: http.StatusServiceUnavailable, Body: body}).proxy()
	resp.Headers["Retry-After"] = strconv.Itoa(RetryAfterUnavailable)
	return resp
}
