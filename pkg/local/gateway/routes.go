package gateway

import (
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/local/template"
)

// segment is one element of a resource path: a literal, a {param} or a greedy {param+}.
type segment struct {
	literal string
	param   string
	greedy  bool
}

// route is one Api event of a function.
type route struct {
	fn         *template.Function
	event      template.APIEvent
	segments   []segment
	authorizer *template.Authorizer
}

func compileRoute(fn *template.Function, ev template.APIEvent, az *template.Authorizer) (*route, error) {
	r := &route{fn: fn, event: ev, authorizer: az}
	parts := splitPath(ev.Path)
	for i, p := range parts {
		switch {
		case strings.HasPrefix(p, "{") && strings.HasSuffix(p, "+}"):
			if i != len(parts)-1 {
				return nil, fmt.Errorf("%s %s: a greedy {param+} must be the last segment", ev.Method, ev.Path)
			}
			r.segments = append(r.segments, segment{param: p[1 : len(p)-2], greedy: true})
		case strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}"):
			r.segments = append(r.segments, segment{param: p[1 : len(p)-1]})
		case p == "" || strings.ContainsAny(p, "{}"):
			return nil, fmt.Errorf("%s %s: bad path segment %q", ev.Method, ev.Path, p)
		default:
			r.segments = append(r.segments, segment{literal: p})
		}
	}
	return r, nil
}

// splitPath splits "/a/b" into [a b]; "/" is no segment at all.
func splitPath(p string) []string {
	p = strings.TrimPrefix(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// match matches raw (still percent-encoded) path segments and returns the raw path
// parameters and a specificity score per segment (literal 2, param 1, greedy 0).
func (r *route) match(parts []string) (params map[string]string, score []int, ok bool) {
	for i, seg := range r.segments {
		if seg.greedy {
			rest := parts[i:]
			if len(rest) == 0 || strings.Join(rest, "") == "" {
				return nil, nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[seg.param] = strings.Join(rest, "/")
			return params, append(score, 0), true
		}
		if i >= len(parts) {
			return nil, nil, false
		}
		switch {
		case seg.literal != "":
			if parts[i] != seg.literal {
				return nil, nil, false
			}
			score = append(score, 2)
		default:
			if parts[i] == "" {
				return nil, nil, false
			}
			if params == nil {
				params = map[string]string{}
			}
			params[seg.param] = parts[i]
			score = append(score, 1)
		}
	}
	if len(parts) != len(r.segments) {
		return nil, nil, false
	}
	return params, score, true
}

// moreSpecific reports whether score a beats score b (literals beat parameters beat
// greedy parameters, from the left).
func moreSpecific(a, b []int) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return len(a) > len(b)
}

// findRoute returns the route for method and the raw resource path (without the stage),
// with its raw path parameters, or nil.
func findRoute(routes []*route, method, rawPath string) (*route, map[string]string) {
	parts := splitPath(rawPath)
	if n := len(parts); n > 0 && parts[n-1] == "" {
		parts = parts[:n-1] // a trailing slash is ignored, as API Gateway does
	}
	var (
		best       *route
		bestParams map[string]string
		bestScore  []int
		bestExact  bool
	)
	for _, r := range routes {
		exact := r.event.Method == method
		if !exact && r.event.Method != "ANY" {
			continue
		}
		params, score, ok := r.match(parts)
		if !ok {
			continue
		}
		if best == nil || moreSpecific(score, bestScore) || (!moreSpecific(bestScore, score) && exact && !bestExact) {
			best, bestParams, bestScore, bestExact = r, params, score, exact
		}
	}
	return best, bestParams
}
