package api

import (
	"net/url"
	"strings"

	"github.com/aws/aws-lambda-go/events"
)

// Account is the authenticated caller, taken only from the authorizer's
// context and never from the request itself.
type Account struct {
	ID  string
	RPS int
	RPM int
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

// QueryList returns every value of an array parameter in all the forms
// DESIGN.md section 4 accepts: for names "sku" and "skus" that is sku, sku[],
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
	for k, v := range single {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	for k, vs := range multi {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// Decode decodes the request body as one JSON object (see DecodeObject).
func (r *Request) Decode() (Object, error) {
	return DecodeObject(r.APIGatewayProxyRequest.Body)
}
