package template

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// intrinsic reports whether v is a single-key map naming an intrinsic function
// (Ref, Condition or Fn::*), and returns its name and argument.
func intrinsic(v any) (name string, arg any, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap || len(m) != 1 {
		return "", nil, false
	}
	for k, a := range m {
		if k == "Ref" || k == "Condition" || strings.HasPrefix(k, "Fn::") {
			return k, a, true
		}
	}
	return "", nil, false
}

// refTarget returns X for {"Ref": X}.
func refTarget(v any) (string, bool) {
	name, arg, ok := intrinsic(v)
	if !ok || name != "Ref" {
		return "", false
	}
	s, ok := arg.(string)
	return s, ok
}

// getAttTarget returns the resource and attribute of {"Fn::GetAtt": [X, Attr]}.
func getAttTarget(v any) (res, attr string, ok bool) {
	name, arg, isFn := intrinsic(v)
	if !isFn || name != "Fn::GetAtt" {
		return "", "", false
	}
	switch a := arg.(type) {
	case []any:
		if len(a) != 2 {
			return "", "", false
		}
		r, ok1 := a[0].(string)
		at, ok2 := a[1].(string)
		return r, at, ok1 && ok2
	case string:
		r, at, found := strings.Cut(a, ".")
		return r, at, found
	}
	return "", "", false
}

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func asList(v any) []any {
	switch l := v.(type) {
	case []any:
		return l
	case nil:
		return nil
	}
	return []any{v}
}

func asString(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case int:
		return strconv.Itoa(s)
	case float64:
		return strconv.FormatFloat(s, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(s)
	}
	return ""
}

func asStrings(v any) []string {
	var out []string
	for _, e := range asList(v) {
		out = append(out, asString(e))
	}
	return out
}

// asBool reads a boolean that CloudFormation also accepts as "true"/"false".
func asBool(v any) bool {
	switch b := v.(type) {
	case bool:
		return b
	case string:
		return strings.EqualFold(b, "true")
	}
	return false
}

// intValue reads an integer property; a !Ref to a parameter resolves to its Default.
func (t *Template) intValue(v any, def int) (int, error) {
	if v == nil {
		return def, nil
	}
	if target, ok := refTarget(v); ok {
		p, ok := t.Parameters[target]
		if !ok {
			return 0, fmt.Errorf("!Ref %s: not a parameter", target)
		}
		return t.intValue(p["Default"], def)
	}
	switch n := v.(type) {
	case int:
		return n, nil
	case float64:
		return int(n), nil
	case string:
		i, err := strconv.Atoi(strings.TrimSpace(n))
		if err != nil {
			return 0, fmt.Errorf("%q is not an integer", n)
		}
		return i, nil
	}
	return 0, fmt.Errorf("%v is not an integer", v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
