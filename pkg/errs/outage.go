package errs

import (
	"context"
	"errors"
	"net"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
)

// UnavailableMessage is the message of every KindUnavailable error a client
// sees (a 503).
const UnavailableMessage = "Service temporarily unavailable"

// Outage reports whether err is a dependency's failure rather than a bug:
// a call that ran out of time (its context's deadline, or a network
// timeout), a refused or reset connection, throttling, or a 5xx of an AWS
// service — the errors the AWS SDK itself would retry.
func Outage(err error) bool {
	if err == nil {
		return false
	}
	if TimedOut(err) {
		return true
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return true
	}
	return retry.IsErrorRetryables(retry.DefaultRetryables).IsErrorRetryable(err) == aws.TrueTernary
}

// TimedOut reports whether err is a call that ran out of time: its request
// may have reached the dependency and taken effect without an answer.
func TimedOut(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return retry.IsErrorTimeouts(retry.DefaultTimeouts).IsErrorTimeout(err) == aws.TrueTernary
}

// Unavailable is a KindUnavailable error caused by err.
func Unavailable(err error) *Error {
	return &Error{Kind: KindUnavailable, Message: UnavailableMessage, Err: err}
}

// OutcomeUnknown is the KindUnavailable error of a write that may have taken
// effect: requestID (when not empty) is where the client can look it up.
func OutcomeUnknown(requestID string, err error) *Error {
	e := Unavailable(err)
	e.OutcomeUnknown, e.RequestID = true, requestID
	return e
}
