package api

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/deadline"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// Public adapts h to API Gateway for a public route, one without the authorizer that a
// browser reaches (a marketplace's redirect back to multisell): there is no account, so no
// account's rate limit either; the request is logged with its id, never its query. h answers
// a redirect (SeeOther) or a page (TextPage); an error is a plain-text page of its kind's status
// with its message (a 500 page for anything else, logged). Every answer is kept out of
// caches and sends no Referer onward.
func Public(h Handler) LambdaHandler {
	return func(ctx context.Context, ev events.APIGatewayProxyRequest) (resp events.APIGatewayProxyResponse, err error) {
		start := time.Now()
		ctx, cancel := deadline.Reserve(ctx, answerMargin)
		defer cancel()
		ctx, meter := store.EnsureMeter(ctx)
		log := slog.Default().With("request_id", ev.RequestContext.RequestID, "method", ev.HTTPMethod, "resource", ev.Resource)
		ctx = logctx.With(ctx, log)
		defer func() {
			if p := recover(); p != nil {
				log.Error("panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
				resp = page(http.StatusInternalServerError, "Internal server error")
			}
			log.Info("request", "status", resp.StatusCode, "duration_ms", time.Since(start).Milliseconds(),
				"ddb_calls", meter.Calls(), "ddb_rcu", meter.ReadUnits(), "ddb_wcu", meter.WriteUnits())
		}()
		out, herr := h(ctx, &Request{APIGatewayProxyRequest: ev})
		if herr != nil {
			return errorPage(log, herr), nil
		}
		if loc, ok := out.Header["Location"]; ok {
			r := page(out.Status, "")
			r.Headers["Location"] = loc
			return r, nil
		}
		text, _ := out.Body.(string)
		return page(out.Status, text), nil
	}
}

// SeeOther sends the browser to location (303 See Other).
func SeeOther(location string) *Response {
	return &Response{Status: http.StatusSeeOther, Header: map[string]string{"Location": location}}
}

// TextPage is a 200 plain-text page of a public route.
func TextPage(text string) *Response { return &Response{Status: http.StatusOK, Body: text} }

// errorPage is the page of a public route's error: a client kind's status and message, 503
// for an outage, else 500 (logged).
func errorPage(log *slog.Logger, err error) events.APIGatewayProxyResponse {
	kind := errs.KindOf(err)
	e, typed := errs.As(err)
	status, client := statusOf[kind]
	switch {
	case kind == errs.KindUnavailable:
		return page(http.StatusServiceUnavailable, "Service temporarily unavailable: try again in a moment")
	case !typed || !client || e.Fields != nil:
		log.Error("handler", "error", err)
		return page(http.StatusInternalServerError, "Internal server error")
	}
	return page(status, e.Message)
}

// page is a plain-text answer of a public route.
func page(status int, text string) events.APIGatewayProxyResponse {
	return events.APIGatewayProxyResponse{StatusCode: status, Body: text, Headers: map[string]string{
		"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}}
}
