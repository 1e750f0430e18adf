package template_test

import (
	"encoding/json"
	"net/http"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/ratelimit"
)

// The tests of this file hold template.yaml to what running it in production
// needs (docs/operations.md): per-account usage plans, least privilege,
// observability, alarms and data protection.

// grant is one action an IAM statement of a function allows, with the
// statement's resources and condition.
type grant struct {
	action    string
	resources []any
	condition map[string]any
}

// grantsOf lists what f's policies allow: inline statements and the
// template's managed policies it references. A SAM policy template on the
// table fails the test (they all carry actions beyond what a function uses,
// Scan among them); the SQS ones are not table access and are skipped.
func grantsOf(t *testing.T, tpl *template.Template, f template.Function) []grant {
	t.Helper()
	var stmts []any
	for _, p := range f.Policies {
		m, ok := p.(map[string]any)
		if !ok {
			t.Errorf("%s: policy %v is neither a statement nor a reference", f.LogicalID, p)
			continue
		}
		switch {
		case m["Ref"] != nil:
			r, ok := tpl.Resources[m["Ref"].(string)]
			if !ok || r.Type != "AWS::IAM::ManagedPolicy" {
				t.Errorf("%s: policy !Ref %v is not a managed policy of the template", f.LogicalID, m["Ref"])
				continue
			}
			stmts = append(stmts, list(dig(r.Properties, "PolicyDocument", "Statement"))...)
		case m["Statement"] != nil:
			stmts = append(stmts, list(m["Statement"])...)
		default:
			for name := range m {
				if strings.HasPrefix(name, "DynamoDB") {
					t.Errorf("%s: SAM policy template %s grants more than the function uses (Scan among it)", f.LogicalID, name)
				}
			}
		}
	}
	var out []grant
	for _, st := range stmts {
		sm, _ := st.(map[string]any)
		if sm["Effect"] != "Allow" {
			continue
		}
		actions := list(sm["Action"])
		if a, ok := sm["Action"].(string); ok {
			actions = []any{a}
		}
		resources := list(sm["Resource"])
		if resources == nil {
			resources = []any{sm["Resource"]}
		}
		cond, _ := sm["Condition"].(map[string]any)
		for _, a := range actions {
			out = append(out, grant{action: a.(string), resources: resources, condition: cond})
		}
	}
	return out
}

// leadingKeys is the dynamodb:LeadingKeys patterns a grant is limited to (nil: any key).
func (g grant) leadingKeys() []string {
	var out []string
	for _, v := range list(dig(g.condition, "ForAllValues:StringLike", "dynamodb:LeadingKeys")) {
		out = append(out, v.(string))
	}
	return out
}

// canCountRequests reports whether grants allow the rate limiter's UpdateItem.
func canCountRequests(grants []grant) bool {
	return slices.ContainsFunc(grants, func(g grant) bool {
		return g.action == "dynamodb:UpdateItem" && (g.leadingKeys() == nil || slices.Equal(g.leadingKeys(), []string{"*#RL"}))
	})
}

// idempotencyOnly reports whether a grant is limited to Idempotency-Key records.
func idempotencyOnly(g grant) bool { return slices.Equal(g.leadingKeys(), []string{"*#IDEM"}) }

// canKeepIdempotencyKeys reports whether grants allow pkg/idempotency's PutItem and
// DeleteItem on <account>#IDEM items.
func canKeepIdempotencyKeys(grants []grant) bool {
	allows := func(action string) bool {
		return slices.ContainsFunc(grants, func(g grant) bool {
			return g.action == action && (g.leadingKeys() == nil || idempotencyOnly(g))
		})
	}
	return allows("dynamodb:PutItem") && allows("dynamodb:DeleteItem")
}

// servesWrites reports whether a function serves a POST, PUT, PATCH or DELETE route: those
// take an Idempotency-Key.
func servesWrites(f template.Function) bool {
	return slices.ContainsFunc(f.APIEvents, func(e template.APIEvent) bool {
		return e.Method == "POST" || e.Method == "PUT" || e.Method == "PATCH" || e.Method == "DELETE"
	})
}

// deleters are the functions that delete items, and what they delete.
var deleters = map[string]string{
	"ProductsDeleteFunction":          "products (and a dissolved group's)",
	"VariationGroupsDeleteFunction":   "variation groups",
	"ListingsDeleteFunction":          "listings",
	"WebhooksDeleteFunction":          "webhooks",
	"ChannelsDeleteFunction":          "a disconnected channel's credentials",
	"InventoryCreateFunction":         "order index items, allocating waiting orders",
	"InventoryAdjustConsumerFunction": "order index items, allocating waiting orders",
	"WarehousesUpdateFunction":        "order index items, re-allocating an archived warehouse's orders",
	"ShipmentsCreateFunction":         "order index items of a shipped order",
	"ChannelInboxFunction":            "order index items of imported orders",
}

// TestTemplatePermissions: every function gets only the table actions it
// uses. No Scan, no wildcard, DeleteItem only where something is deleted
// (or on Idempotency-Key records, which every function serving writes
// claims and releases), and the authorizer one GetItem on account items.
func TestTemplatePermissions(t *testing.T) {
	tpl := loadTemplate(t)
	for _, f := range tpl.Functions {
		t.Run(f.LogicalID, func(t *testing.T) {
			grants := grantsOf(t, tpl, f)
			var actions []string
			for _, g := range grants {
				actions = append(actions, g.action)
				if g.action == "dynamodb:Scan" || strings.HasSuffix(g.action, "*") {
					t.Errorf("allows %s", g.action)
				}
			}
			_, deletes := deleters[f.LogicalID]
			if got := slices.ContainsFunc(grants, func(g grant) bool { return g.action == "dynamodb:DeleteItem" && !idempotencyOnly(g) }); got != deletes {
				t.Errorf("DeleteItem allowed: %v, want %v (deleters lists the functions that delete)", got, deletes)
			}
			if servesWrites(f) && !canKeepIdempotencyKeys(grants) {
				t.Errorf("serves writes but cannot claim (PutItem) and release (DeleteItem) Idempotency-Key records")
			}
			if f.Folder != "authorizer" {
				return
			}
			if len(grants) != 1 || grants[0].action != "dynamodb:GetItem" {
				t.Fatalf("authorizer allows %v, want one GetItem", actions)
			}
			patterns := grants[0].leadingKeys()
			id := accounts.IDForToken("any token")
			if len(patterns) != 1 || !matchIAM(patterns[0], id) || matchIAM(patterns[0], id+"#RL") {
				t.Errorf("authorizer's GetItem limited to %v, want account items only (like %s, not %s#RL)", patterns, id, id)
			}
		})
	}
}

// matchIAM matches s against an IAM StringLike pattern (* any run, ? one character).
func matchIAM(pattern, s string) bool {
	ok, err := path.Match(strings.NewReplacer("[", `\[`, "]", `\]`).Replace(pattern), s)
	return err == nil && ok && !strings.Contains(pattern, "/")
}

// TestTemplateUsagePlans: the authorizer is the API key source and every
// method needs a key, so each account's usage plan throttles it; the plan
// of the default rate is the template's; the stage throttle guards the
// region's quota, not merchants; WAF rate-limits per IP; refusals look like
// the functions' own.
func TestTemplateUsagePlans(t *testing.T) {
	tpl := loadTemplate(t)
	apiProps := tpl.Resources[tpl.API.LogicalID].Properties
	if tpl.API.APIKeySource != "AUTHORIZER" || !tpl.API.APIKeyRequired {
		t.Errorf("ApiKeySourceType %s, ApiKeyRequired %v; want AUTHORIZER and true", tpl.API.APIKeySource, tpl.API.APIKeyRequired)
	}
	if dig(apiProps, "Auth", "UsagePlan") != nil {
		t.Error("Auth.UsagePlan makes one plan for every account; the plans are per rate")
	}
	plan := tpl.Resources["DefaultUsagePlan"]
	if plan.Type != "AWS::ApiGateway::UsagePlan" ||
		dig(plan.Properties, "Throttle", "RateLimit") != accounts.DefaultRPS || dig(plan.Properties, "Throttle", "BurstLimit") != accounts.DefaultRPS {
		t.Errorf("DefaultUsagePlan = %+v, want the default rate %d/s, burst %d", plan, accounts.DefaultRPS, accounts.DefaultRPS)
	}
	stage := list(dig(plan.Properties, "ApiStages"))
	if len(stage) != 1 || dig(stage[0], "ApiId", "Ref") != tpl.API.LogicalID || dig(stage[0], "Stage", "Ref") != tpl.API.LogicalID+".Stage" {
		t.Errorf("DefaultUsagePlan stages %v, want the API's stage", stage)
	}
	for _, name := range []string{"ThrottleRateLimit", "ThrottleBurstLimit"} {
		if def, _ := tpl.Parameters[name]["Default"].(int); def < 1000 {
			t.Errorf("%s defaults to %v: the stage throttle guards the regional quota, it must not ration merchants", name, tpl.Parameters[name]["Default"])
		}
	}
	waf := tpl.Resources["WebAcl"]
	rule := list(dig(waf.Properties, "Rules"))
	if waf.Type != "AWS::WAFv2::WebACL" || len(rule) == 0 || dig(rule[0], "Statement", "RateBasedStatement", "AggregateKeyType") != "IP" {
		t.Errorf("WebAcl = %+v, want a per-IP rate-based rule", waf)
	}
	for _, id := range []string{"WebAcl", "WebAclAssociation"} {
		if c := rawResource(tpl, id)["Condition"]; c != "WafEnabled" {
			t.Errorf("%s: Condition %v, want WafEnabled (EnableWaf turns it off)", id, c)
		}
	}
	refusal := api.RateLimited(1)
	th := tpl.API.GatewayResponses["THROTTLED"]
	if th.StatusCode != http.StatusForbidden || th.Templates["application/json"] != refusal.Body || th.Headers["Content-Type"] != refusal.Headers["Content-Type"] {
		t.Errorf("THROTTLED = %+v, want the functions' refusal: 403 %q", th, refusal.Body)
	}
	if ik := tpl.API.GatewayResponses["INVALID_API_KEY"]; ik.StatusCode != http.StatusUnauthorized {
		t.Errorf("INVALID_API_KEY = %+v, want 401 (an account without its key cannot authenticate)", ik)
	}
	az := tpl.API.Authorizers[tpl.API.DefaultAuthorizer]
	if az.ReauthorizeEvery > ratelimit.CacheCover {
		t.Errorf("ReauthorizeEvery %v outlasts what a revocation covers (%v): a rotated secret would work again", az.ReauthorizeEvery, ratelimit.CacheCover)
	}
}

// TestTemplateObservability: X-Ray on every function and the stage, JSON
// access logs, every log group kept LogRetentionDays (30 by default).
func TestTemplateObservability(t *testing.T) {
	tpl := loadTemplate(t)
	if got := dig(tpl.Doc, "Globals", "Function", "Tracing"); got != "Active" {
		t.Errorf("Globals.Function.Tracing = %v, want Active", got)
	}
	for _, f := range tpl.Functions {
		if v, ok := tpl.Resources[f.LogicalID].Properties["Tracing"]; ok && v != "Active" {
			t.Errorf("%s: Tracing %v", f.LogicalID, v)
		}
	}
	apiProps := tpl.Resources[tpl.API.LogicalID].Properties
	if apiProps["TracingEnabled"] != true {
		t.Error("the API's TracingEnabled must be true")
	}
	format, _ := dig(apiProps, "AccessLogSetting", "Format").(string)
	var fields map[string]string
	if err := json.Unmarshal([]byte(format), &fields); err != nil || fields["requestId"] == "" || fields["status"] == "" {
		t.Errorf("access log format %q: want a JSON object with requestId and status (%v)", format, err)
	}
	if def := tpl.Parameters["LogRetentionDays"]["Default"]; def != 30 {
		t.Errorf("LogRetentionDays defaults to %v, want 30", def)
	}
	groups := map[string]any{
		"access log":     dig(apiProps, "AccessLogSetting", "DestinationArn", "Fn::GetAtt"),
		"functions' log": dig(tpl.Doc, "Globals", "Function", "LoggingConfig", "LogGroup", "Ref"),
	}
	for what, ref := range groups {
		id, _ := ref.(string)
		if l := list(ref); len(l) > 0 {
			id, _ = l[0].(string)
		}
		g := tpl.Resources[id]
		if g.Type != "AWS::Logs::LogGroup" || dig(g.Properties, "RetentionInDays", "Ref") != "LogRetentionDays" {
			t.Errorf("%s: %s is not a log group kept LogRetentionDays", what, id)
		}
	}
	if got := dig(tpl.Doc, "Globals", "Function", "LoggingConfig", "LogFormat"); got != "JSON" {
		t.Errorf("LogFormat %v, want JSON", got)
	}
}

// alarm is a CloudWatch alarm of the template: its metric and what it watches.
type alarm struct {
	id, namespace, metric string
	dims                  map[string]any
	actions               []any
}

func alarms(tpl *template.Template) []alarm {
	var out []alarm
	for id, r := range tpl.Resources {
		if r.Type != "AWS::CloudWatch::Alarm" {
			continue
		}
		a := alarm{id: id, namespace: asText(r.Properties["Namespace"]), metric: asText(r.Properties["MetricName"]),
			dims: map[string]any{}, actions: list(r.Properties["AlarmActions"])}
		for _, d := range list(r.Properties["Dimensions"]) {
			a.dims[asText(dig(d, "Name"))] = dig(d, "Value")
		}
		out = append(out, a)
	}
	return out
}

// hasAlarm reports whether an alarm watches metric of namespace with the dimension name
// set to value.
func hasAlarm(as []alarm, namespace, metric, name string, value any) bool {
	return slices.ContainsFunc(as, func(a alarm) bool {
		got, _ := json.Marshal(a.dims[name])
		want, _ := json.Marshal(value)
		return a.namespace == namespace && a.metric == metric && string(got) == string(want)
	})
}

// TestTemplateAlarms: every dead-letter and failure queue has a depth alarm,
// every other queue an alarm on its oldest message; every function's errors
// and throttles are watched (an HTTP function's as the API's 5xx rate), every
// stream consumer's iterator age; every alarm notifies the alarm topic.
func TestTemplateAlarms(t *testing.T) {
	tpl := loadTemplate(t)
	as := alarms(tpl)
	setAside := map[string]bool{}
	for _, q := range tpl.Queues {
		if q.DeadLetterQueue != "" {
			setAside[q.DeadLetterQueue] = true
		}
	}
	for _, f := range tpl.Functions {
		for _, ev := range f.DynamoDBEvents {
			setAside[ev.OnFailure] = true
		}
	}
	for _, q := range tpl.Queues {
		name := map[string]any{"Fn::GetAtt": []any{q.LogicalID, "QueueName"}}
		metric := "ApproximateAgeOfOldestMessage"
		if setAside[q.LogicalID] {
			metric = "ApproximateNumberOfMessagesVisible"
		}
		if !hasAlarm(as, "AWS/SQS", metric, "QueueName", name) {
			t.Errorf("%s: no alarm on %s", q.LogicalID, metric)
		}
	}
	apiName := map[string]any{"Fn::Sub": "${AWS::StackName}-api"}
	if tpl.Resources[tpl.API.LogicalID].Properties["Name"] == nil || !hasAlarm(as, "AWS/ApiGateway", "5XXError", "ApiName", apiName) {
		t.Error("no alarm on the API's 5XXError")
	}
	for _, f := range tpl.Functions {
		fn := map[string]any{"Ref": f.LogicalID}
		metrics := []string{"Errors", "Throttles"}
		if len(f.APIEvents) > 0 {
			metrics = nil // an error or a throttle is a 5xx answer: the API's alarm
		}
		if len(f.DynamoDBEvents) > 0 {
			metrics = append(metrics, "IteratorAge")
		}
		for _, m := range metrics {
			if !hasAlarm(as, "AWS/Lambda", m, "FunctionName", fn) {
				t.Errorf("%s: no alarm on %s", f.LogicalID, m)
			}
		}
	}
	if tpl.Resources["AlarmTopic"].Type != "AWS::SNS::Topic" {
		t.Fatal("no AlarmTopic")
	}
	for _, a := range as {
		if !slices.ContainsFunc(a.actions, func(v any) bool { return dig(v, "Ref") == "AlarmTopic" }) {
			t.Errorf("%s does not notify AlarmTopic", a.id)
		}
	}
	if sub := rawResource(tpl, "AlarmEmailSubscription"); sub["Condition"] != "HasAlarmEmail" {
		t.Error("AlarmEmailSubscription must exist only with an AlarmEmail (Condition HasAlarmEmail)")
	}
}

// TestTemplateDataProtection: the table cannot be deleted by accident and
// outlives the stack, with point-in-time recovery; what dead-letter and
// failure queues hold outlives the stack too; queue consumers have a
// concurrency ceiling; an AWS call gives up before its function times out.
func TestTemplateDataProtection(t *testing.T) {
	tpl := loadTemplate(t)
	table := rawResource(tpl, tpl.Table.LogicalID)
	props := tpl.Resources[tpl.Table.LogicalID].Properties
	if props["DeletionProtectionEnabled"] != true || table["DeletionPolicy"] != "Retain" ||
		dig(props, "PointInTimeRecoverySpecification", "PointInTimeRecoveryEnabled") != true {
		t.Errorf("table: want DeletionProtectionEnabled, DeletionPolicy Retain and point-in-time recovery")
	}
	for _, q := range tpl.Queues {
		for _, dest := range []string{q.DeadLetterQueue} {
			if dest != "" && rawResource(tpl, dest)["DeletionPolicy"] != "Retain" {
				t.Errorf("%s (dead-letter queue of %s): DeletionPolicy must be Retain", dest, q.LogicalID)
			}
		}
	}
	for _, f := range tpl.Functions {
		for _, ev := range f.DynamoDBEvents {
			if rawResource(tpl, ev.OnFailure)["DeletionPolicy"] != "Retain" {
				t.Errorf("%s (failures of %s): DeletionPolicy must be Retain", ev.OnFailure, f.LogicalID)
			}
		}
		events, _ := tpl.Resources[f.LogicalID].Properties["Events"].(map[string]any)
		for _, ev := range f.SQSEvents {
			if n, _ := dig(events[ev.Name], "Properties", "ScalingConfig", "MaximumConcurrency").(int); n < 2 {
				t.Errorf("%s.%s: ScalingConfig.MaximumConcurrency %d, want a ceiling of at least 2", f.LogicalID, ev.Name, n)
			}
		}
		if f.Timeout <= app.SDKCallBudget {
			t.Errorf("%s: timeout %v, not longer than an AWS call's budget %v", f.LogicalID, f.Timeout, app.SDKCallBudget)
		}
	}
	if app.SDKCallBudget > 10*time.Second {
		t.Errorf("SDK call budget %v", app.SDKCallBudget)
	}
}

// rawResource is the resource's entry as written (Condition, DeletionPolicy, ...).
func rawResource(tpl *template.Template, id string) map[string]any {
	m, _ := dig(tpl.Doc, "Resources", id).(map[string]any)
	return m
}

// dig walks nested maps by key.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func asText(v any) string {
	s, _ := v.(string)
	return s
}

// TestTemplateOutageResponses: when the authorizer cannot read the account
// (an outage), API Gateway answers as the functions do in one: 503 with
// Retry-After and the same body.
func TestTemplateOutageResponses(t *testing.T) {
	tpl := loadTemplate(t)
	want := api.Unavailable()
	got := tpl.API.GatewayResponses["AUTHORIZER_FAILURE"]
	if got.StatusCode != want.StatusCode || got.Templates["application/json"] != want.Body ||
		got.Headers["Retry-After"] != want.Headers["Retry-After"] || got.Headers["Content-Type"] != want.Headers["Content-Type"] {
		t.Errorf("AUTHORIZER_FAILURE = %+v, want the functions' 503: %d %s %v", got, want.StatusCode, want.Body, want.Headers)
	}
}
