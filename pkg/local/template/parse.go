package template

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// ParseFile reads and parses a SAM template file.
func ParseFile(file string) (*Template, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read template: %w", err)
	}
	t, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	t.Path = file
	return t, nil
}

// Parse parses a SAM template.
func Parse(data []byte) (*Template, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		return nil, fmt.Errorf("parse template YAML: %w", err)
	}
	v, err := decodeNode(&root)
	if err != nil {
		return nil, fmt.Errorf("parse template YAML: %w", err)
	}
	doc := asMap(v)
	if doc == nil {
		return nil, fmt.Errorf("template is not a YAML mapping")
	}
	t := &Template{
		Doc:        doc,
		Parameters: map[string]map[string]any{},
		Resources:  map[string]Resource{},
	}
	for name, p := range asMap(doc["Parameters"]) {
		t.Parameters[name] = asMap(p)
	}
	resources := asMap(doc["Resources"])
	if len(resources) == 0 {
		return nil, fmt.Errorf("template has no Resources")
	}
	for _, id := range sortedKeys(resources) {
		r := asMap(resources[id])
		typ := asString(r["Type"])
		if typ == "" {
			return nil, fmt.Errorf("resource %s has no Type", id)
		}
		t.Resources[id] = Resource{
			LogicalID:  id,
			Type:       typ,
			Properties: asMap(r["Properties"]),
			Metadata:   asMap(r["Metadata"]),
		}
	}
	if err := t.build(); err != nil {
		return nil, err
	}
	return t, nil
}

func (t *Template) build() error {
	globals := asMap(asMap(t.Doc["Globals"])["Function"])
	for _, id := range sortedKeys(t.Resources) {
		r := t.Resources[id]
		var err error
		switch r.Type {
		case TypeFunction:
			var f Function
			f, err = t.parseFunction(r, globals)
			t.Functions = append(t.Functions, f)
		case TypeAPI:
			if t.API != nil {
				return fmt.Errorf("resource %s: only one %s is supported (also %s)", id, TypeAPI, t.API.LogicalID)
			}
			t.API, err = t.parseAPI(r)
		case TypeTable:
			if t.Table != nil {
				return fmt.Errorf("resource %s: only one %s is supported (also %s)", id, TypeTable, t.Table.LogicalID)
			}
			t.Table, err = parseTable(r)
		case TypeQueue:
			var q Queue
			q, err = t.parseQueue(r)
			t.Queues = append(t.Queues, q)
		case TypeKMSKey:
			t.Keys = append(t.Keys, parseKey(r))
		}
		if err != nil {
			return fmt.Errorf("resource %s: %w", id, err)
		}
	}
	if err := t.addAliases(); err != nil {
		return err
	}
	return t.checkStreamEvents()
}

// checkStreamEvents checks what a DynamoDB event names once every resource is read: its
// stream is the table's, which has a StreamSpecification, and its on-failure destination is
// a standard queue of the template.
func (t *Template) checkStreamEvents() error {
	for _, f := range t.Functions {
		for _, ev := range f.DynamoDBEvents {
			where := fmt.Sprintf("resource %s: event %s", f.LogicalID, ev.Name)
			if t.Table == nil || t.Table.LogicalID != ev.Stream {
				return fmt.Errorf("%s: Stream: %s is not the template's %s", where, ev.Stream, TypeTable)
			}
			if t.Table.StreamViewType == "" {
				return fmt.Errorf("%s: table %s has no StreamSpecification, so no stream to read", where, ev.Stream)
			}
			if ev.OnFailure == "" {
				continue
			}
			q, ok := t.Queue(ev.OnFailure)
			if !ok {
				return fmt.Errorf("%s: on-failure destination %s is not an %s of the template", where, ev.OnFailure, TypeQueue)
			}
			if q.Fifo {
				return fmt.Errorf("%s: on-failure destination %s is a FIFO queue; Lambda sends stream failures to standard queues only", where, ev.OnFailure)
			}
		}
	}
	return nil
}

// mergeGlobals applies SAM's Globals rules: maps merge key by key, lists are additive and
// the resource's own scalars win.
func mergeGlobals(global, local map[string]any) map[string]any {
	out := make(map[string]any, len(global)+len(local))
	for k, v := range local {
		out[k] = v
	}
	for k, gv := range global {
		lv, ok := out[k]
		if !ok {
			out[k] = gv
			continue
		}
		gm, gIsMap := gv.(map[string]any)
		lm, lIsMap := lv.(map[string]any)
		if gIsMap && lIsMap {
			if _, _, isFn := intrinsic(lm); !isFn {
				out[k] = mergeGlobals(gm, lm)
			}
			continue
		}
		gl, gIsList := gv.([]any)
		ll, lIsList := lv.([]any)
		if gIsList && lIsList {
			out[k] = append(append([]any{}, gl...), ll...)
		}
	}
	return out
}

func (t *Template) parseFunction(r Resource, globals map[string]any) (Function, error) {
	p := mergeGlobals(globals, r.Properties)
	f := Function{
		LogicalID:     r.LogicalID,
		Runtime:       asString(p["Runtime"]),
		Handler:       asString(p["Handler"]),
		Architectures: asStrings(p["Architectures"]),
		BuildMethod:   asString(r.Metadata["BuildMethod"]),
		Environment:   asMap(asMap(p["Environment"])["Variables"]),
		Policies:      asList(p["Policies"]),
	}
	codeURI, ok := p["CodeUri"].(string)
	if !ok || strings.Trim(codeURI, "/") == "" {
		return f, fmt.Errorf("CodeUri must be a local folder path")
	}
	f.CodeURI = codeURI
	f.Folder = path.Base(strings.Trim(codeURI, "/"))
	if f.Environment == nil {
		f.Environment = map[string]any{}
	}
	var err error
	if f.MemorySize, err = t.intValue(p["MemorySize"], 128); err != nil {
		return f, fmt.Errorf("MemorySize: %w", err)
	}
	timeout, err := t.intValue(p["Timeout"], 3)
	if err != nil {
		return f, fmt.Errorf("property Timeout: %w", err)
	}
	f.Timeout = time.Duration(timeout) * time.Second
	events := asMap(p["Events"])
	for _, name := range sortedKeys(events) {
		ev := asMap(events[name])
		props := asMap(ev["Properties"])
		switch typ := asString(ev["Type"]); typ {
		case "Api":
			a, err := parseAPIEvent(name, props)
			if err != nil {
				return f, fmt.Errorf("event %s: %w", name, err)
			}
			f.APIEvents = append(f.APIEvents, a)
		case "SQS":
			s, err := t.parseSQSEvent(name, props)
			if err != nil {
				return f, fmt.Errorf("event %s: %w", name, err)
			}
			f.SQSEvents = append(f.SQSEvents, s)
		case "DynamoDB":
			d, err := t.parseDynamoDBEvent(name, props)
			if err != nil {
				return f, fmt.Errorf("event %s: %w", name, err)
			}
			f.DynamoDBEvents = append(f.DynamoDBEvents, d)
		case "Schedule":
			sc, err := parseScheduleEvent(name, props)
			if err != nil {
				return f, fmt.Errorf("event %s: %w", name, err)
			}
			f.ScheduleEvents = append(f.ScheduleEvents, sc)
		}
	}
	return f, nil
}

func parseAPIEvent(name string, p map[string]any) (APIEvent, error) {
	e := APIEvent{
		Name:       name,
		Path:       asString(p["Path"]),
		Method:     strings.ToUpper(asString(p["Method"])),
		Authorizer: asString(asMap(p["Auth"])["Authorizer"]),
	}
	if !strings.HasPrefix(e.Path, "/") {
		return e, fmt.Errorf("property Path %q must start with /", e.Path)
	}
	if e.Method == "" {
		return e, errors.New("property Method is required")
	}
	if rest, ok := p["RestApiId"]; ok {
		target, ok := refTarget(rest)
		if !ok {
			return e, fmt.Errorf("RestApiId must be !Ref to an AWS::Serverless::Api")
		}
		e.RestAPI = target
	}
	return e, nil
}

func (t *Template) parseSQSEvent(name string, p map[string]any) (SQSEvent, error) {
	e := SQSEvent{Name: name, Enabled: true}
	res, attr, ok := getAttTarget(p["Queue"])
	if !ok || attr != "Arn" {
		return e, fmt.Errorf("Queue must be !GetAtt <Queue>.Arn")
	}
	e.Queue = res
	var err error
	if e.BatchSize, err = t.intValue(p["BatchSize"], 10); err != nil {
		return e, fmt.Errorf("BatchSize: %w", err)
	}
	window, err := t.intValue(p["MaximumBatchingWindowInSeconds"], 0)
	if err != nil {
		return e, fmt.Errorf("MaximumBatchingWindowInSeconds: %w", err)
	}
	e.MaxBatchingWindow = time.Duration(window) * time.Second
	if sc, ok := p["ScalingConfig"].(map[string]any); ok {
		if e.MaxConcurrency, err = t.intValue(sc["MaximumConcurrency"], 0); err != nil {
			return e, fmt.Errorf("ScalingConfig.MaximumConcurrency: %w", err)
		}
	}
	for _, rt := range asStrings(p["FunctionResponseTypes"]) {
		if rt == "ReportBatchItemFailures" {
			e.ReportBatchItemFailures = true
		}
	}
	if v, ok := p["Enabled"]; ok {
		e.Enabled = asBool(v)
	}
	return e, nil
}

// streamStartingPositions are the StartingPosition values of a DynamoDB stream source.
var streamStartingPositions = map[string]bool{"TRIM_HORIZON": true, "LATEST": true}

func (t *Template) parseDynamoDBEvent(name string, p map[string]any) (DynamoDBEvent, error) {
	e := DynamoDBEvent{Name: name, Enabled: true}
	res, attr, ok := getAttTarget(p["Stream"])
	if !ok || attr != "StreamArn" {
		return e, errors.New("property Stream must be !GetAtt <Table>.StreamArn")
	}
	e.Stream = res
	e.StartingPosition = asString(p["StartingPosition"])
	if !streamStartingPositions[e.StartingPosition] {
		return e, fmt.Errorf("StartingPosition must be TRIM_HORIZON or LATEST, not %q", e.StartingPosition)
	}
	ints := []struct {
		field    string
		def      int
		min, max int
		dst      *int
	}{
		{"BatchSize", 100, 1, 10000, &e.BatchSize},
		{"MaximumRetryAttempts", -1, -1, 10000, &e.MaximumRetryAttempts},
		{"ParallelizationFactor", 1, 1, 10, &e.ParallelizationFactor},
	}
	for _, f := range ints {
		n, err := t.intValue(p[f.field], f.def)
		if err != nil {
			return e, fmt.Errorf("%s: %w", f.field, err)
		}
		if n < f.min || n > f.max {
			return e, fmt.Errorf("%s %d is outside %d..%d", f.field, n, f.min, f.max)
		}
		*f.dst = n
	}
	if e.ParallelizationFactor != 1 {
		return e, fmt.Errorf("ParallelizationFactor %d: the local stack plays only 1 (one batch per shard at a time, in order)", e.ParallelizationFactor)
	}
	window, err := t.intValue(p["MaximumBatchingWindowInSeconds"], 0)
	if err != nil {
		return e, fmt.Errorf("MaximumBatchingWindowInSeconds: %w", err)
	}
	if window < 0 || window > 300 {
		return e, fmt.Errorf("MaximumBatchingWindowInSeconds %d is outside 0..300", window)
	}
	e.MaxBatchingWindow = time.Duration(window) * time.Second
	age, err := t.intValue(p["MaximumRecordAgeInSeconds"], -1)
	if err != nil {
		return e, fmt.Errorf("MaximumRecordAgeInSeconds: %w", err)
	}
	if age != -1 && (age < 60 || age > 604800) {
		return e, fmt.Errorf("MaximumRecordAgeInSeconds %d must be -1 or within 60..604800", age)
	}
	if age > 0 {
		e.MaximumRecordAge = time.Duration(age) * time.Second
	}
	if v, ok := p["BisectBatchOnFunctionError"]; ok {
		e.Bisect = asBool(v)
	}
	for _, rt := range asStrings(p["FunctionResponseTypes"]) {
		if rt != "ReportBatchItemFailures" {
			return e, fmt.Errorf("FunctionResponseTypes: unknown %q", rt)
		}
		e.ReportBatchItemFailures = true
	}
	if v, ok := p["Enabled"]; ok {
		e.Enabled = asBool(v)
	}
	if _, ok := p["TumblingWindowInSeconds"]; ok {
		return e, errors.New("TumblingWindowInSeconds is not supported by the local stack")
	}
	if dc, ok := p["DestinationConfig"]; ok {
		of := asMap(asMap(dc)["OnFailure"])
		if of == nil {
			return e, errors.New("DestinationConfig must have OnFailure")
		}
		if typ := asString(of["Type"]); typ != "" && typ != "SQS" {
			return e, fmt.Errorf("DestinationConfig.OnFailure.Type %q: only SQS destinations are played locally", typ)
		}
		q, attr, ok := getAttTarget(of["Destination"])
		if !ok || attr != "Arn" {
			return e, errors.New("DestinationConfig.OnFailure.Destination must be !GetAtt <Queue>.Arn")
		}
		e.OnFailure = q
	}
	if fc, ok := p["FilterCriteria"]; ok {
		filters := asList(asMap(fc)["Filters"])
		if len(filters) == 0 {
			return e, errors.New("FilterCriteria must have Filters")
		}
		for i, f := range filters {
			src, ok := asMap(f)["Pattern"].(string)
			if !ok {
				return e, fmt.Errorf("FilterCriteria.Filters[%d].Pattern must be a JSON string", i)
			}
			pat, err := ParseFilterPattern(src)
			if err != nil {
				return e, fmt.Errorf("FilterCriteria.Filters[%d]: %w", i, err)
			}
			e.Filters = append(e.Filters, pat)
		}
	}
	return e, nil
}

func (t *Template) parseAPI(r Resource) (*API, error) {
	p := r.Properties
	a := &API{
		LogicalID:        r.LogicalID,
		StageName:        asString(p["StageName"]),
		Authorizers:      map[string]Authorizer{},
		GatewayResponses: map[string]GatewayResponse{},
	}
	if target, ok := refTarget(p["StageName"]); ok {
		a.StageName = asString(t.Parameters[target]["Default"])
	}
	if a.StageName == "" {
		return nil, fmt.Errorf("StageName is required")
	}
	auth := asMap(p["Auth"])
	a.DefaultAuthorizer = asString(auth["DefaultAuthorizer"])
	a.APIKeyRequired = asBool(auth["ApiKeyRequired"])
	a.APIKeySource = strings.ToUpper(asString(p["ApiKeySourceType"]))
	if a.APIKeySource == "" {
		a.APIKeySource = "HEADER"
	}
	authorizers := asMap(auth["Authorizers"])
	for _, name := range sortedKeys(authorizers) {
		az := asMap(authorizers[name])
		fn, attr, ok := getAttTarget(az["FunctionArn"])
		if !ok || attr != "Arn" {
			return nil, fmt.Errorf("authorizer %s: FunctionArn must be !GetAtt <Function>.Arn", name)
		}
		identity := asMap(az["Identity"])
		ttl, err := t.intValue(identity["ReauthorizeEvery"], 300)
		if err != nil {
			return nil, fmt.Errorf("authorizer %s: ReauthorizeEvery: %w", name, err)
		}
		payload := strings.ToUpper(asString(az["FunctionPayloadType"]))
		if payload == "" {
			payload = "TOKEN"
		}
		headers := asStrings(identity["Headers"])
		if payload == "TOKEN" {
			header := asString(identity["Header"])
			if header == "" {
				header = "Authorization"
			}
			headers = []string{header}
		}
		a.Authorizers[name] = Authorizer{
			Name:             name,
			Function:         fn,
			PayloadType:      payload,
			IdentityHeaders:  headers,
			ReauthorizeEvery: time.Duration(ttl) * time.Second,
		}
	}
	if a.DefaultAuthorizer != "" && a.DefaultAuthorizer != "NONE" {
		if _, ok := a.Authorizers[a.DefaultAuthorizer]; !ok {
			return nil, fmt.Errorf("DefaultAuthorizer %s is not in Auth.Authorizers", a.DefaultAuthorizer)
		}
	}
	responses := asMap(p["GatewayResponses"])
	for _, typ := range sortedKeys(responses) {
		gr := asMap(responses[typ])
		status, err := t.intValue(gr["StatusCode"], 0)
		if err != nil {
			return nil, fmt.Errorf("gateway response %s: StatusCode: %w", typ, err)
		}
		resp := GatewayResponse{StatusCode: status, Headers: map[string]string{}, Templates: map[string]string{}}
		for name, v := range asMap(asMap(gr["ResponseParameters"])["Headers"]) {
			s := asString(v)
			if len(s) >= 2 && strings.HasPrefix(s, "'") && strings.HasSuffix(s, "'") {
				s = s[1 : len(s)-1]
			}
			resp.Headers[name] = s
		}
		for ct, v := range asMap(gr["ResponseTemplates"]) {
			resp.Templates[ct] = asString(v)
		}
		a.GatewayResponses[typ] = resp
	}
	return a, nil
}

func parseTable(r Resource) (*Table, error) {
	p := r.Properties
	tb := &Table{
		LogicalID:   r.LogicalID,
		TableName:   asString(p["TableName"]),
		BillingMode: asString(p["BillingMode"]),
	}
	if _, ok := p["TableName"].(string); !ok && p["TableName"] != nil {
		return nil, fmt.Errorf("TableName must be a literal string or absent")
	}
	for _, a := range asList(p["AttributeDefinitions"]) {
		m := asMap(a)
		tb.Attributes = append(tb.Attributes, AttributeDefinition{
			Name: asString(m["AttributeName"]),
			Type: asString(m["AttributeType"]),
		})
	}
	var err error
	if tb.HashKey, tb.RangeKey, err = keySchema(p["KeySchema"]); err != nil {
		return nil, fmt.Errorf("KeySchema: %w", err)
	}
	for field, dst := range map[string]*[]Index{"GlobalSecondaryIndexes": &tb.GSIs, "LocalSecondaryIndexes": &tb.LSIs} {
		for _, ix := range asList(p[field]) {
			m := asMap(ix)
			idx := Index{Name: asString(m["IndexName"])}
			if idx.HashKey, idx.RangeKey, err = keySchema(m["KeySchema"]); err != nil {
				return nil, fmt.Errorf("%s %s: %w", field, idx.Name, err)
			}
			proj := asMap(m["Projection"])
			idx.ProjectionType = asString(proj["ProjectionType"])
			idx.NonKeyAttributes = asStrings(proj["NonKeyAttributes"])
			*dst = append(*dst, idx)
		}
	}
	sort.Slice(tb.GSIs, func(i, j int) bool { return tb.GSIs[i].Name < tb.GSIs[j].Name })
	sort.Slice(tb.LSIs, func(i, j int) bool { return tb.LSIs[i].Name < tb.LSIs[j].Name })
	if ttl := asMap(p["TimeToLiveSpecification"]); ttl != nil && asBool(ttl["Enabled"]) {
		tb.TTLAttribute = asString(ttl["AttributeName"])
	}
	if spec, ok := p["StreamSpecification"]; ok {
		tb.StreamViewType = asString(asMap(spec)["StreamViewType"])
		switch tb.StreamViewType {
		case "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES":
		default:
			return nil, fmt.Errorf("StreamSpecification.StreamViewType %q is not KEYS_ONLY, NEW_IMAGE, OLD_IMAGE or NEW_AND_OLD_IMAGES", tb.StreamViewType)
		}
	}
	return tb, nil
}

func keySchema(v any) (hash, rng string, err error) {
	for _, k := range asList(v) {
		m := asMap(k)
		switch asString(m["KeyType"]) {
		case "HASH":
			hash = asString(m["AttributeName"])
		case "RANGE":
			rng = asString(m["AttributeName"])
		default:
			return "", "", fmt.Errorf("unknown KeyType %v", m["KeyType"])
		}
	}
	if hash == "" {
		return "", "", fmt.Errorf("no HASH key")
	}
	return hash, rng, nil
}

func (t *Template) parseQueue(r Resource) (Queue, error) {
	p := r.Properties
	q := Queue{
		LogicalID:                 r.LogicalID,
		QueueName:                 p["QueueName"],
		Fifo:                      asBool(p["FifoQueue"]),
		ContentBasedDeduplication: asBool(p["ContentBasedDeduplication"]),
		DeduplicationScope:        asString(p["DeduplicationScope"]),
		FifoThroughputLimit:       asString(p["FifoThroughputLimit"]),
	}
	seconds := []struct {
		field string
		def   int
		dst   *time.Duration
	}{
		{"VisibilityTimeout", 30, &q.VisibilityTimeout},
		{"MessageRetentionPeriod", 345600, &q.MessageRetentionPeriod},
		{"DelaySeconds", 0, &q.Delay},
		{"ReceiveMessageWaitTimeSeconds", 0, &q.ReceiveMessageWaitTime},
	}
	for _, s := range seconds {
		n, err := t.intValue(p[s.field], s.def)
		if err != nil {
			return q, fmt.Errorf("%s: %w", s.field, err)
		}
		*s.dst = time.Duration(n) * time.Second
	}
	if rp, ok := p["RedrivePolicy"]; ok {
		m := asMap(rp)
		if m == nil {
			return q, fmt.Errorf("RedrivePolicy must be a mapping")
		}
		res, attr, ok := getAttTarget(m["deadLetterTargetArn"])
		if !ok || attr != "Arn" {
			return q, fmt.Errorf("RedrivePolicy.deadLetterTargetArn must be !GetAtt <Queue>.Arn")
		}
		q.DeadLetterQueue = res
		n, err := t.intValue(m["maxReceiveCount"], 0)
		if err != nil || n < 1 {
			return q, fmt.Errorf("RedrivePolicy.maxReceiveCount must be an integer >= 1")
		}
		q.MaxReceiveCount = n
	}
	return q, nil
}

func parseKey(r Resource) Key {
	p := r.Properties
	return Key{
		LogicalID:   r.LogicalID,
		Description: asString(p["Description"]),
		KeySpec:     cmp.Or(asString(p["KeySpec"]), "SYMMETRIC_DEFAULT"),
		KeyUsage:    cmp.Or(asString(p["KeyUsage"]), "ENCRYPT_DECRYPT"),
		Rotation:    asBool(p["EnableKeyRotation"]),
	}
}

// addAliases gives each key of t.Keys the aliases that name it. An alias's AliasName is a
// literal alias/... name (not alias/aws/..., which AWS keeps for its own keys) and its
// TargetKeyId is !Ref, !GetAtt .Arn or !GetAtt .KeyId of a key of the template.
func (t *Template) addAliases() error {
	for _, id := range sortedKeys(t.Resources) {
		r := t.Resources[id]
		if r.Type != TypeKMSAlias {
			continue
		}
		name, ok := r.Properties["AliasName"].(string)
		if !ok || !strings.HasPrefix(name, "alias/") || strings.HasPrefix(name, "alias/aws/") {
			return fmt.Errorf("resource %s: AliasName must be a literal alias/<name> (not alias/aws/...)", id)
		}
		target, ok := refTarget(r.Properties["TargetKeyId"])
		if res, attr, isAtt := getAttTarget(r.Properties["TargetKeyId"]); isAtt && (attr == "Arn" || attr == "KeyId") {
			target, ok = res, true
		}
		i := slices.IndexFunc(t.Keys, func(k Key) bool { return k.LogicalID == target })
		if !ok || i < 0 {
			return fmt.Errorf("resource %s: TargetKeyId must be !Ref, !GetAtt .Arn or !GetAtt .KeyId of an %s of the template", id, TypeKMSKey)
		}
		t.Keys[i].Aliases = append(t.Keys[i].Aliases, Alias{LogicalID: id, Name: name})
	}
	for i := range t.Keys {
		sort.Slice(t.Keys[i].Aliases, func(a, b int) bool { return t.Keys[i].Aliases[a].Name < t.Keys[i].Aliases[b].Name })
	}
	return nil
}
