package api

import (
	"fmt"
	"net/http"
)

// Error is a client error with the HTTP status and the body the API answers
// with. A handler returns it (possibly wrapped) to end a request with a 4xx.
type Error struct {
	Status  int
	Message string
	// Fields, when set, is the warehouse-style validation body
	// {"error":{"field":["message"]}} and replaces Message.
	Fields map[string][]string
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Fields != nil {
		return fmt.Sprintf("%d: %v", e.Status, e.Fields)
	}
	return fmt.Sprintf("%d: %s", e.Status, e.Message)
}

// body is the JSON body of the error response.
func (e *Error) body() any {
	if e.Fields != nil {
		return map[string]any{"error": e.Fields}
	}
	return map[string]string{"error": e.Message}
}

// Errorf returns an *Error with the status and a formatted message.
func Errorf(status int, format string, args ...any) *Error {
	return &Error{Status: status, Message: fmt.Sprintf(format, args...)}
}

// BadRequest is a 400: the body is not JSON or not a JSON object.
func BadRequest(msg string) *Error { return &Error{Status: http.StatusBadRequest, Message: msg} }

// NotFound is a 404 with the given message.
func NotFound(msg string) *Error { return &Error{Status: http.StatusNotFound, Message: msg} }

// Conflict is a 409 with the given message.
func Conflict(msg string) *Error { return &Error{Status: http.StatusConflict, Message: msg} }

// Invalid is a 422 whose message names the offending field.
func Invalid(format string, args ...any) *Error {
	return Errorf(http.StatusUnprocessableEntity, format, args...)
}

// FieldErrors is a 422 in the per-field shape {"error":{"field":["msg"]}}.
func FieldErrors(fields map[string][]string) *Error {
	return &Error{Status: http.StatusUnprocessableEntity, Fields: fields}
}
