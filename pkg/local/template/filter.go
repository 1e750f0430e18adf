package template

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
)

// FilterPattern is one Lambda event filter pattern (an entry of FilterCriteria.Filters), read
// and checked when the template is parsed. Patterns follow the EventBridge pattern syntax that
// Lambda event filtering uses:
//
//   - a pattern is a JSON object; its fields are matched against the event's fields of the
//     same name, nested objects match nested objects, and every field must match (AND);
//   - a leaf is a list of matchers, any of which may match (OR): exact values (string,
//     number, true, false, null) and the operators prefix, suffix, equals-ignore-case,
//     anything-but (a value, a list of values, or a prefix, suffix or equals-ignore-case),
//     exists (true or false) and numeric ("=", "<", "<=", ">", ">=", alone or as a lower
//     then an upper bound);
//   - a field of the event that is a list matches when any of its elements matches; only
//     leaves (strings, numbers, booleans, null) are values: an object is never matched by a
//     value and does not count for exists;
//   - numeric and number values match JSON numbers only, never strings (so not the "N"
//     values of DynamoDB records, which are strings).
//
// Any other operator is an error when the template is read, never a silent mismatch.
type FilterPattern struct {
	// Source is the pattern as written in the template.
	Source string
	rules  []fieldRule
}

// fieldRule is one leaf of a pattern: the path of field names to it and its matchers.
type fieldRule struct {
	path     []string
	matchers []matcher
}

type matcherKind int

const (
	matchString matcherKind = iota
	matchNumber
	matchBool
	matchNull
	matchPrefix
	matchSuffix
	matchIgnoreCase
	matchAnythingBut
	matchAnythingButPrefix
	matchAnythingButSuffix
	matchAnythingButIgnoreCase
	matchExists
	matchNumeric
)

type matcher struct {
	kind matcherKind
	str  string
	num  float64
	flag bool // the bool value, or exists true/false
	// anything-but values
	strs []string
	nums []float64
	// numeric conditions
	conds []numericCond
}

type numericCond struct {
	op  string
	val float64
}

// ParseFilterPattern reads a filter pattern. It fails on malformed JSON, on a pattern that is
// not a non-empty object, on a leaf that is not a list, and on any operator it does not support.
func ParseFilterPattern(src string) (*FilterPattern, error) {
	dec := json.NewDecoder(strings.NewReader(src))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("filter pattern is not valid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("filter pattern has data after its JSON object")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("filter pattern must be a JSON object")
	}
	p := &FilterPattern{Source: src}
	if err := p.compile(nil, obj); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *FilterPattern) compile(path []string, obj map[string]any) error {
	if len(obj) == 0 {
		if len(path) == 0 {
			return errors.New("filter pattern is empty")
		}
		return fmt.Errorf("filter pattern: %s is an empty object", strings.Join(path, "."))
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub := append(append([]string(nil), path...), k)
		where := strings.Join(sub, ".")
		switch v := obj[k].(type) {
		case map[string]any:
			if err := p.compile(sub, v); err != nil {
				return err
			}
		case []any:
			if len(v) == 0 {
				return fmt.Errorf("filter pattern: %s is an empty list, which matches nothing", where)
			}
			rule := fieldRule{path: sub}
			for _, e := range v {
				m, err := compileMatcher(e)
				if err != nil {
					return fmt.Errorf("filter pattern: %s: %w", where, err)
				}
				rule.matchers = append(rule.matchers, m)
			}
			p.rules = append(p.rules, rule)
		default:
			return fmt.Errorf("filter pattern: %s must be a list of values or an object, not %s", where, describe(v))
		}
	}
	return nil
}

func compileMatcher(v any) (matcher, error) {
	switch x := v.(type) {
	case string:
		return matcher{kind: matchString, str: x}, nil
	case json.Number:
		n, err := number(x)
		return matcher{kind: matchNumber, num: n}, err
	case bool:
		return matcher{kind: matchBool, flag: x}, nil
	case nil:
		return matcher{kind: matchNull}, nil
	case []any:
		return matcher{}, errors.New("a list inside a list is not a matcher")
	}
	obj := v.(map[string]any)
	if len(obj) != 1 {
		return matcher{}, fmt.Errorf("an operator object must have exactly one key, got %d", len(obj))
	}
	for op, arg := range obj {
		switch op {
		case "prefix", "suffix", "equals-ignore-case":
			s, ok := arg.(string)
			if !ok {
				return matcher{}, fmt.Errorf("%s takes a string, not %s", op, describe(arg))
			}
			kind := map[string]matcherKind{"prefix": matchPrefix, "suffix": matchSuffix, "equals-ignore-case": matchIgnoreCase}[op]
			return matcher{kind: kind, str: s}, nil
		case "anything-but":
			return compileAnythingBut(arg)
		case "exists":
			b, ok := arg.(bool)
			if !ok {
				return matcher{}, fmt.Errorf("exists takes true or false, not %s", describe(arg))
			}
			return matcher{kind: matchExists, flag: b}, nil
		case "numeric":
			return compileNumeric(arg)
		default:
			return matcher{}, fmt.Errorf("operator %q is not supported", op)
		}
	}
	panic("unreachable")
}

func compileAnythingBut(arg any) (matcher, error) {
	m := matcher{kind: matchAnythingBut}
	add := func(v any) error {
		switch x := v.(type) {
		case string:
			m.strs = append(m.strs, x)
		case json.Number:
			n, err := number(x)
			if err != nil {
				return err
			}
			m.nums = append(m.nums, n)
		default:
			return fmt.Errorf("anything-but takes strings or numbers, not %s", describe(v))
		}
		return nil
	}
	switch x := arg.(type) {
	case []any:
		if len(x) == 0 {
			return m, errors.New("anything-but takes a non-empty list")
		}
		for _, e := range x {
			if err := add(e); err != nil {
				return m, err
			}
		}
		return m, nil
	case map[string]any:
		if len(x) != 1 {
			return m, fmt.Errorf("anything-but takes an object with one operator, got %d keys", len(x))
		}
		for op, v := range x {
			kind, ok := map[string]matcherKind{"prefix": matchAnythingButPrefix, "suffix": matchAnythingButSuffix, "equals-ignore-case": matchAnythingButIgnoreCase}[op]
			if !ok {
				return m, fmt.Errorf("anything-but operator %q is not supported", op)
			}
			s, isString := v.(string)
			if !isString {
				return m, fmt.Errorf("anything-but %s takes a string, not %s", op, describe(v))
			}
			return matcher{kind: kind, str: s}, nil
		}
	}
	return m, add(arg)
}

func compileNumeric(arg any) (matcher, error) {
	l, ok := arg.([]any)
	if !ok || (len(l) != 2 && len(l) != 4) {
		return matcher{}, errors.New(`numeric takes [op, number] or [lower-op, number, upper-op, number]`)
	}
	m := matcher{kind: matchNumeric}
	for i := 0; i < len(l); i += 2 {
		op, isString := l[i].(string)
		if !isString {
			return m, fmt.Errorf("numeric: %s is not an operator", describe(l[i]))
		}
		switch op {
		case "=", "<", "<=", ">", ">=":
		default:
			return m, fmt.Errorf("numeric: operator %q is not supported", op)
		}
		n, isNumber := l[i+1].(json.Number)
		if !isNumber {
			return m, fmt.Errorf("numeric: %s after %q is not a number", describe(l[i+1]), op)
		}
		val, err := number(n)
		if err != nil {
			return m, err
		}
		m.conds = append(m.conds, numericCond{op: op, val: val})
	}
	if len(m.conds) == 2 {
		lo, hi := m.conds[0], m.conds[1]
		if (lo.op != ">" && lo.op != ">=") || (hi.op != "<" && hi.op != "<=") {
			return m, errors.New("numeric: a range is a lower bound (> or >=) then an upper bound (< or <=)")
		}
		if lo.val >= hi.val {
			return m, fmt.Errorf("numeric: the range %v..%v is empty", lo.val, hi.val)
		}
	}
	return m, nil
}

func number(n json.Number) (float64, error) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("%s is not a usable number", n)
	}
	return f, nil
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// Match reports whether an event matches the pattern. The event is JSON decoded into plain
// values (map[string]any, []any, string, bool, nil, and json.Number or float64 for numbers).
func (p *FilterPattern) Match(event any) bool {
	for _, r := range p.rules {
		if !r.match(event) {
			return false
		}
	}
	return true
}

// MatchJSON decodes a JSON event and reports whether it matches the pattern.
func (p *FilterPattern) MatchJSON(event []byte) (bool, error) {
	v, err := DecodeFilterEvent(event)
	if err != nil {
		return false, err
	}
	return p.Match(v), nil
}

// DecodeFilterEvent decodes a JSON event for Match, keeping numbers exact.
func DecodeFilterEvent(event []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(event))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("filter event: %w", err)
	}
	return v, nil
}

// MatchAny reports whether the event matches any of the patterns; with no pattern every
// event matches (an event source mapping without FilterCriteria).
func MatchAny(patterns []*FilterPattern, event any) bool {
	if len(patterns) == 0 {
		return true
	}
	for _, p := range patterns {
		if p.Match(event) {
			return true
		}
	}
	return false
}

func (r fieldRule) match(event any) bool {
	values := leaves(event, r.path)
	for _, m := range r.matchers {
		if m.kind == matchExists {
			if m.flag == (len(values) > 0) {
				return true
			}
			continue
		}
		for _, v := range values {
			if m.match(v) {
				return true
			}
		}
	}
	return false
}

// leaves returns the leaf values (not objects) at path in v; lists on the way are searched
// element by element. A field that is absent has no values; a null field has the value nil.
func leaves(v any, path []string) []any {
	switch x := v.(type) {
	case map[string]any:
		if len(path) == 0 {
			return nil
		}
		child, ok := x[path[0]]
		if !ok {
			return nil
		}
		return leaves(child, path[1:])
	case []any:
		var out []any
		for _, e := range x {
			out = append(out, leaves(e, path)...)
		}
		return out
	}
	if len(path) > 0 {
		return nil
	}
	return []any{v}
}

func eventNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}

func (m matcher) match(v any) bool {
	s, isString := v.(string)
	switch m.kind {
	case matchString:
		return isString && s == m.str
	case matchNumber:
		n, ok := eventNumber(v)
		return ok && n == m.num
	case matchBool:
		b, ok := v.(bool)
		return ok && b == m.flag
	case matchNull:
		return v == nil
	case matchPrefix:
		return isString && strings.HasPrefix(s, m.str)
	case matchSuffix:
		return isString && strings.HasSuffix(s, m.str)
	case matchIgnoreCase:
		return isString && strings.EqualFold(s, m.str)
	case matchAnythingBut:
		if isString {
			for _, x := range m.strs {
				if s == x {
					return false
				}
			}
			return true
		}
		if n, ok := eventNumber(v); ok {
			for _, x := range m.nums {
				if n == x {
					return false
				}
			}
		}
		return true
	case matchAnythingButPrefix:
		return isString && !strings.HasPrefix(s, m.str)
	case matchAnythingButSuffix:
		return isString && !strings.HasSuffix(s, m.str)
	case matchAnythingButIgnoreCase:
		return isString && !strings.EqualFold(s, m.str)
	case matchNumeric:
		n, ok := eventNumber(v)
		if !ok {
			return false
		}
		for _, c := range m.conds {
			if !c.holds(n) {
				return false
			}
		}
		return true
	}
	return false
}

func (c numericCond) holds(n float64) bool {
	switch c.op {
	case "=":
		return n == c.val
	case "<":
		return n < c.val
	case "<=":
		return n <= c.val
	case ">":
		return n > c.val
	case ">=":
		return n >= c.val
	}
	return false
}
