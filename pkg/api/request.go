package api

import (
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/lenient"
)

// Account is the authenticated caller, taken only from the authorizer's
// context and never from the request itself.
type Account struct {
	ID  string
	RPS int
	RPM int
	// SecretVersion is the account's secret version when the authorizer
	// authenticated the request (its answer may be cached): the rate
	// limiter refuses one that is no longer current.
	SecretVersion int
}

// Request is one API call: the proxy event plus the authenticated account.
type Request struct {
	events.APIGatewayProxyRequest
	Account Account
}

// PathParam returns the path parameter name, percent-decoded exactly once.
func (r *Request) PathParam(name string) string {
	raw := r.PathParameters[name]
	if v, err := url.PathUnescape(raw); err == nil {
		return v
	}
	return raw
}

// Query returns the last value of the query parameter name ("" if absent).
func (r *Request) Query(name string) string {
	if vs := r.MultiValueQueryStringParameters[name]; len(vs) > 0 {
		return vs[len(vs)-1]
	}
	return r.QueryStringParameters[name]
}

// HasQuery reports whether the query parameter name was sent.
func (r *Request) HasQuery(name string) bool {
	if _, ok := r.MultiValueQueryStringParameters[name]; ok {
		return true
	}
	_, ok := r.QueryStringParameters[name]
	return ok
}

// QueryList returns every value of an array parameter in all the forms the
// API accepts (docs/api-conventions.md): for names "sku" and "skus" that is sku, sku[],
// skus and skus[]; a comma is not a separator since SKUs may contain one.
func (r *Request) QueryList(names ...string) []string {
	var out []string
	for _, n := range names {
		for _, key := range []string{n, n + "[]"} {
			if vs, ok := r.MultiValueQueryStringParameters[key]; ok {
				out = append(out, vs...)
			} else if v, ok := r.QueryStringParameters[key]; ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// Header returns the first value of the header name, case-insensitively.
func (r *Request) Header(name string) string {
	return HeaderValue(r.Headers, r.MultiValueHeaders, name)
}

// HeaderValue looks a header up case-insensitively in the single- and
// multi-value header maps of an API Gateway event.
func HeaderValue(single map[string]string, multi map[string][]string, name string) string {
	v, _ := headerLookup(single, multi, name)
	return v
}

// headerLookup is HeaderValue that also reports whether the header is
// present at all (an empty value included).
func headerLookup(single map[string]string, multi map[string][]string, name string) (string, bool) {
	for k, v := range single {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	for k, vs := range multi {
		if strings.EqualFold(k, name) {
			if len(vs) == 0 {
				return "", true
			}
			return vs[0], true
		}
	}
	return "", false
}

// Decode decodes the request body as one JSON object (see
// lenient.DecodeObject).
func (r *Request) Decode() (lenient.Object, error) {
	return lenient.DecodeObject(r.APIGatewayProxyRequest.Body)
}

// ParseTimeRange reads an inclusive range from the first present name of
// mins and of maxs (for example "min_ordered_at" or "ordered_at_min"); an
// unparseable value is 422 naming the parameter.
func ParseTimeRange(r *Request, mins, maxs []string) (isotime.Range, error) {
	var rng isotime.Range
	for _, b := range []struct {
		names []string
		dst   **time.Time
	}{{mins, &rng.Min}, {maxs, &rng.Max}} {
		for _, n := range b.names {
			if !r.HasQuery(n) {
				continue
			}
			t, ok := isotime.Parse(r.Query(n))
			if !ok {
				return rng, errs.Invalid("%s must be an ISO 8601 date-time", n)
			}
			*b.dst = &t
			break
		}
	}
	return rng, nil
}
