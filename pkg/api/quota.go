package api

import (
	"strconv"

	"github.com/aws/aws-lambda-go/events"
)

// Quota is an account's rate-limit budget as one request left it: the
// window (second or minute) with fewer requests remaining, and whether the
// request was allowed. docs/api-conventions.md (Rate limits) has the headers.
type Quota struct {
	// Allowed is false when the request was refused (and counted nothing).
	Allowed bool
	// Limit is the number of requests the window allows.
	Limit int
	// Remaining is how many more requests the window allows after this one.
	Remaining int
	// Reset is the whole seconds until the window ends (at least 1); a
	// refused request may be retried then.
	Reset int
}

// The rate-limit headers of every authenticated response.
const (
	HeaderRateLimit     = "X-RateLimit-Limit"
	HeaderRateRemaining = "X-RateLimit-Remaining"
	HeaderRateReset     = "X-RateLimit-Reset"
)

// setHeaders adds q's headers to resp.
func (q Quota) setHeaders(resp *events.APIGatewayProxyResponse) {
	if resp.Headers == nil {
		resp.Headers = map[string]string{}
	}
	resp.Headers[HeaderRateLimit] = strconv.Itoa(q.Limit)
	resp.Headers[HeaderRateRemaining] = strconv.Itoa(q.Remaining)
	resp.Headers[HeaderRateReset] = strconv.Itoa(q.Reset)
}
