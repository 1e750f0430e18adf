package gateway

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/google/uuid"
)

// proxyRequest builds the Lambda proxy-integration event of a request. Path and path
// parameters stay percent-encoded, as API Gateway passes them; the query is decoded.
func (g *Gateway) proxyRequest(r *http.Request, rt *route, resourcePath string, params map[string]string, body []byte, requestID string) events.APIGatewayProxyRequest {
	headers, multiHeaders := g.headers(r)
	query, multiQuery := queryParams(r.URL.RawQuery)
	now := time.Now().UTC()
	sourceIP := clientIP(r)
	return events.APIGatewayProxyRequest{
		Resource:                        rt.event.Path,
		Path:                            resourcePath,
		HTTPMethod:                      r.Method,
		Headers:                         headers,
		MultiValueHeaders:               multiHeaders,
		QueryStringParameters:           query,
		MultiValueQueryStringParameters: multiQuery,
		PathParameters:                  params,
		Body:                            string(body),
		RequestContext: events.APIGatewayProxyRequestContext{
			AccountID:         g.opts.AccountID,
			ResourceID:        "local",
			Stage:             g.stage,
			DomainName:        r.Host,
			DomainPrefix:      strings.SplitN(r.Host, ".", 2)[0],
			RequestID:         requestID,
			ExtendedRequestID: strings.ReplaceAll(uuid.NewString(), "-", "")[:16],
			Protocol:          r.Proto,
			Identity:          events.APIGatewayRequestIdentity{SourceIP: sourceIP, UserAgent: r.UserAgent()},
			ResourcePath:      rt.event.Path,
			Path:              "/" + g.stage + resourcePath,
			HTTPMethod:        r.Method,
			RequestTime:       now.Format("02/Jan/2006:15:04:05 -0700"),
			RequestTimeEpoch:  now.UnixMilli(),
			APIID:             g.opts.APIID,
		},
	}
}

// headers returns the request headers as API Gateway passes them: the last value per
// name, and all values, plus Host and the X-Forwarded-* headers it adds.
func (g *Gateway) headers(r *http.Request) (map[string]string, map[string][]string) {
	multi := make(map[string][]string, len(r.Header)+4)
	for k, vs := range r.Header {
		multi[k] = append([]string(nil), vs...)
	}
	multi["Host"] = []string{r.Host}
	forwarded := clientIP(r)
	if prior := r.Header.Get("X-Forwarded-For"); prior != "" {
		forwarded = prior + ", " + forwarded
	}
	multi["X-Forwarded-For"] = []string{forwarded}
	if _, port, err := net.SplitHostPort(r.Host); err == nil {
		multi["X-Forwarded-Port"] = []string{port}
	}
	multi["X-Forwarded-Proto"] = []string{"http"}
	multi["X-Amzn-Trace-Id"] = []string{"Root=1-" + strings.ReplaceAll(uuid.NewString(), "-", "")[:24]}
	single := make(map[string]string, len(multi))
	for k, vs := range multi {
		single[k] = vs[len(vs)-1]
	}
	return single, multi
}

// queryParams decodes a query string into the single-value (last value wins) and
// multi-value maps; both are nil without a query, as in API Gateway's events.
func queryParams(raw string) (map[string]string, map[string][]string) {
	if raw == "" {
		return nil, nil
	}
	values, _ := url.ParseQuery(raw) // keep what parses, as API Gateway does
	if len(values) == 0 {
		return nil, nil
	}
	single := make(map[string]string, len(values))
	multi := make(map[string][]string, len(values))
	for k, vs := range values {
		multi[k] = vs
		single[k] = vs[len(vs)-1]
	}
	return single, multi
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
