package template

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// decodeNode converts a YAML node into plain Go values (map[string]any, []any, string,
// int, float64, bool, nil), rewriting CloudFormation short-form tags into their long form.
func decodeNode(n *yaml.Node) (any, error) {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return decodeNode(n.Content[0])
	case yaml.AliasNode:
		return decodeNode(n.Alias)
	}
	if fn, ok := intrinsicTag(n.Tag); ok {
		return decodeIntrinsic(fn, n)
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: mapping key is not a scalar", k.Line)
			}
			if k.Value == "<<" {
				return nil, fmt.Errorf("line %d: YAML merge keys are not supported by CloudFormation", k.Line)
			}
			v, err := decodeNode(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[k.Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := decodeNode(c)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	case yaml.ScalarNode:
		return decodeScalar(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node kind %v", n.Line, n.Kind)
}

func decodeScalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return b, nil
	case "!!int":
		i, err := strconv.ParseInt(n.Value, 0, 64)
		if err != nil {
			return n.Value, nil
		}
		return int(i), nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %w", n.Line, err)
		}
		return f, nil
	}
	return n.Value, nil
}

// intrinsicTag maps a short-form tag such as "!GetAtt" to its long-form key "Fn::GetAtt".
func intrinsicTag(tag string) (string, bool) {
	if !strings.HasPrefix(tag, "!") || strings.HasPrefix(tag, "!!") {
		return "", false
	}
	name := strings.TrimPrefix(tag, "!")
	switch name {
	case "Ref", "Condition":
		return name, true
	case "":
		return "", false
	}
	return "Fn::" + name, true
}

func decodeIntrinsic(fn string, n *yaml.Node) (any, error) {
	if fn == "Fn::GetAtt" && n.Kind == yaml.ScalarNode {
		// !GetAtt Resource.Attribute (the attribute itself may contain dots).
		res, attr, ok := strings.Cut(n.Value, ".")
		if !ok {
			return nil, fmt.Errorf("line %d: !GetAtt %q is not Resource.Attribute", n.Line, n.Value)
		}
		return map[string]any{fn: []any{res, attr}}, nil
	}
	var (
		v   any
		err error
	)
	if n.Kind == yaml.ScalarNode {
		v = n.Value // the tag replaces the scalar's own type: !Ref 1 is the string "1"
	} else {
		c := *n
		c.Tag = ""
		v, err = decodeNode(&c)
		if err != nil {
			return nil, err
		}
	}
	return map[string]any{fn: v}, nil
}
