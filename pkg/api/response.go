package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/aws/aws-lambda-go/events"
)

// ContentType is the Content-Type of every JSON response.
const ContentType = "application/json; charset=utf-8"

// Response is what a Handler returns on success: a status, a body that is
// marshalled to JSON, and extra headers.
type Response struct {
	Status int
	Body   any
	Header map[string]string
}

// OK is a 200 with body.
func OK(body any) *Response { return &Response{Status: http.StatusOK, Body: body} }

// Created is a 201 with body.
func Created(body any) *Response { return &Response{Status: http.StatusCreated, Body: body} }

// Message is a 200 {"message": msg}.
func Message(msg string) *Response { return OK(map[string]string{"message": msg}) }

// WithTotalPages sets the Total-Pages header.
func (r *Response) WithTotalPages(n int) *Response {
	return r.WithHeader("Total-Pages", strconv.Itoa(n))
}

// WithHeader sets the header name to value and returns r.
func (r *Response) WithHeader(name, value string) *Response {
	if r.Header == nil {
		r.Header = map[string]string{}
	}
	r.Header[name] = value
	return r
}

// proxy turns r into the API Gateway proxy response.
func (r *Response) proxy() events.APIGatewayProxyResponse {
	b, err := json.Marshal(r.Body)
	if err != nil {
		return internalError()
	}
	h := map[string]string{"Content-Type": ContentType}
	for k, v := range r.Header {
		h[k] = v
	}
	return events.APIGatewayProxyResponse{StatusCode: r.Status, Headers: h, Body: string(b)}
}

func internalError() events.APIGatewayProxyResponse {
	return events.APIGatewayProxyResponse{
		StatusCode: http.StatusInternalServerError,
		Headers:    map[string]string{"Content-Type": ContentType},
		Body:       `{"error":"Internal server error"}`,
	}
}

// Unauthorized is the 401 every authentication failure gets.
func Unauthorized() events.APIGatewayProxyResponse {
	return events.APIGatewayProxyResponse{
		StatusCode: http.StatusUnauthorized,
		Headers: map[string]string{
			"Content-Type":     ContentType,
			"WWW-Authenticate": `Basic realm="multisell"`,
		},
		Body: `{"error":"Could not authenticate you"}`,
	}
}

// RateLimited is the 403 of an exceeded rate limit, plain text as
// docs/api-conventions.md says, with Retry-After in whole seconds.
func RateLimited(retryAfter int) events.APIGatewayProxyResponse {
	return events.APIGatewayProxyResponse{
		StatusCode: http.StatusForbidden,
		Headers: map[string]string{
			"Content-Type": "text/plain; charset=utf-8",
			"Retry-After":  strconv.Itoa(retryAfter),
		},
		Body: "Rate Limit Exceeded",
	}
}

// Accepted is a 202 with body: work the request started goes on after the
// answer.
func Accepted(body any) *Response { return &Response{Status: http.StatusAccepted, Body: body} }
