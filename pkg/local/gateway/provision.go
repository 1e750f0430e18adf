package gateway

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/template"
	"github.com/multisell/multisell/pkg/sdkhttp"
)

// Endpoints are the emulator URLs.
type Endpoints struct {
	DynamoDB string
	SQS      string
	KMS      string
}

// ProvisionOptions configures Provision.
type ProvisionOptions struct {
	// StackName is the local stack name; default "multisell". A table without a TableName
	// is named after the stack, a queue without a QueueName "<stack>-<LogicalId>[.fifo]".
	StackName string
	// Region defaults to us-east-1, AccountID to 000000000000.
	Region    string
	AccountID string
	// TableOnly skips the queues (for a second DynamoDB emulator next to the main stack).
	TableOnly bool
}

// Provision creates the template's table, queues and KMS keys on the emulators (an
// existing table is kept and given any missing index, stream or TTL setting; existing
// queues, and keys found by their alias, are reused) and returns the stack with the
// physical names and the table's stream ARN.
func Provision(ctx context.Context, tpl *template.Template, ep Endpoints, opts ProvisionOptions) (*Stack, error) {
	s := &Stack{
		Name:      cmp.Or(opts.StackName, "multisell"),
		Region:    cmp.Or(opts.Region, "us-east-1"),
		AccountID: cmp.Or(opts.AccountID, "000000000000"),
		Endpoints: ep,
		Queues:    map[string]QueueInfo{},
		template:  tpl,
	}
	s.resolver = &template.Resolver{
		Template: tpl, StackName: s.Name, Region: s.Region, AccountID: s.AccountID,
		Refs: map[string]string{}, Attrs: map[string]string{},
	}
	for id, r := range tpl.Resources {
		if r.Type == template.TypeFunction {
			// Lambda functions resolve to their name and ARN; locally they are the same.
			s.resolver.Refs[id] = s.Name + "-" + id
			s.resolver.Attrs[id+".Arn"] = fmt.Sprintf("arn:aws:lambda:%s:%s:function:%s-%s", s.Region, s.AccountID, s.Name, id)
		}
		if r.Type == "AWS::SecretsManager::Secret" {
			// Not provisioned: the local stack's operator apps are the sandboxes'
			// (app.LocalApps); the name only fills the environment.
			s.resolver.Refs[id] = fmt.Sprintf("arn:aws:secretsmanager:%s:%s:secret:%s-%s", s.Region, s.AccountID, s.Name, id)
		}
	}
	creds := credentials.NewStaticCredentialsProvider("local", "local", "")
	client := sdkhttp.New()
	s.DynamoDB = dynamodb.New(dynamodb.Options{
		Region: s.Region, Credentials: creds, BaseEndpoint: aws.String(ep.DynamoDB), HTTPClient: client,
	})
	s.DynamoDBStreams = dynamodbstreams.New(dynamodbstreams.Options{
		Region: s.Region, Credentials: creds, BaseEndpoint: aws.String(ep.DynamoDB), HTTPClient: client,
	})
	s.SQS = sqs.New(sqs.Options{
		Region: s.Region, Credentials: creds, BaseEndpoint: aws.String(ep.SQS), HTTPClient: client,
	})
	s.KMS = kms.New(kms.Options{
		Region: s.Region, Credentials: creds, BaseEndpoint: aws.String(ep.KMS), HTTPClient: client,
	})
	if tpl.Table != nil {
		if ep.DynamoDB == "" {
			return nil, errors.New("provision: the template has a table but no DynamoDB endpoint was given")
		}
		if err := s.provisionTable(ctx, tpl.Table); err != nil {
			return nil, fmt.Errorf("provision table %s: %w", tpl.Table.LogicalID, err)
		}
	}
	if opts.TableOnly {
		return s, nil
	}
	if len(tpl.Queues) > 0 && ep.SQS == "" {
		return nil, errors.New("provision: the template has queues but no SQS endpoint was given")
	}
	queues, err := s.provisionQueues(ctx)
	if err != nil {
		return nil, err
	}
	s.Queues = queues
	if len(tpl.Keys) > 0 && ep.KMS == "" {
		return nil, errors.New("provision: the template has KMS keys but no KMS endpoint was given")
	}
	if err := s.provisionKeys(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

// ProvisionQueues creates the template's queues again as Provision did (dead-letter queues
// first, each queue with its attributes and RedrivePolicy; existing queues are reused), for
// an SQS emulator that was restarted without them (fauxqs keeps its queues in memory). It
// fails when a queue's URL is not the one Provision returned: the clients and the
// functions' environment hold those.
func (s *Stack) ProvisionQueues(ctx context.Context) error {
	queues, err := s.provisionQueues(ctx)
	if err != nil {
		return err
	}
	for id, q := range queues {
		if was := s.Queues[id]; q != was {
			return fmt.Errorf("provision queue %s again: it is now %+v, was %+v", id, q, was)
		}
	}
	return nil
}

// provisionQueues creates the template's queues, dead-letter queues first, and returns
// them by logical id; each one's name, URL and ARN resolve in the queues after it.
func (s *Stack) provisionQueues(ctx context.Context) (map[string]QueueInfo, error) {
	tpl := s.template
	queues := map[string]QueueInfo{}
	var create func(q *template.Queue, depth int) error
	create = func(q *template.Queue, depth int) error {
		if _, done := queues[q.LogicalID]; done {
			return nil
		}
		if depth > len(tpl.Queues) {
			return fmt.Errorf("redrive cycle at %s", q.LogicalID)
		}
		if q.DeadLetterQueue != "" {
			dlq, ok := tpl.Queue(q.DeadLetterQueue)
			if !ok {
				return fmt.Errorf("queue %s: dead-letter queue %s is not a queue", q.LogicalID, q.DeadLetterQueue)
			}
			if err := create(dlq, depth+1); err != nil {
				return err
			}
		}
		info, err := s.provisionQueue(ctx, q, queues)
		if err != nil {
			return fmt.Errorf("provision queue %s: %w", q.LogicalID, err)
		}
		queues[q.LogicalID] = info
		s.resolver.Refs[q.LogicalID] = info.URL
		s.resolver.Attrs[q.LogicalID+".Arn"] = info.ARN
		s.resolver.Attrs[q.LogicalID+".QueueName"] = info.Name
		s.resolver.Attrs[q.LogicalID+".QueueUrl"] = info.URL
		return nil
	}
	for i := range tpl.Queues {
		if err := create(&tpl.Queues[i], 0); err != nil {
			return nil, err
		}
	}
	return queues, nil
}

func (s *Stack) provisionTable(ctx context.Context, tb *template.Table) error {
	s.TableName = cmp.Or(tb.TableName, s.Name)
	s.resolver.Refs[tb.LogicalID] = s.TableName
	arn := fmt.Sprintf("arn:aws:dynamodb:%s:%s:table/%s", s.Region, s.AccountID, s.TableName)
	s.resolver.Attrs[tb.LogicalID+".Arn"] = arn

	in := &dynamodb.CreateTableInput{
		TableName:   aws.String(s.TableName),
		KeySchema:   keySchema(tb.HashKey, tb.RangeKey),
		BillingMode: ddbtypes.BillingModePayPerRequest,
	}
	for _, a := range tb.Attributes {
		in.AttributeDefinitions = append(in.AttributeDefinitions, ddbtypes.AttributeDefinition{
			AttributeName: aws.String(a.Name), AttributeType: ddbtypes.ScalarAttributeType(a.Type),
		})
	}
	provisioned := tb.BillingMode == "PROVISIONED"
	throughput := &ddbtypes.ProvisionedThroughput{ReadCapacityUnits: aws.Int64(5), WriteCapacityUnits: aws.Int64(5)}
	if provisioned {
		in.BillingMode = ddbtypes.BillingModeProvisioned
		in.ProvisionedThroughput = throughput
	}
	for _, ix := range tb.GSIs {
		g := gsi(ix)
		if provisioned {
			g.ProvisionedThroughput = throughput
		}
		in.GlobalSecondaryIndexes = append(in.GlobalSecondaryIndexes, g)
	}
	for _, ix := range tb.LSIs {
		in.LocalSecondaryIndexes = append(in.LocalSecondaryIndexes, ddbtypes.LocalSecondaryIndex{
			IndexName: aws.String(ix.Name), KeySchema: keySchema(ix.HashKey, ix.RangeKey), Projection: projection(ix),
		})
	}
	if tb.StreamViewType != "" {
		in.StreamSpecification = &ddbtypes.StreamSpecification{
			StreamEnabled: aws.Bool(true), StreamViewType: ddbtypes.StreamViewType(tb.StreamViewType),
		}
	}
	_, err := s.DynamoDB.CreateTable(ctx, in)
	var inUse *ddbtypes.ResourceInUseException
	switch {
	case err == nil:
		s.TableCreated = true
	case errors.As(err, &inUse):
		if err := s.addMissingIndexes(ctx, tb, in.AttributeDefinitions); err != nil {
			return err
		}
		if err := s.enableStream(ctx, tb); err != nil {
			return err
		}
	default:
		return fmt.Errorf("create table %s: %w", s.TableName, err)
	}
	if err := s.waitTableActive(ctx); err != nil {
		return err
	}
	if tb.StreamViewType != "" {
		out, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.TableName)})
		if err != nil {
			return fmt.Errorf("describe table %s: %w", s.TableName, err)
		}
		if s.StreamARN = aws.ToString(out.Table.LatestStreamArn); s.StreamARN == "" {
			return fmt.Errorf("table %s has no LatestStreamArn after enabling its stream", s.TableName)
		}
		s.resolver.Attrs[tb.LogicalID+".StreamArn"] = s.StreamARN
	}
	if tb.TTLAttribute == "" {
		return nil
	}
	ttl, err := s.DynamoDB.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(s.TableName)})
	if err != nil {
		return fmt.Errorf("describe TTL: %w", err)
	}
	if d := ttl.TimeToLiveDescription; d != nil && d.TimeToLiveStatus == ddbtypes.TimeToLiveStatusEnabled &&
		aws.ToString(d.AttributeName) == tb.TTLAttribute {
		return nil
	}
	_, err = s.DynamoDB.UpdateTimeToLive(ctx, &dynamodb.UpdateTimeToLiveInput{
		TableName: aws.String(s.TableName),
		TimeToLiveSpecification: &ddbtypes.TimeToLiveSpecification{
			AttributeName: aws.String(tb.TTLAttribute), Enabled: aws.Bool(true),
		},
	})
	if err != nil {
		return fmt.Errorf("enable TTL on %s: %w", tb.TTLAttribute, err)
	}
	return nil
}

// addMissingIndexes brings an existing table (kept across restarts) up to the template by
// creating the global secondary indexes it lacks.
func (s *Stack) addMissingIndexes(ctx context.Context, tb *template.Table, attrs []ddbtypes.AttributeDefinition) error {
	out, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.TableName)})
	if err != nil {
		return fmt.Errorf("describe table %s: %w", s.TableName, err)
	}
	have := map[string]bool{}
	for _, g := range out.Table.GlobalSecondaryIndexes {
		have[aws.ToString(g.IndexName)] = true
	}
	for _, ix := range tb.GSIs {
		if have[ix.Name] {
			continue
		}
		if err := s.waitTableActive(ctx); err != nil {
			return err
		}
		g := gsi(ix)
		var defs []ddbtypes.AttributeDefinition
		for _, a := range attrs {
			if name := aws.ToString(a.AttributeName); name == ix.HashKey || name == ix.RangeKey {
				defs = append(defs, a)
			}
		}
		_, err := s.DynamoDB.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName:            aws.String(s.TableName),
			AttributeDefinitions: defs,
			GlobalSecondaryIndexUpdates: []ddbtypes.GlobalSecondaryIndexUpdate{{Create: &ddbtypes.CreateGlobalSecondaryIndexAction{
				IndexName: g.IndexName, KeySchema: g.KeySchema, Projection: g.Projection,
			}}},
		})
		if err != nil {
			return fmt.Errorf("add index %s to the existing table %s: %w", ix.Name, s.TableName, err)
		}
	}
	return nil
}

// enableStream gives an existing table (kept across restarts) the stream the template
// declares: it enables a missing one, and replaces one of another view type (a new stream, as
// on AWS, where the view type of a stream cannot change). A stream the template does not
// declare is left alone.
func (s *Stack) enableStream(ctx context.Context, tb *template.Table) error {
	if tb.StreamViewType == "" {
		return nil
	}
	if err := s.waitTableActive(ctx); err != nil {
		return err
	}
	out, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.TableName)})
	if err != nil {
		return fmt.Errorf("describe table %s: %w", s.TableName, err)
	}
	want := ddbtypes.StreamViewType(tb.StreamViewType)
	if spec := out.Table.StreamSpecification; spec != nil && aws.ToBool(spec.StreamEnabled) {
		if spec.StreamViewType == want {
			return nil
		}
		if _, err := s.DynamoDB.UpdateTable(ctx, &dynamodb.UpdateTableInput{
			TableName: aws.String(s.TableName), StreamSpecification: &ddbtypes.StreamSpecification{StreamEnabled: aws.Bool(false)},
		}); err != nil {
			return fmt.Errorf("disable the %s stream of %s to make it %s: %w", spec.StreamViewType, s.TableName, want, err)
		}
		if err := s.waitTableActive(ctx); err != nil {
			return err
		}
	}
	if _, err := s.DynamoDB.UpdateTable(ctx, &dynamodb.UpdateTableInput{
		TableName:           aws.String(s.TableName),
		StreamSpecification: &ddbtypes.StreamSpecification{StreamEnabled: aws.Bool(true), StreamViewType: want},
	}); err != nil {
		return fmt.Errorf("enable a %s stream on the existing table %s: %w", want, s.TableName, err)
	}
	return nil
}

func (s *Stack) waitTableActive(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		out, err := s.DynamoDB.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(s.TableName)})
		if err != nil {
			return fmt.Errorf("describe table %s: %w", s.TableName, err)
		}
		active := out.Table.TableStatus == ddbtypes.TableStatusActive
		for _, g := range out.Table.GlobalSecondaryIndexes {
			active = active && (g.IndexStatus == "" || g.IndexStatus == ddbtypes.IndexStatusActive)
		}
		if active {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("table %s is not ACTIVE after 30s (%s)", s.TableName, out.Table.TableStatus)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func keySchema(hash, rng string) []ddbtypes.KeySchemaElement {
	ks := []ddbtypes.KeySchemaElement{{AttributeName: aws.String(hash), KeyType: ddbtypes.KeyTypeHash}}
	if rng != "" {
		ks = append(ks, ddbtypes.KeySchemaElement{AttributeName: aws.String(rng), KeyType: ddbtypes.KeyTypeRange})
	}
	return ks
}

func projection(ix template.Index) *ddbtypes.Projection {
	p := &ddbtypes.Projection{ProjectionType: ddbtypes.ProjectionType(cmp.Or(ix.ProjectionType, "ALL"))}
	if len(ix.NonKeyAttributes) > 0 {
		p.NonKeyAttributes = ix.NonKeyAttributes
	}
	return p
}

func gsi(ix template.Index) ddbtypes.GlobalSecondaryIndex {
	return ddbtypes.GlobalSecondaryIndex{
		IndexName: aws.String(ix.Name), KeySchema: keySchema(ix.HashKey, ix.RangeKey), Projection: projection(ix),
	}
}

// queueName returns the local physical name of a queue.
func (s *Stack) queueName(q *template.Queue) (string, error) {
	if q.QueueName != nil {
		name, err := s.resolver.String(q.QueueName)
		if err != nil {
			return "", fmt.Errorf("QueueName: %w", err)
		}
		return name, nil
	}
	name := s.Name + "-" + q.LogicalID
	if q.Fifo {
		name += ".fifo"
	}
	return name, nil
}

func seconds(d time.Duration) string { return strconv.Itoa(int(d / time.Second)) }

// provisionQueue creates one queue, its dead-letter queue already in queues, and returns it.
func (s *Stack) provisionQueue(ctx context.Context, q *template.Queue, queues map[string]QueueInfo) (QueueInfo, error) {
	name, err := s.queueName(q)
	if err != nil {
		return QueueInfo{}, err
	}
	attrs := map[string]string{
		string(sqstypes.QueueAttributeNameVisibilityTimeout):             seconds(q.VisibilityTimeout),
		string(sqstypes.QueueAttributeNameMessageRetentionPeriod):        seconds(q.MessageRetentionPeriod),
		string(sqstypes.QueueAttributeNameDelaySeconds):                  seconds(q.Delay),
		string(sqstypes.QueueAttributeNameReceiveMessageWaitTimeSeconds): seconds(q.ReceiveMessageWaitTime),
	}
	if q.Fifo {
		attrs[string(sqstypes.QueueAttributeNameFifoQueue)] = "true"
		attrs[string(sqstypes.QueueAttributeNameContentBasedDeduplication)] = strconv.FormatBool(q.ContentBasedDeduplication)
		if q.DeduplicationScope != "" {
			attrs[string(sqstypes.QueueAttributeNameDeduplicationScope)] = q.DeduplicationScope
		}
		if q.FifoThroughputLimit != "" {
			attrs[string(sqstypes.QueueAttributeNameFifoThroughputLimit)] = q.FifoThroughputLimit
		}
	}
	if q.DeadLetterQueue != "" {
		dlq, ok := queues[q.DeadLetterQueue]
		if !ok {
			return QueueInfo{}, fmt.Errorf("dead-letter queue %s is not provisioned", q.DeadLetterQueue)
		}
		policy, err := json.Marshal(map[string]any{"deadLetterTargetArn": dlq.ARN, "maxReceiveCount": q.MaxReceiveCount})
		if err != nil {
			return QueueInfo{}, err
		}
		attrs[string(sqstypes.QueueAttributeNameRedrivePolicy)] = string(policy)
	}
	out, err := s.SQS.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attrs})
	if err != nil {
		return QueueInfo{}, fmt.Errorf("create queue %s: %w", name, err)
	}
	url := aws.ToString(out.QueueUrl)
	got, err := s.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
		QueueUrl: aws.String(url), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameQueueArn},
	})
	if err != nil {
		return QueueInfo{}, fmt.Errorf("get ARN of queue %s: %w", name, err)
	}
	arn := got.Attributes[string(sqstypes.QueueAttributeNameQueueArn)]
	if !strings.HasPrefix(arn, "arn:") {
		return QueueInfo{}, fmt.Errorf("queue %s has no ARN", name)
	}
	return QueueInfo{LogicalID: q.LogicalID, Name: name, URL: url, ARN: arn}, nil
}
