package api

import (
	"net/http"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/errs"
)

// statusOf is the HTTP status of each error kind: the one place where what
// went wrong becomes a status code (docs/api-conventions.md lists them).
var statusOf = map[errs.Kind]int{
	errs.KindMalformed: http.StatusBadRequest,
	errs.KindInvalid:   http.StatusUnprocessableEntity,
	errs.KindNotFound:  http.StatusNotFound,
	errs.KindConflict:  http.StatusConflict,
	errs.KindTooLarge:  http.StatusRequestEntityTooLarge,
}

// failure is the response to a handler's error, and whether the client
// caused it: an errs.Error of a client kind is its status with
// {"error":"message"} (or {"error":{"field":["message"]}} for per-field
// errors); anything else is a 500 whose details only the log sees.
func failure(err error) (resp events.APIGatewayProxyResponse, clientError bool) {
	e, ok := errs.As(err)
	if !ok {
		return internalError(), false
	}
	status, ok := statusOf[e.Kind]
	switch {
	case !ok:
		return internalError(), false
	case e.Fields != nil:
		return (&Response{Status: status, Body: map[string]any{"error": e.Fields}}).proxy(), true
	default:
		return (&Response{Status: status, Body: map[string]string{"error": e.Message}}).proxy(), true
	}
}
