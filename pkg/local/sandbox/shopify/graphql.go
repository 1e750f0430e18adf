package shopify

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/multisell/multisell/pkg/connectors/shopify"
	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// schemaModel is where Shopify's own schema of Version lies among the marketplaces' models
// kept beside the repository (docs/connectors.md); it is not part of the repository.
const schemaModel = "shopify/" + Version + "/schema.graphql"

// schema is Shopify's schema of Version when it is beside the repository, loaded once: the
// sandbox then validates every request against it as Shopify does. Without it (a clone of the
// repository alone) the sandbox reads requests as GraphQL documents and serves the fields it
// knows, without validation.
var schema = sync.OnceValue(func() *ast.Schema {
	root, err := emulators.RepoRoot()
	if err != nil {
		return nil
	}
	file := filepath.Join(filepath.Dir(root), "shared", "channel-models", filepath.FromSlash(schemaModel))
	sdl, err := os.ReadFile(file)
	if err != nil {
		slog.Info("shopify sandbox: requests are not validated, Shopify's schema is not beside the repository", "file", file)
		return nil
	}
	sch, gerr := gqlparser.LoadSchema(&ast.Source{Name: schemaModel, Input: string(sdl)})
	if gerr != nil {
		slog.Warn("shopify sandbox: requests are not validated, Shopify's schema does not load", "file", file, "error", gerr.Error())
		return nil
	}
	return sch
})

// parse reads a request's document and variables: validated against schema when it is
// there, else parsed alone, its fragment spreads linked to their definitions.
func parse(req Request) (*ast.QueryDocument, *ast.OperationDefinition, map[string]any, []string) {
	sch := schema()
	var doc *ast.QueryDocument
	if sch != nil {
		var gerrs gqlerror.List
		if doc, gerrs = gqlparser.LoadQueryWithRules(sch, req.Query, nil); len(gerrs) > 0 { // nil: the default rules
			return nil, nil, nil, messages(gerrs)
		}
	} else {
		var gerr error
		if doc, gerr = parser.ParseQuery(&ast.Source{Input: req.Query}); gerr != nil {
			return nil, nil, nil, []string{gerr.Error()}
		}
		shopify.LinkFragments(doc)
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		return nil, nil, nil, []string{fmt.Sprintf("no operation %q in the document", req.OperationName)}
	}
	if sch == nil {
		return doc, op, req.Variables, nil
	}
	vars, gerr := validator.VariableValues(sch, op, req.Variables)
	if gerr != nil {
		return nil, nil, nil, []string{gerr.Error()}
	}
	return doc, op, vars, nil
}

// argMap is the values of the arguments given, by name, variables put in. It needs no schema
// (ast.Field.ArgumentMap needs one, for the defaults): an argument left out is absent, and
// the resolvers give it Shopify's default.
func argMap(args ast.ArgumentList, vars map[string]any) map[string]any {
	out := make(map[string]any, len(args))
	for _, a := range args {
		if a.Value.Kind == ast.Variable {
			if v, ok := vars[a.Value.Raw]; ok {
				out[a.Name] = v
			}
			continue
		}
		if v, err := a.Value.Value(vars); err == nil {
			out[a.Name] = v
		}
	}
	return out
}

// messages are the messages of GraphQL errors.
func messages(list gqlerror.List) []string {
	out := make([]string, len(list))
	for i, e := range list {
		out[i] = e.Message
	}
	return out
}

// tokenHeader carries a shop's Admin API access token.
const tokenHeader = "X-Shopify-Access-Token"

// gqlError is one GraphQL error of an answer.
type gqlError struct {
	Message    string         `json:"message"`
	Extensions map[string]any `json:"extensions,omitempty"`
}

// graphql serves POST /admin/api/{version}/graphql.json.
func (s *Shop) graphql(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("version") != Version {
		sandbox.WriteJSON(w, http.StatusNotFound, map[string]string{"errors": "Not Found: this sandbox serves API version " + Version})
		return
	}
	var req Request
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || json.Unmarshal(body, &req) != nil || req.Query == "" {
		sandbox.WriteJSON(w, http.StatusBadRequest, map[string]string{"errors": "a JSON body with a query is required"})
		return
	}
	s.Lock()
	logged := len(s.log)
	s.log = append(s.log, req)
	_, sh, ok := s.Lookup(r.Header.Get(tokenHeader))
	s.Unlock()
	if !ok {
		sandbox.WriteJSON(w, http.StatusUnauthorized, map[string]string{"errors": "[API] Invalid API key or access token (unrecognized login or wrong password)"})
		return
	}
	_, op, vars, errMsgs := parse(req)
	if len(errMsgs) > 0 {
		writeErrors(w, errMsgs...)
		return
	}
	if op.Operation == ast.Mutation && s.BeforeSet != nil && op.SelectionSet != nil && hasField(op.SelectionSet, "inventorySetQuantities") {
		s.BeforeSet()
	}
	s.Lock()
	defer s.Unlock()
	requested := shopify.OperationCost(op, vars)
	if s.MaxOrdersPage > 0 && pageOver(op, vars, "orders", s.MaxOrdersPage) {
		requested = MaxQueryCost + 1
	}
	s.log[logged].Cost = requested
	if requested > MaxQueryCost {
		// Refused before it runs, whatever the bucket holds; nothing is charged.
		s.overMax++
		cost, _ := sh.charge(0, time.Now())
		cost["requestedQueryCost"] = requested
		sandbox.WriteJSON(w, http.StatusOK, map[string]any{
			"errors": []gqlError{{Message: "Query cost is " + strconv.Itoa(requested) + ", which exceeds the single query max cost limit (" +
				strconv.Itoa(MaxQueryCost) + ").", Extensions: map[string]any{"code": "MAX_COST_EXCEEDED", "cost": requested, "maxCost": MaxQueryCost}}},
			"extensions": map[string]any{"cost": cost},
		})
		return
	}
	cost, ok := sh.charge(float64(requested), time.Now())
	cost["requestedQueryCost"] = requested
	if !ok {
		s.over++
		sandbox.WriteJSON(w, http.StatusOK, map[string]any{
			"errors":     []gqlError{{Message: "Throttled", Extensions: map[string]any{"code": "THROTTLED"}}},
			"extensions": map[string]any{"cost": cost},
		})
		return
	}
	data := map[string]any{}
	var errs []gqlError
	for _, sel := range op.SelectionSet {
		f, ok := sel.(*ast.Field)
		if !ok {
			continue
		}
		v, e := s.resolveRoot(sh, op.Operation, f, vars)
		if e != nil {
			errs = append(errs, *e)
			data = nil
			break
		}
		data[cmp.Or(f.Alias, f.Name)] = v
	}
	s.Save()
	if op.Operation == ast.Query {
		// Shopify refunds what the query did not return: the actual cost is the answer's.
		actual := min(requested, actualCost(data))
		cost, _ = sh.charge(float64(actual-requested), time.Now())
		cost["requestedQueryCost"], cost["actualQueryCost"] = requested, actual
	} else {
		cost["actualQueryCost"] = requested
	}
	out := map[string]any{"data": data, "extensions": map[string]any{"cost": cost}}
	if errs != nil {
		out["errors"] = errs
	}
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// pageOver reports whether the root field name of op asks for more than most nodes.
func pageOver(op *ast.OperationDefinition, vars map[string]any, name string, most int) bool {
	for _, sel := range op.SelectionSet {
		if f, ok := sel.(*ast.Field); ok && f.Name == name {
			if n, ok := num(argMap(f.Arguments, vars)["first"]); ok && n > int64(most) {
				return true
			}
		}
	}
	return false
}

// hasField reports whether the selection set selects the field name at its top.
func hasField(set ast.SelectionSet, name string) bool {
	for _, sel := range set {
		if f, ok := sel.(*ast.Field); ok && f.Name == name {
			return true
		}
	}
	return false
}

// writeErrors answers a request that does not parse or validate, as Shopify does: 200 with
// the errors and no data.
func writeErrors(w http.ResponseWriter, msgs ...string) {
	errs := make([]gqlError, len(msgs))
	for i, m := range msgs {
		errs[i] = gqlError{Message: m, Extensions: map[string]any{"code": "GRAPHQL_VALIDATION_FAILED"}}
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"errors": errs})
}

// charge takes cost points of the shop's bucket at now, restoring it first (a negative
// cost gives points back); false when the bucket has not that many (nothing taken). It returns the cost extension's throttleStatus.
func (sh *shopState) charge(cost float64, now time.Time) (map[string]any, bool) {
	b := &sh.Bucket
	if b.Maximum <= 0 {
		*b = bucket{Maximum: DefaultMaximum, Restore: DefaultRestore, Available: DefaultMaximum, At: now}
	}
	b.Available = math.Min(b.Maximum, b.Available+now.Sub(b.At).Seconds()*b.Restore)
	b.At = now
	ok := cost <= b.Available
	if ok {
		b.Available = math.Min(b.Maximum, b.Available-cost) // a refund (cost < 0) fills it up to its maximum
	}
	return map[string]any{"throttleStatus": map[string]any{
		"maximumAvailable": b.Maximum, "currentlyAvailable": math.Floor(b.Available), "restoreRate": b.Restore,
	}}, ok
}

// actualCost is the cost of what an answer holds: 1 per object, and 2 more per connection
// (an object with nodes or edges), as a query of exactly that many nodes would request.
func actualCost(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 1
		if _, ok := x["nodes"]; ok {
			n = 2
		}
		for k, c := range x {
			if k != "pageInfo" {
				n += actualCost(c)
			}
		}
		return n
	case []any:
		n := 0
		for _, e := range x {
			n += actualCost(e)
		}
		return n
	}
	return 0
}

// num reads a GraphQL number argument.
func num(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int:
		return int64(x), true
	case float64:
		return int64(x), true
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// resolver is a field that takes arguments: its value for them.
type resolver func(args map[string]any) any

// project is v as the selection set selects it: objects (map[string]any) keep the selected
// fields under their aliases, resolvers are called with the field's arguments, lists are
// projected element by element.
func project(v any, set ast.SelectionSet, vars map[string]any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = project(e, set, vars)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		collect(x, set, vars, out)
		return out
	}
	return v
}

// collect puts obj's fields the selection set selects into out.
func collect(obj map[string]any, set ast.SelectionSet, vars, out map[string]any) {
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			v := obj[sel.Name]
			if fn, ok := v.(resolver); ok {
				v = fn(argMap(sel.Arguments, vars))
			}
			out[cmp.Or(sel.Alias, sel.Name)] = project(v, sel.SelectionSet, vars)
		case *ast.InlineFragment:
			if sel.TypeCondition == "" || sel.TypeCondition == obj["__typename"] {
				collect(obj, sel.SelectionSet, vars, out)
			}
		case *ast.FragmentSpread:
			if sel.Definition.TypeCondition == obj["__typename"] {
				collect(obj, sel.Definition.SelectionSet, vars, out)
			}
		}
	}
}

// connection is a page of nodes as a connection: first (default and most 250) after the
// cursor in args.
func connection(nodes []any, args map[string]any) map[string]any {
	first, ok := num(args["first"])
	if !ok || first <= 0 || first > 250 {
		first = 250
	}
	from := 0
	if after, _ := args["after"].(string); after != "" {
		if b, err := base64.StdEncoding.DecodeString(after); err == nil {
			if n, err := strconv.Atoi(strings.TrimPrefix(string(b), "offset:")); err == nil {
				from = n
			}
		}
	}
	from = min(max(from, 0), len(nodes))
	to := min(from+int(first), len(nodes))
	cursor := func(i int) any {
		if to == from {
			return nil
		}
		return base64.StdEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(i)))
	}
	return map[string]any{"nodes": nodes[from:to], "pageInfo": map[string]any{
		"hasNextPage": to < len(nodes), "hasPreviousPage": from > 0, "startCursor": cursor(from), "endCursor": cursor(to),
	}}
}
