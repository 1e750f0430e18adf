package gateway

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/local/template"
)

// MaxRequestBytes is API Gateway's payload limit (10 MB); larger requests get 413.
const MaxRequestBytes = 10 << 20

// Options configures a Gateway.
type Options struct {
	// AuthCacheTTL is how long an authorizer's Allow result is reused for the same
	// identity (the Authorization header). 0 disables the cache; the template's
	// ReauthorizeEvery is what API Gateway uses.
	AuthCacheTTL time.Duration
	// Logger receives an access log line per request (Info) and handler failures (Error).
	// Default slog.Default().
	Logger *slog.Logger
	// Region, AccountID and APIID appear in ARNs and request contexts.
	Region    string
	AccountID string
	APIID     string
	// MaxRequestBytes overrides MaxRequestBytes (for tests).
	MaxRequestBytes int64
	// UsagePlans, when set, plays the usage plans of an API whose key source is the
	// authorizer and whose methods require a key: the authorizer's usageIdentifierKey names
	// the request's API key, UsagePlans its plan's throttle, and each key is throttled on
	// its own (usageplans.go). Nil plays none, as the shared test stack does.
	UsagePlans KeyPlans
	// Now is the clock of the usage plans' throttle; nil means time.Now.
	Now func() time.Time
	// Docs, when set, answers DocsPath (/docs), outside the stage and without the
	// authorizer: the API reference page (a ReferencePage). API Gateway serves none; the
	// page is hosted apart (make docs).
	Docs http.Handler
}

// HTTPHandler is the signature of an API function (app.HTTPHandler).
type HTTPHandler = func(context.Context, events.APIGatewayProxyRequest) (events.APIGatewayProxyResponse, error)

// AuthorizerHandler is the signature of a REQUEST authorizer (app.AuthorizerHandler).
type AuthorizerHandler = func(context.Context, events.APIGatewayCustomAuthorizerRequestTypeRequest) (events.APIGatewayCustomAuthorizerResponse, error)

// SQSHandler is the signature of an SQS consumer (app.SQSHandler).
type SQSHandler = func(context.Context, events.SQSEvent) (events.SQSEventResponse, error)

// DynamoDBHandler is the signature of a DynamoDB stream consumer.
type DynamoDBHandler = func(context.Context, events.DynamoDBEvent) (events.DynamoDBEventResponse, error)

// Gateway serves a template's REST API. It is safe for concurrent use.
type Gateway struct {
	api           *template.API
	stage         string
	routes        []*route
	http          map[string]HTTPHandler       // by function logical id
	authorizers   map[string]AuthorizerHandler // by function logical id
	authorizerFns map[string]*template.Function
	opts          Options
	log           *slog.Logger
	cache         *authCache
	buckets       *buckets
}

// NewGateway builds the gateway of tpl's API, taking each function's handler from lookup
// by its CodeUri folder name. Every routed function and authorizer must have a handler of
// the right type.
func NewGateway(tpl *template.Template, lookup Lookup, opts Options) (*Gateway, error) {
	if tpl.API == nil {
		return nil, errors.New("local gateway: the template has no AWS::Serverless::Api")
	}
	opts.Region = cmp.Or(opts.Region, "us-east-1")
	opts.AccountID = cmp.Or(opts.AccountID, "000000000000")
	opts.APIID = cmp.Or(opts.APIID, "local")
	opts.MaxRequestBytes = cmp.Or(opts.MaxRequestBytes, MaxRequestBytes)
	g := &Gateway{
		api:           tpl.API,
		stage:         tpl.API.StageName,
		http:          map[string]HTTPHandler{},
		authorizers:   map[string]AuthorizerHandler{},
		authorizerFns: map[string]*template.Function{},
		opts:          opts,
		log:           cmp.Or(opts.Logger, slog.Default()),
		cache:         newAuthCache(opts.AuthCacheTTL),
		buckets:       &buckets{byKey: map[string]*bucket{}},
	}
	for i := range tpl.Functions {
		fn := &tpl.Functions[i]
		for _, ev := range fn.APIEvents {
			if ev.RestAPI != "" && ev.RestAPI != tpl.API.LogicalID {
				continue
			}
			az := tpl.API.AuthorizerFor(ev)
			if az != nil {
				if err := g.loadAuthorizer(tpl, lookup, az); err != nil {
					return nil, err
				}
			}
			r, err := compileRoute(fn, ev, az)
			if err != nil {
				return nil, fmt.Errorf("local gateway: %s: %w", fn.LogicalID, err)
			}
			if _, ok := g.http[fn.LogicalID]; !ok {
				h, err := lookup(fn.Folder)
				if err != nil {
					return nil, fmt.Errorf("local gateway: handler of %s: %w", fn.LogicalID, err)
				}
				hh, ok := h.(HTTPHandler)
				if !ok {
					return nil, fmt.Errorf("local gateway: %s (%s) is routed but its handler is a %T", fn.LogicalID, fn.Folder, h)
				}
				g.http[fn.LogicalID] = hh
			}
			g.routes = append(g.routes, r)
		}
	}
	return g, nil
}

func (g *Gateway) loadAuthorizer(tpl *template.Template, lookup Lookup, az *template.Authorizer) error {
	if _, ok := g.authorizers[az.Function]; ok {
		return nil
	}
	if az.PayloadType != "REQUEST" {
		return fmt.Errorf("local gateway: authorizer %s: only REQUEST authorizers are supported", az.Name)
	}
	fn, ok := tpl.Function(az.Function)
	if !ok {
		return fmt.Errorf("local gateway: authorizer %s: %s is not a function", az.Name, az.Function)
	}
	h, err := lookup(fn.Folder)
	if err != nil {
		return fmt.Errorf("local gateway: authorizer %s: %w", az.Name, err)
	}
	ah, ok := h.(AuthorizerHandler)
	if !ok {
		return fmt.Errorf("local gateway: authorizer %s: handler of %s is a %T", az.Name, fn.Folder, h)
	}
	g.authorizers[az.Function] = ah
	g.authorizerFns[az.Function] = fn
	return nil
}

// Stage returns the stage name the API is served under (/v1).
func (g *Gateway) Stage() string { return g.stage }

// ServeHTTP serves one request as API Gateway would.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	requestID := uuid.NewString()
	rec := &statusRecorder{ResponseWriter: w}
	fnName, answered := g.serve(rec, r, requestID)
	// Responses of the functions are logged by the functions; the gateway's own at Info.
	level := slog.LevelInfo
	if answered {
		level = slog.LevelDebug
	}
	g.log.Log(r.Context(), level, "request", "method", r.Method, "path", r.URL.EscapedPath(), "status", rec.status,
		"function", fnName, "request_id", requestID, "duration_ms", time.Since(start).Milliseconds())
}

// serve handles the request; it returns the logical id of the function that ran, if any,
// and whether that function's own response was sent.
func (g *Gateway) serve(w http.ResponseWriter, r *http.Request, requestID string) (string, bool) {
	raw := r.URL.EscapedPath()
	if g.opts.Docs != nil && (raw == DocsPath || raw == DocsPath+"/") {
		g.opts.Docs.ServeHTTP(w, r)
		return "", false
	}
	if r.Method == http.MethodDelete && raw == g.flushPath() {
		_ = g.FlushAuthorizers(r.Context())
		w.WriteHeader(http.StatusAccepted)
		return "", false
	}
	prefix := "/" + g.stage
	if raw != prefix && !strings.HasPrefix(raw, prefix+"/") {
		g.writeGatewayResponse(w, r, respMissingAuthToken, requestID)
		return "", false
	}
	resourcePath := cmp.Or(strings.TrimPrefix(raw, prefix), "/")

	body, err := io.ReadAll(io.LimitReader(r.Body, g.opts.MaxRequestBytes+1))
	if err != nil {
		g.writeGatewayResponse(w, r, respDefault5XX, requestID)
		return "", false
	}
	if int64(len(body)) > g.opts.MaxRequestBytes {
		g.writeGatewayResponse(w, r, respRequestTooLarge, requestID)
		return "", false
	}

	rt, params := findRoute(g.routes, r.Method, resourcePath)
	if rt == nil {
		g.writeGatewayResponse(w, r, respMissingAuthToken, requestID)
		return "", false
	}
	req := g.proxyRequest(r, rt, resourcePath, params, body, requestID)

	if rt.authorizer != nil {
		authCtx, key, typ := g.authorize(r.Context(), r, rt, req)
		if typ == "" && g.playsUsagePlans() {
			typ = g.throttle(r.Context(), key)
		}
		if typ != "" {
			g.writeGatewayResponse(w, r, typ, requestID)
			return rt.authorizer.Function, false
		}
		req.RequestContext.Authorizer = authCtx
	}

	resp, err := invoke(r.Context(), rt.fn, g.opts.Region, g.opts.AccountID, g.http[rt.fn.LogicalID], req)
	if err != nil {
		g.log.Error("handler failed", "function", rt.fn.LogicalID, "request_id", requestID, "error", err.Error())
		g.writeGatewayResponse(w, r, respDefault5XX, requestID)
		return rt.fn.LogicalID, false
	}
	if err := writeProxyResponse(w, resp, requestID); err != nil {
		g.log.Error("malformed Lambda proxy response", "function", rt.fn.LogicalID, "request_id", requestID, "error", err.Error())
		g.writeGatewayResponse(w, r, respDefault5XX, requestID)
		return rt.fn.LogicalID, false
	}
	return rt.fn.LogicalID, true
}

// writeProxyResponse writes a Lambda proxy response; it writes nothing when it is malformed.
func writeProxyResponse(w http.ResponseWriter, resp events.APIGatewayProxyResponse, requestID string) error {
	if resp.StatusCode < 100 || resp.StatusCode > 599 {
		return fmt.Errorf("status code %d", resp.StatusCode)
	}
	body := []byte(resp.Body)
	if resp.IsBase64Encoded {
		var err error
		if body, err = base64.StdEncoding.DecodeString(resp.Body); err != nil {
			return fmt.Errorf("base64 body: %w", err)
		}
	}
	h := w.Header()
	// Values in both maps come from multiValueHeaders only, as API Gateway merges them.
	for k, vs := range resp.MultiValueHeaders {
		for _, v := range vs {
			h.Add(k, v)
		}
	}
	for k, v := range resp.Headers {
		if _, ok := resp.MultiValueHeaders[k]; !ok {
			h.Set(k, v)
		}
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	h.Set("X-Amzn-Requestid", requestID)
	w.WriteHeader(resp.StatusCode)
	_, _ = io.Copy(w, bytes.NewReader(body))
	return nil
}

// statusRecorder remembers the status written, for the access log.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}
