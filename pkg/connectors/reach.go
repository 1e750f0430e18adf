package connectors

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Unreachable is a channel call that got no answer: the channel's address refused or reset
// the connection, did not answer in time, or its name or certificate failed. It is the
// channel's failure, never an outage of multisell's own dependencies: it unwraps to nothing,
// so that errs.KindOf does not make it a 503 (a connect answers it as a 422 naming the
// address and the network error).
type Unreachable struct {
	Method, URL string
	Reason      string
}

// Error implements the error interface.
func (e *Unreachable) Error() string {
	return fmt.Sprintf("%s %s: the channel is unreachable: %s", e.Method, e.URL, e.Reason)
}

// unreachable is the error of a channel call that failed without an answer: *Unreachable,
// unless ctx ended (the caller's deadline or cancellation, kept as it is), err is already of
// a kind, or it is the Policy refusing the address (*webhookhttp.AddrError, kept to be found).
func unreachable(ctx context.Context, method string, u *url.URL, err error) error {
	var refused *webhookhttp.AddrError
	if _, typed := errs.As(err); typed || ctx.Err() != nil || errors.As(err, &refused) {
		return fmt.Errorf("%s %s: %w", method, u.Redacted(), err)
	}
	reason := err
	var ue *url.Error
	if errors.As(err, &ue) {
		reason = ue.Err
	}
	return &Unreachable{Method: method, URL: u.Redacted(), Reason: reason.Error()}
}

// readAnswer reads a channel's answer body, refusing one over maxResponse bytes as such.
func readAnswer(body io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("read the response: %w", err)
	}
	if len(b) > maxResponse {
		return nil, fmt.Errorf("answer over %d MiB: refused", maxResponse>>20)
	}
	return b, nil
}

// noRedirect is the CheckRedirect of channel calls: a redirect is answered as it is, never
// followed, so a channel's bearer token or credentials go to no address but the one called
// (as the webhook sender does).
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
