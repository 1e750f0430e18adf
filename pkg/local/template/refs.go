package template

import (
	"fmt"
	"sort"
	"strings"
)

// Reference is one use of Ref, Fn::GetAtt or a ${} variable of Fn::Sub in the template.
type Reference struct {
	// Where is the dotted path of the use, e.g. Resources.Api.Properties.Auth.
	Where string
	// Kind is Ref, GetAtt or Sub.
	Kind   string
	Target string
	// Attr is the attribute of a GetAtt (or of a Sub variable X.Attr).
	Attr string
}

// References lists every Ref, Fn::GetAtt and Fn::Sub variable in the template, in a
// stable order.
func (t *Template) References() []Reference {
	var out []Reference
	for _, section := range []string{"Globals", "Conditions", "Resources", "Outputs"} {
		walkRefs(section, t.Doc[section], &out)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Where < out[j].Where })
	return out
}

func walkRefs(where string, v any, out *[]Reference) {
	if name, arg, ok := intrinsic(v); ok {
		switch name {
		case "Ref":
			*out = append(*out, Reference{Where: where, Kind: "Ref", Target: asString(arg)})
			return
		case "Fn::GetAtt":
			res, attr, _ := getAttTarget(v)
			*out = append(*out, Reference{Where: where, Kind: "GetAtt", Target: res, Attr: attr})
			return
		case "Fn::Sub":
			format, vars := "", map[string]any{}
			switch a := arg.(type) {
			case string:
				format = a
			case []any:
				if len(a) == 2 {
					format, vars = asString(a[0]), asMap(a[1])
					walkRefs(where+".Fn::Sub", a[1], out)
				}
			}
			expandSub(format, func(expr string) string {
				if _, ok := vars[expr]; ok {
					return ""
				}
				res, attr, _ := strings.Cut(expr, ".")
				if strings.HasPrefix(expr, "AWS::") {
					res, attr = expr, ""
				}
				*out = append(*out, Reference{Where: where, Kind: "Sub", Target: res, Attr: attr})
				return ""
			})
			return
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			walkRefs(where+"."+k, x[k], out)
		}
	case []any:
		for i, e := range x {
			walkRefs(fmt.Sprintf("%s[%d]", where, i), e, out)
		}
	}
}

// pseudoParameters are the CloudFormation pseudo parameters.
var pseudoParameters = map[string]bool{
	"AWS::AccountId": true, "AWS::NotificationARNs": true, "AWS::NoValue": true,
	"AWS::Partition": true, "AWS::Region": true, "AWS::StackId": true,
	"AWS::StackName": true, "AWS::URLSuffix": true,
}

// CheckReferences returns an error for each reference whose target is neither a resource,
// a parameter nor a pseudo parameter (GetAtt targets must be resources).
func (t *Template) CheckReferences() []error {
	var errs []error
	for _, r := range t.References() {
		_, isResource := t.Resources[r.Target]
		_, isParam := t.Parameters[r.Target]
		ok := isResource
		if r.Attr == "" {
			ok = ok || isParam || pseudoParameters[r.Target] || t.isAPIStageRef(r)
		}
		if !ok {
			what := r.Target
			if r.Attr != "" {
				what += "." + r.Attr
			}
			errs = append(errs, fmt.Errorf("%s: %s %s does not exist", r.Where, r.Kind, what))
		}
	}
	return errs
}

// isAPIStageRef reports whether r is SAM's Ref to the stage or deployment an
// AWS::Serverless::Api generates (!Ref Api.Stage).
func (t *Template) isAPIStageRef(r Reference) bool {
	api, attr, found := strings.Cut(r.Target, ".")
	return r.Kind == "Ref" && found && (attr == "Stage" || attr == "Deployment") && t.Resources[api].Type == TypeAPI
}
