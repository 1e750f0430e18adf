package amazon_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/local/emulators"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
)

// The models the connector's requests are checked against (Swagger 2.0), and the JSON
// Schema of the feed documents it uploads.
var modelFiles = []string{"amazon/ordersV0.json", "amazon/listingsItems_2021-08-01.json", "amazon/feeds_2021-06-30.json", "amazon/tokens_2021-03-01.json"}

const feedSchema = "amazon/listings-feed-schema-v2.json"

// schema is a JSON Schema (or Swagger schema) node, as much of it as the checker reads.
type schema map[string]any

// model is one Swagger model: its paths and definitions.
type model struct {
	Paths       map[string]map[string]json.RawMessage `json:"paths"`
	Definitions map[string]schema                     `json:"definitions"`
}

// param is one parameter of an operation.
type param struct {
	Name     string   `json:"name"`
	In       string   `json:"in"`
	Required bool     `json:"required"`
	Type     string   `json:"type"`
	Enum     []any    `json:"enum"`
	Items    schema   `json:"items"`
	Schema   schema   `json:"schema"`
	Minimum  *float64 `json:"minimum"`
	Maximum  *float64 `json:"maximum"`
}

var (
	modelsOnce sync.Once
	models     []model
	feedDoc    schema
	modelsErr  error
)

// modelPath is the path of a model beside the repository, and whether it is there.
func modelPath(name string) (string, bool) {
	root, err := emulators.RepoRoot()
	if err != nil {
		return "", false
	}
	p := filepath.Join(filepath.Dir(root), "shared", "channel-models", filepath.FromSlash(name))
	_, err = os.Stat(p)
	return p, err == nil
}

// loadModels reads the models once; false when one is absent.
func loadModels() bool {
	modelsOnce.Do(func() {
		for _, name := range append(slices.Clone(modelFiles), feedSchema) {
			p, ok := modelPath(name)
			if !ok {
				modelsErr = fmt.Errorf("%s is absent", name)
				return
			}
			data, err := os.ReadFile(p)
			if err != nil {
				modelsErr = err
				return
			}
			if name == feedSchema {
				modelsErr = json.Unmarshal(data, &feedDoc)
				continue
			}
			var m model
			if modelsErr = json.Unmarshal(data, &m); modelsErr != nil {
				return
			}
			models = append(models, m)
		}
	})
	return modelsErr == nil
}

// checkModels checks every request against Amazon's models (logged, not checked, when the
// models are not beside the repository; TestRequestsMatchModels skips then).
func checkModels(t testing.TB, reqs []amazonsb.Request) {
	t.Helper()
	if !loadModels() {
		t.Logf("Amazon's models are not beside the repository (%v): %d requests not checked", modelsErr, len(reqs))
		return
	}
	for _, r := range reqs {
		if err := checkRequest(r); err != nil {
			t.Errorf("%s %s?%s does not match Amazon's model: %v", r.Method, r.Path, r.Query, err)
		}
	}
}

// checkRequest checks one request: an operation of the models at its method and path, its
// path, query and body parameters of the declared types, the required ones present; an
// uploaded feed document against the listings feed schema.
func checkRequest(r amazonsb.Request) error {
	if r.Op == "uploadFeedDocument" {
		var v any
		if err := json.Unmarshal(r.Body, &v); err != nil {
			return fmt.Errorf("feed document: %w", err)
		}
		return validate(feedDoc, v, nil, "feed")
	}
	for _, m := range models {
		for tmpl, ops := range m.Paths {
			vars, ok := matchPath(tmpl, r.Path)
			if !ok {
				continue
			}
			raw, ok := ops[strings.ToLower(r.Method)]
			if !ok {
				return fmt.Errorf("%s has no %s operation", tmpl, r.Method)
			}
			var op struct {
				ID     string  `json:"operationId"`
				Params []param `json:"parameters"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				return err
			}
			if op.ID != r.Op {
				return fmt.Errorf("the model's operation is %s, the sandbox served it as %s", op.ID, r.Op)
			}
			var common []param
			if c, ok := ops["parameters"]; ok {
				_ = json.Unmarshal(c, &common)
			}
			return checkParams(append(common, op.Params...), vars, r, m.Definitions)
		}
	}
	return fmt.Errorf("no operation of the models has this path")
}

// matchPath matches a path against a template, returning the path parameters.
func matchPath(tmpl, path string) (map[string]string, bool) {
	ts, ps := strings.Split(tmpl, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return nil, false
	}
	vars := map[string]string{}
	for i, s := range ts {
		if strings.HasPrefix(s, "{") {
			if ps[i] == "" {
				return nil, false
			}
			vars[strings.Trim(s, "{}")] = ps[i]
		} else if s != ps[i] {
			return nil, false
		}
	}
	return vars, true
}

// checkParams checks the request's parameters against the operation's.
func checkParams(params []param, vars map[string]string, r amazonsb.Request, defs map[string]schema) error {
	q, err := url.ParseQuery(r.Query)
	if err != nil {
		return err
	}
	declared := map[string]bool{}
	for _, p := range params {
		declared[p.Name] = true
		switch p.In {
		case "path":
			if vars[p.Name] == "" && p.Required {
				return fmt.Errorf("path parameter %s missing", p.Name)
			}
		case "query":
			vs, ok := q[p.Name]
			if !ok {
				if p.Required {
					return fmt.Errorf("required query parameter %s missing", p.Name)
				}
				continue
			}
			for _, v := range vs {
				if err := checkQuery(p, v); err != nil {
					return fmt.Errorf("query %s: %w", p.Name, err)
				}
			}
		case "body":
			if len(r.Body) == 0 {
				if p.Required {
					return fmt.Errorf("required body missing")
				}
				continue
			}
			var v any
			if err := json.Unmarshal(r.Body, &v); err != nil {
				return fmt.Errorf("body: %w", err)
			}
			if err := validate(p.Schema, v, defs, "body"); err != nil {
				return err
			}
		}
	}
	for k := range q {
		if !declared[k] {
			return fmt.Errorf("query parameter %s is not the operation's", k)
		}
	}
	if len(r.Body) > 0 && !slices.ContainsFunc(params, func(p param) bool { return p.In == "body" }) {
		return fmt.Errorf("a body where the operation takes none")
	}
	return nil
}

// checkQuery checks one query value of a parameter (arrays comma-separated).
func checkQuery(p param, v string) error {
	vals := []string{v}
	typ, enum := p.Type, p.Enum
	if p.Type == "array" {
		vals = strings.Split(v, ",")
		typ, _ = p.Items["type"].(string)
		enum, _ = p.Items["enum"].([]any)
	}
	for _, x := range vals {
		switch typ {
		case "integer":
			n, err := strconv.Atoi(x)
			if err != nil {
				return fmt.Errorf("%q is not an integer", x)
			}
			if p.Minimum != nil && float64(n) < *p.Minimum || p.Maximum != nil && float64(n) > *p.Maximum {
				return fmt.Errorf("%d out of range", n)
			}
		case "boolean":
			if x != "true" && x != "false" {
				return fmt.Errorf("%q is not a boolean", x)
			}
		}
		if len(enum) > 0 && !slices.Contains(enum, any(x)) {
			return fmt.Errorf("%q is not one of %v", x, enum)
		}
	}
	return nil
}

// validate checks v against a schema: $ref, type, required, properties (no property the
// schema of an object declares, unless additionalProperties allows it; none a schema
// declares false), items, enum, const,
// minItems, oneOf (one of them at least).
func validate(s schema, v any, defs map[string]schema, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		d, ok := defs[strings.TrimPrefix(ref, "#/definitions/")]
		if !ok {
			return fmt.Errorf("%s: unknown $ref %s", at, ref)
		}
		return validate(d, v, defs, at)
	}
	if alts, ok := s["oneOf"].([]any); ok {
		var errs []string
		for _, a := range alts {
			err := validate(schema(a.(map[string]any)), v, defs, at)
			if err == nil {
				errs = nil
				break
			}
			errs = append(errs, err.Error())
		}
		if errs != nil {
			return fmt.Errorf("%s: matches none of oneOf: %s", at, strings.Join(errs, " | "))
		}
	}
	if c, ok := s["const"]; ok && c != v {
		return fmt.Errorf("%s: %v, want %v", at, v, c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.Contains(e, v) {
		return fmt.Errorf("%s: %v is not one of %v", at, v, e)
	}
	switch typ, _ := s["type"].(string); typ {
	case "object":
		if _, ok := v.(map[string]any); !ok {
			return fmt.Errorf("%s: %T, want an object", at, v)
		}
	case "array":
		if _, ok := v.([]any); !ok {
			return fmt.Errorf("%s: %T, want an array", at, v)
		}
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: %T, want a string", at, v)
		}
	case "integer":
		if n, ok := v.(float64); !ok || n != float64(int64(n)) {
			return fmt.Errorf("%s: %v, want an integer", at, v)
		}
	case "number":
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("%s: %T, want a number", at, v)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: %T, want a boolean", at, v)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range asList(s["required"]) {
			if _, ok := x[r]; !ok {
				return fmt.Errorf("%s: required %s missing", at, r)
			}
		}
		extra, declared := s["additionalProperties"]
		strict := s["type"] == "object" && props != nil && (!declared || extra == false)
		for k, val := range x {
			if props[k] == false {
				return fmt.Errorf("%s: %s must not be present", at, k)
			}
			p, ok := props[k].(map[string]any)
			if !ok {
				if strict && props[k] == nil {
					return fmt.Errorf("%s: %s is not a property of the schema", at, k)
				}
				continue
			}
			if err := validate(schema(p), val, defs, at+"."+k); err != nil {
				return err
			}
		}
	case []any:
		if m, ok := s["minItems"].(float64); ok && float64(len(x)) < m {
			return fmt.Errorf("%s: %d items, at least %v", at, len(x), m)
		}
		if it, ok := s["items"].(map[string]any); ok {
			for i, val := range x {
				if err := validate(schema(it), val, defs, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// asList is a JSON array of strings.
func asList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
