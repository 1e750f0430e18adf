package template

import (
	"fmt"
	"strings"
)

// Resolver evaluates intrinsic functions to strings for one concrete stack (the local one,
// or a deployed one when its physical ids are known).
type Resolver struct {
	Template  *Template
	StackName string
	Region    string
	AccountID string
	// Refs holds the value of !Ref for each resource logical id.
	Refs map[string]string
	// Attrs holds the value of !GetAtt for "LogicalId.Attribute".
	Attrs map[string]string
}

// pseudo returns the value of a pseudo parameter.
func (r *Resolver) pseudo(name string) (string, bool) {
	switch name {
	case "AWS::StackName":
		return r.StackName, true
	case "AWS::Region":
		return r.Region, true
	case "AWS::AccountId":
		return r.AccountID, true
	case "AWS::Partition":
		return "aws", true
	case "AWS::URLSuffix":
		return "amazonaws.com", true
	case "AWS::StackId":
		return fmt.Sprintf("arn:aws:cloudformation:%s:%s:stack/%s/local", r.Region, r.AccountID, r.StackName), true
	case "AWS::NoValue":
		return "", true
	}
	return "", false
}

func (r *Resolver) ref(name string) (string, error) {
	if v, ok := r.pseudo(name); ok {
		return v, nil
	}
	if v, ok := r.Refs[name]; ok {
		return v, nil
	}
	if p, ok := r.Template.Parameters[name]; ok {
		if d, ok := p["Default"]; ok {
			return asString(d), nil
		}
		return "", fmt.Errorf("parameter %s has no Default", name)
	}
	return "", fmt.Errorf("!Ref %s: unknown or unresolved", name)
}

func (r *Resolver) getAtt(res, attr string) (string, error) {
	if v, ok := r.Attrs[res+"."+attr]; ok {
		return v, nil
	}
	return "", fmt.Errorf("!GetAtt %s.%s: unknown or unresolved", res, attr)
}

// String evaluates v (a literal or Ref, Fn::GetAtt, Fn::Sub, Fn::Join) to a string.
func (r *Resolver) String(v any) (string, error) {
	name, arg, ok := intrinsic(v)
	if !ok {
		switch v.(type) {
		case map[string]any, []any:
			return "", fmt.Errorf("cannot turn %v into a string", v)
		}
		return asString(v), nil
	}
	switch name {
	case "Ref":
		return r.ref(asString(arg))
	case "Fn::GetAtt":
		res, attr, ok := getAttTarget(v)
		if !ok {
			return "", fmt.Errorf("malformed Fn::GetAtt %v", arg)
		}
		return r.getAtt(res, attr)
	case "Fn::Sub":
		return r.sub(arg)
	case "Fn::Join":
		l := asList(arg)
		if len(l) != 2 {
			return "", fmt.Errorf("malformed Fn::Join %v", arg)
		}
		var parts []string
		for _, e := range asList(l[1]) {
			s, err := r.String(e)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, asString(l[0])), nil
	}
	return "", fmt.Errorf("%s is not supported by the local resolver", name)
}

func (r *Resolver) sub(arg any) (string, error) {
	format, vars := "", map[string]any{}
	switch a := arg.(type) {
	case string:
		format = a
	case []any:
		if len(a) != 2 {
			return "", fmt.Errorf("malformed Fn::Sub %v", arg)
		}
		format = asString(a[0])
		vars = asMap(a[1])
	default:
		return "", fmt.Errorf("malformed Fn::Sub %v", arg)
	}
	var firstErr error
	out := expandSub(format, func(expr string) string {
		var (
			s   string
			err error
		)
		if v, ok := vars[expr]; ok {
			s, err = r.String(v)
		} else if res, attr, ok := strings.Cut(expr, "."); ok && !strings.HasPrefix(expr, "AWS::") {
			s, err = r.getAtt(res, attr)
		} else {
			s, err = r.ref(expr)
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
		return s
	})
	return out, firstErr
}

// expandSub replaces each ${expr} of an Fn::Sub format string with f(expr); ${!x} is the
// literal ${x}.
func expandSub(format string, f func(expr string) string) string {
	var b strings.Builder
	for {
		i := strings.Index(format, "${")
		if i < 0 {
			b.WriteString(format)
			return b.String()
		}
		j := strings.Index(format[i:], "}")
		if j < 0 {
			b.WriteString(format)
			return b.String()
		}
		b.WriteString(format[:i])
		expr := format[i+2 : i+j]
		if strings.HasPrefix(expr, "!") {
			b.WriteString("${" + expr[1:] + "}")
		} else {
			b.WriteString(f(strings.TrimSpace(expr)))
		}
		format = format[i+j+1:]
	}
}
