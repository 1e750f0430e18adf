package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

// authResult is an authorizer's answer as API Gateway reads it from the Lambda response.
type authResult struct {
	PrincipalID    string `json:"principalId"`
	PolicyDocument struct {
		Statement []struct {
			Effect   string    `json:"Effect"`
			Action   stringSet `json:"Action"`
			Resource stringSet `json:"Resource"`
		} `json:"Statement"`
	} `json:"policyDocument"`
	Context map[string]any `json:"context"`
	// UsageIdentifierKey names the request's API key when the API's key source is the
	// authorizer.
	UsageIdentifierKey string `json:"usageIdentifierKey"`
}

// stringSet reads a policy field that may be a string or a list of strings.
type stringSet []string

func (s *stringSet) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*s = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("policy field: %w", err)
	}
	*s = many
	return nil
}

// authorize runs the route's authorizer (or reuses its cached result) and returns the
// requestContext.authorizer map and the usage identifier key, or the gateway response type
// that refuses the request.
func (g *Gateway) authorize(ctx context.Context, r *http.Request, rt *route, req events.APIGatewayProxyRequest) (map[string]any, string, string) {
	az := rt.authorizer
	var identity []string
	for _, name := range az.IdentityHeaders {
		v := r.Header.Get(name)
		if v == "" {
			return nil, "", respUnauthorized // a missing identity source is refused without a call
		}
		identity = append(identity, v)
	}
	methodArn := fmt.Sprintf("arn:aws:execute-api:%s:%s:%s/%s/%s%s",
		g.opts.Region, g.opts.AccountID, g.opts.APIID, g.stage, req.HTTPMethod, req.Path)
	key := az.Function + "\x00" + strings.Join(identity, "\x00")

	res, cached := g.cache.get(key)
	if !cached {
		fn := g.authorizerFns[az.Function]
		event := events.APIGatewayCustomAuthorizerRequestTypeRequest{
			Type:                            "REQUEST",
			MethodArn:                       methodArn,
			Resource:                        req.Resource,
			Path:                            req.Path,
			HTTPMethod:                      req.HTTPMethod,
			Headers:                         req.Headers,
			MultiValueHeaders:               req.MultiValueHeaders,
			QueryStringParameters:           req.QueryStringParameters,
			MultiValueQueryStringParameters: req.MultiValueQueryStringParameters,
			PathParameters:                  req.PathParameters,
			RequestContext: events.APIGatewayCustomAuthorizerRequestTypeRequestContext{
				Path:         req.RequestContext.Path,
				AccountID:    g.opts.AccountID,
				ResourceID:   req.RequestContext.ResourceID,
				Stage:        g.stage,
				RequestID:    req.RequestContext.RequestID,
				Identity:     events.APIGatewayCustomAuthorizerRequestTypeRequestIdentity{SourceIP: req.RequestContext.Identity.SourceIP},
				ResourcePath: req.Resource,
				HTTPMethod:   req.HTTPMethod,
				APIID:        g.opts.APIID,
			},
		}
		out, err := invoke(ctx, fn, g.opts.Region, g.opts.AccountID, g.authorizers[az.Function], event)
		if err != nil {
			if err.Error() == "Unauthorized" {
				return nil, "", respUnauthorized
			}
			g.log.Error("authorizer failed", "function", az.Function, "request_id", req.RequestContext.RequestID, "error", err.Error())
			return nil, "", respAuthorizerFailure
		}
		if err := roundTrip(out, &res); err != nil {
			g.log.Error("authorizer response unreadable", "function", az.Function, "error", err.Error())
			return nil, "", respAuthorizerConfig
		}
		if len(res.PolicyDocument.Statement) == 0 || res.PrincipalID == "" {
			g.log.Error("authorizer response lacks principalId or policy statements", "function", az.Function)
			return nil, "", respAuthorizerConfig
		}
		for k, v := range res.Context {
			switch v.(type) {
			case string, float64, bool, nil:
			default:
				g.log.Error("authorizer context values must be strings, numbers or booleans", "function", az.Function, "key", k)
				return nil, "", respAuthorizerConfig
			}
		}
		if res.allows(methodArn) {
			g.cache.put(key, res)
		}
	}
	if !res.allows(methodArn) {
		return nil, "", respAccessDenied
	}
	// API Gateway hands the context to the integration with every value stringified.
	out := make(map[string]any, len(res.Context)+2)
	for k, v := range res.Context {
		switch x := v.(type) {
		case string:
			out[k] = x
		case float64:
			out[k] = strconv.FormatFloat(x, 'f', -1, 64)
		case bool:
			out[k] = strconv.FormatBool(x)
		default:
			out[k] = nil
		}
	}
	out["principalId"] = res.PrincipalID
	out["integrationLatency"] = 0
	return out, res.UsageIdentifierKey, ""
}

// allows evaluates the policy for methodArn: an explicit Deny wins, else an Allow must match.
func (a *authResult) allows(methodArn string) bool {
	allowed := false
	for _, st := range a.PolicyDocument.Statement {
		if !matchAny(st.Action, "execute-api:Invoke") || !matchAny(st.Resource, methodArn) {
			continue
		}
		switch {
		case strings.EqualFold(st.Effect, "Deny"):
			return false
		case strings.EqualFold(st.Effect, "Allow"):
			allowed = true
		}
	}
	return allowed
}

func matchAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if wildcard(p, s) {
			return true
		}
	}
	return false
}

// wildcard matches s against an IAM pattern where * is any run and ? one character.
func wildcard(p, s string) bool {
	px, sx := 0, 0
	nextP, nextS := -1, -1
	for sx < len(s) {
		switch {
		case px < len(p) && (p[px] == '?' || p[px] == s[sx]):
			px++
			sx++
		case px < len(p) && p[px] == '*':
			nextP, nextS = px, sx+1
			px++
		case nextP >= 0:
			px, sx = nextP+1, nextS
			nextS++
		default:
			return false
		}
	}
	for px < len(p) && p[px] == '*' {
		px++
	}
	return px == len(p)
}

// FlushAuthorizers implements accounts.AuthorizerCache: the gateway forgets
// its cached authorizer results, as API Gateway's FlushStageAuthorizersCache
// does, which the gateway also answers over HTTP (flushPath).
func (g *Gateway) FlushAuthorizers(context.Context) error {
	g.cache.flush()
	return nil
}

// flushPath is the path of API Gateway's FlushStageAuthorizersCache for
// the gateway's API and stage (DELETE).
func (g *Gateway) flushPath() string {
	return "/restapis/" + g.opts.APIID + "/stages/" + g.stage + "/cache/authorizers"
}

// APIID is the id of the API the gateway serves, as management calls name it.
func (g *Gateway) APIID() string { return g.opts.APIID }

// authCache keeps Allow results per identity for a TTL, like API Gateway's authorizer cache.
type authCache struct {
	ttl     time.Duration
	mu      sync.Mutex
	entries map[string]authEntry
}

type authEntry struct {
	res     authResult
	expires time.Time
}

func newAuthCache(ttl time.Duration) *authCache {
	return &authCache{ttl: ttl, entries: map[string]authEntry{}}
}

func (c *authCache) get(key string) (authResult, bool) {
	if c.ttl <= 0 {
		return authResult{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || time.Now().After(e.expires) {
		delete(c.entries, key)
		return authResult{}, false
	}
	return e.res, true
}

// flush forgets every cached result.
func (c *authCache) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.entries)
}

func (c *authCache) put(key string, res authResult) {
	if c.ttl <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	if len(c.entries) > 10000 {
		for k, e := range c.entries {
			if now.After(e.expires) {
				delete(c.entries, k)
			}
		}
	}
	c.entries[key] = authEntry{res: res, expires: now.Add(c.ttl)}
}
