// Package errs types the errors multisell's rules and storage return by
// what went wrong (their Kind), so the code that finds a problem never
// decides how a caller is told of it. The HTTP edge (pkg/api) maps each kind
// to a status and a body in one table; a queue consumer logs and counts it.
// An error that is not an *Error is a bug (KindInternal) or, when it is a
// dependency's failure (see Outage), KindUnavailable; no detail of either
// reaches a client.
package errs

import (
	"errors"
	"fmt"
)

// Kind is what went wrong, in terms a client can act on.
type Kind int

// The kinds of error.
const (
	// KindInternal is a bug or a failed dependency: the client can only retry.
	KindInternal Kind = iota
	// KindMalformed is a request that cannot be read at all: a body that is not
	// a JSON object, or one without the thing the call is about.
	KindMalformed
	// KindInvalid is a request that can be read but breaks a rule; the message
	// names the field.
	KindInvalid
	// KindNotFound is a resource the account does not have.
	KindNotFound
	// KindConflict is a request that contradicts the stored state: a record
	// that exists already, or a change that lost a race too often.
	KindConflict
	// KindTooLarge is a request body over the size limit.
	KindTooLarge
	// KindUnavailable is a dependency (DynamoDB, SQS) that failed or did not
	// answer in time: the client may retry after a short wait.
	KindUnavailable
)

var kindNames = [...]string{"internal", "malformed", "invalid", "not found", "conflict", "too large", "unavailable"}

// Client reports whether the kind is the request's fault (a 4xx), as
// opposed to a bug or an outage, which a retry may get past.
func (k Kind) Client() bool { return k != KindInternal && k != KindUnavailable }

// String returns the kind's name, as logs show it.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Error is an error of a known kind with the message a client sees.
type Error struct {
	Kind    Kind
	Message string
	// Fields, when set, are per-field messages ({"field": ["message"]}),
	// the warehouse validation shape; Message is then unused.
	Fields map[string][]string
	// OutcomeUnknown marks a KindUnavailable error of a write that may have
	// taken effect; RequestID, when set, is where the client can look up
	// what became of it.
	OutcomeUnknown bool
	RequestID      string
	// Err is the cause, for the logs.
	Err error
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Fields != nil {
		return fmt.Sprintf("%s: %v", e.Kind, e.Fields)
	}
	return fmt.Sprintf("%s: %s", e.Kind, e.Message)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an *Error of kind k with a formatted message.
func Errorf(k Kind, format string, args ...any) *Error {
	return &Error{Kind: k, Message: fmt.Sprintf(format, args...)}
}

// Invalid is a KindInvalid error with a formatted message that names the field.
func Invalid(format string, args ...any) *Error { return Errorf(KindInvalid, format, args...) }

// Fields is a KindInvalid error with per-field messages.
func Fields(fields map[string][]string) *Error { return &Error{Kind: KindInvalid, Fields: fields} }

// Malformed is a KindMalformed error with the message.
func Malformed(msg string) *Error { return &Error{Kind: KindMalformed, Message: msg} }

// NotFound is a KindNotFound error with the message.
func NotFound(msg string) *Error { return &Error{Kind: KindNotFound, Message: msg} }

// Conflict is a KindConflict error with the message.
func Conflict(msg string) *Error { return &Error{Kind: KindConflict, Message: msg} }

// TooLarge is a KindTooLarge error with the message.
func TooLarge(msg string) *Error { return &Error{Kind: KindTooLarge, Message: msg} }

// As returns the *Error in err's chain, if there is one.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// KindOf returns the kind of err: that of the *Error in its chain, else
// KindUnavailable for a dependency's failure (Outage), else KindInternal. A
// nil err has no kind; KindOf(nil) is KindInternal too, so check err != nil
// first.
func KindOf(err error) Kind {
	if e, ok := As(err); ok {
		return e.Kind
	}
	if Outage(err) {
		return KindUnavailable
	}
	return KindInternal
}
