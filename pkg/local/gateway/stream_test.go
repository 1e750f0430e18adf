package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

// streamConsumer is a fake stream handler: behave decides for each record what happens.
type streamConsumer struct {
	mu      sync.Mutex
	batches [][]events.DynamoDBEventRecord
	// acked holds, per key, how many times the record was in a batch that succeeded for it.
	acked  map[string]int
	behave func(rec events.DynamoDBEventRecord) string // "ok", "fail" (item failure), "error", "bogus"
	// after runs after each batch, outside the lock (for handlers that write elsewhere).
	after func(ctx context.Context, batch []events.DynamoDBEventRecord) error
}

func newStreamConsumer(behave func(events.DynamoDBEventRecord) string) *streamConsumer {
	if behave == nil {
		behave = func(events.DynamoDBEventRecord) string { return "ok" }
	}
	return &streamConsumer{acked: map[string]int{}, behave: behave}
}

func recordKey(r events.DynamoDBEventRecord) string {
	return r.Change.Keys["PK"].String() + "|" + r.Change.Keys["SK"].String()
}

func (c *streamConsumer) handle(ctx context.Context, ev events.DynamoDBEvent) (events.DynamoDBEventResponse, error) {
	c.mu.Lock()
	c.batches = append(c.batches, ev.Records)
	var (
		resp    events.DynamoDBEventResponse
		outcome error
		failed  = len(ev.Records)
	)
	for i, r := range ev.Records {
		switch c.behave(r) {
		case "fail":
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: r.Change.SequenceNumber})
			failed = min(failed, i)
		case "error":
			outcome = errors.New("handler error")
		case "bogus":
			resp.BatchItemFailures = append(resp.BatchItemFailures, events.DynamoDBBatchItemFailure{ItemIdentifier: "not-a-sequence-number"})
			failed = 0
		}
	}
	if outcome == nil {
		for _, r := range ev.Records[:failed] {
			c.acked[recordKey(r)]++
		}
	}
	c.mu.Unlock()
	if outcome != nil {
		return events.DynamoDBEventResponse{}, outcome
	}
	if c.after != nil {
		if err := c.after(ctx, ev.Records); err != nil {
			return events.DynamoDBEventResponse{}, err
		}
	}
	return resp, nil
}

// records returns every record delivered, in delivery order.
func (c *streamConsumer) records() []events.DynamoDBEventRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []events.DynamoDBEventRecord
	for _, b := range c.batches {
		out = append(out, b...)
	}
	return out
}

// sizesWith returns the sizes of the batches that held the record with this key.
func (c *streamConsumer) sizesWith(key string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var sizes []int
	for _, b := range c.batches {
		for _, r := range b {
			if recordKey(r) == key {
				sizes = append(sizes, len(b))
			}
		}
	}
	return sizes
}

func (c *streamConsumer) ackedCount(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.acked[key]
}

// startStream provisions testdata/stream.yaml with the settings and starts its pollers with
// the stream handler (and the Work queue's consumer, if any).
func startStream(t *testing.T, backend string, set streamSettings, c *streamConsumer, worker SQSHandler, opts PollerOptions) (*Stack, *Pollers) {
	t.Helper()
	set = set.defaults()
	name := uniqueName(t, backend)
	if set.Table == "" {
		set.Table = name
	}
	s := provisionOn(t, backend, streamTemplate(t, set), name)
	return s, startStreamPollers(t, s, c, worker, opts)
}

func startStreamPollers(t *testing.T, s *Stack, c *streamConsumer, worker SQSHandler, opts PollerOptions) *Pollers {
	t.Helper()
	if worker == nil {
		worker = func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
			return events.SQSEventResponse{}, nil
		}
	}
	opts.Logger = cmpLogger(opts.Logger)
	opts.StreamPollInterval = 20 * time.Millisecond
	opts.StreamRetryDelay = 5 * time.Millisecond
	p, err := NewPollers(s, func(name string) (any, error) {
		switch name {
		case "sync":
			return DynamoDBHandler(c.handle), nil
		case "worker":
			return worker, nil
		}
		return nil, fmt.Errorf("no handler %s", name)
	}, opts)
	if err != nil {
		t.Fatal(err)
	}
	p.Start(context.Background())
	t.Cleanup(p.Stop)
	return p
}

func cmpLogger(l *slog.Logger) *slog.Logger {
	if l != nil {
		return l
	}
	if os.Getenv("STREAM_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func item(pk, sk string, attrs ...string) map[string]ddbtypes.AttributeValue {
	m := map[string]ddbtypes.AttributeValue{"PK": &ddbtypes.AttributeValueMemberS{Value: pk}, "SK": &ddbtypes.AttributeValueMemberS{Value: sk}}
	for i := 0; i+1 < len(attrs); i += 2 {
		m[attrs[i]] = &ddbtypes.AttributeValueMemberS{Value: attrs[i+1]}
	}
	return m
}

func put(t *testing.T, s *Stack, it map[string]ddbtypes.AttributeValue) {
	t.Helper()
	if _, err := s.DynamoDB.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(s.TableName), Item: it}); err != nil {
		t.Fatal(err)
	}
}

func del(t *testing.T, s *Stack, pk, sk string) {
	t.Helper()
	if _, err := s.DynamoDB.DeleteItem(context.Background(), &dynamodb.DeleteItemInput{TableName: aws.String(s.TableName), Key: item(pk, sk)}); err != nil {
		t.Fatal(err)
	}
}

// failureRecords receives the on-failure records the stream source sent.
func failureRecords(t *testing.T, s *Stack) []streamFailure {
	t.Helper()
	var out []streamFailure
	for {
		got, err := s.SQS.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(s.Queues["SyncFailures"].URL), MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 60,
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Messages) == 0 {
			return out
		}
		for _, m := range got.Messages {
			var f streamFailure
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &f); err != nil {
				t.Fatalf("on-failure record %s: %v", aws.ToString(m.Body), err)
			}
			out = append(out, f)
		}
	}
}

// TestStreamDelivery: inserts, modifies and removes reach the handler in order, as Lambda
// hands them over, and a change reaches it well under a second.
func TestStreamDelivery(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		c := newStreamConsumer(nil)
		s, p := startStream(t, backend, streamSettings{}, c, nil, PollerOptions{})
		start := time.Now()
		put(t, s, item("a#P", "1", "name", "first"))
		put(t, s, item("a#P", "1", "name", "second"))
		put(t, s, item("b#P", "1", "name", "other"))
		del(t, s, "a#P", "1")
		drain(t, p)

		got := c.records()
		type change struct{ event, key, oldName, newName string }
		want := []change{
			{"INSERT", "a#P|1", "", "first"},
			{"MODIFY", "a#P|1", "first", "second"},
			{"INSERT", "b#P|1", "", "other"},
			{"REMOVE", "a#P|1", "second", ""},
		}
		var changes []change
		for _, r := range got {
			ch := change{event: r.EventName, key: recordKey(r)}
			if v, ok := r.Change.OldImage["name"]; ok {
				ch.oldName = v.String()
			}
			if v, ok := r.Change.NewImage["name"]; ok {
				ch.newName = v.String()
			}
			changes = append(changes, ch)
		}
		if !slices.Equal(changes, want) {
			t.Fatalf("changes = %+v\nwant %+v", changes, want)
		}
		var prev int64
		for i, r := range got {
			t.Run(fmt.Sprintf("record %d", i), func(t *testing.T) {
				if r.EventSource != "aws:dynamodb" || r.EventSourceArn != s.StreamARN || r.AWSRegion != "us-east-1" ||
					r.EventID == "" || r.EventVersion == "" {
					t.Errorf("envelope = %+v", r)
				}
				ch := r.Change
				if ch.StreamViewType != "NEW_AND_OLD_IMAGES" || ch.SizeBytes <= 0 || len(ch.Keys) != 2 {
					t.Errorf("change = %+v", ch)
				}
				if age := time.Since(ch.ApproximateCreationDateTime.Time); age < -time.Minute || age > 2*time.Minute {
					t.Errorf("ApproximateCreationDateTime %v is not about now (start %v)", ch.ApproximateCreationDateTime.Time, start)
				}
				seq, err := strconv.ParseInt(ch.SequenceNumber, 10, 64)
				if err != nil || seq <= prev {
					t.Errorf("sequence number %q after %d", ch.SequenceNumber, prev)
				}
				prev = seq
			})
		}

		t.Run("latency", func(t *testing.T) {
			before := len(c.records())
			start := time.Now()
			put(t, s, item("c#P", "1"))
			for len(c.records()) == before {
				if time.Since(start) > 5*time.Second {
					t.Fatal("the change did not arrive within 5 s")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("a change took %v to reach the handler", d)
			}
		})
	})
}

// TestStreamFilters: records that match no filter never reach the function, and the
// checkpoint moves past them.
func TestStreamFilters(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		c := newStreamConsumer(nil)
		filter := `{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#INV"},{"suffix":"#P"}]}}}}`
		s, p := startStream(t, backend, streamSettings{Filter: filter}, c, nil, PollerOptions{})
		for _, pk := range []string{"a#INV", "a#ORD", "a#P", "b#ORD", "b#ORD2"} {
			put(t, s, item(pk, "1"))
		}
		drain(t, p)
		var keys []string
		for _, r := range c.records() {
			keys = append(keys, recordKey(r))
		}
		if want := []string{"a#INV|1", "a#P|1"}; !slices.Equal(keys, want) {
			t.Errorf("delivered %v, want %v", keys, want)
		}
		src := p.streams[0]
		src.mu.Lock()
		var shards []string
		for id := range src.workers {
			shards = append(shards, id)
		}
		src.mu.Unlock()
		if len(shards) != 1 {
			t.Fatalf("shards = %v", shards)
		}
		cp, _ := p.checkpoints.get(src.key, s.StreamARN, shards[0])
		last := c.records()[1].Change.SequenceNumber
		if n, m := seqNumber(t, cp.SequenceNumber), seqNumber(t, last); n <= m {
			t.Errorf("checkpoint %s is not past the filtered records after %s", cp.SequenceNumber, last)
		}
	})
}

func seqNumber(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("sequence number %q: %v", s, err)
	}
	return n
}

// TestStreamFailures: a handler that fails one record, by an error or a partial batch
// response, sees retries, bisection down to that record, and after MaximumRetryAttempts the
// failure record lands in the on-failure queue while the other records are delivered.
func TestStreamFailures(t *testing.T) {
	t.Parallel()
	const poison = "k4#P|1" // the fifth of eight records
	tests := []struct {
		name     string
		set      streamSettings
		behave   string // what the handler does with the poison record
		sizes    []int  // sizes of the batches that held the poison record
		failed   []int  // failed records: indexes of the first and last, and the batch size
		invokes  int    // approximateInvokeCount
		funcErr  bool   // functionError "Unhandled"
		lost     int    // other records given up with the poison one
		allAcked bool   // every other record delivered
	}{
		{
			name: "error, bisect", set: streamSettings{Bisect: true, Retries: 2, ReportItemFailures: true}, behave: "error",
			sizes: []int{8, 4, 2, 1, 1, 1}, failed: []int{4, 4, 1}, invokes: 6, funcErr: true, allAcked: true,
		},
		{
			name: "item failure, bisect", set: streamSettings{Bisect: true, Retries: 2, ReportItemFailures: true}, behave: "fail",
			sizes: []int{8, 4, 2, 1, 1, 1}, failed: []int{4, 4, 1}, invokes: 6, allAcked: true,
		},
		{
			name: "error, bisect, no retries", set: streamSettings{Bisect: true, Retries: 0, ReportItemFailures: true}, behave: "error",
			sizes: []int{8, 4, 2, 1}, failed: []int{4, 4, 1}, invokes: 4, funcErr: true, allAcked: true,
		},
		{
			name: "error, no bisect", set: streamSettings{Retries: 2, ReportItemFailures: true}, behave: "error",
			sizes: []int{8, 8, 8}, failed: []int{0, 7, 8}, invokes: 3, funcErr: true, lost: 7,
		},
		{
			name: "item failure, no bisect", set: streamSettings{Retries: 2, ReportItemFailures: true}, behave: "fail",
			sizes: []int{8, 4, 4}, failed: []int{4, 7, 4}, invokes: 3, lost: 3,
		},
		{
			name: "unknown item identifier, bisect", set: streamSettings{Bisect: true, Retries: 1, ReportItemFailures: true}, behave: "bogus",
			sizes: []int{8, 4, 2, 1, 1}, failed: []int{4, 4, 1}, invokes: 5, allAcked: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			forEachBackend(t, func(t *testing.T, backend string) {
				c := newStreamConsumer(func(r events.DynamoDBEventRecord) string {
					if recordKey(r) == poison {
						return tc.behave
					}
					return "ok"
				})
				set := tc.set
				set.BatchSize = 8
				set = set.defaults()
				name := uniqueName(t, backend)
				set.Table = name
				s := provisionOn(t, backend, streamTemplate(t, set), name)
				var keys []string
				for i := 0; i < 8; i++ {
					put(t, s, item(fmt.Sprintf("k%d#P", i), "1"))
					keys = append(keys, fmt.Sprintf("k%d#P|1", i))
				}
				for i := 8; i < 10; i++ { // later records, delivered after the failure
					put(t, s, item(fmt.Sprintf("k%d#P", i), "1"))
				}
				p := startStreamPollers(t, s, c, nil, PollerOptions{})
				drain(t, p)

				if got := c.sizesWith(poison); !slices.Equal(got, tc.sizes) {
					t.Errorf("batches holding the poison record had sizes %v, want %v", got, tc.sizes)
				}
				seqs := map[string]string{}
				for _, r := range c.records() {
					seqs[recordKey(r)] = r.Change.SequenceNumber
				}
				failures := failureRecords(t, s)
				if len(failures) != 1 {
					t.Fatalf("on-failure records = %+v, want one", failures)
				}
				f := failures[0]
				info := f.BatchInfo
				if info.StartSequenceNumber != seqs[keys[tc.failed[0]]] || info.EndSequenceNumber != seqs[keys[tc.failed[1]]] || info.BatchSize != tc.failed[2] {
					t.Errorf("batch info = %+v, want records %d..%d (%s..%s), %d of them", info, tc.failed[0], tc.failed[1],
						seqs[keys[tc.failed[0]]], seqs[keys[tc.failed[1]]], tc.failed[2])
				}
				if info.StreamARN != s.StreamARN || !strings.HasPrefix(info.ShardID, "shardId-") ||
					info.ApproximateArrivalOfFirstRecord == "" || info.ApproximateArrivalOfLastRecord == "" {
					t.Errorf("batch info = %+v", info)
				}
				if _, err := time.Parse(time.RFC3339, info.ApproximateArrivalOfFirstRecord); err != nil {
					t.Errorf("approximateArrivalOfFirstRecord: %v", err)
				}
				rc := f.RequestContext
				if rc.Condition != "RetryAttemptsExhausted" || rc.ApproximateInvokeCount != tc.invokes || rc.RequestID == "" ||
					rc.FunctionARN != "arn:aws:lambda:us-east-1:000000000000:function:SyncFunction" {
					t.Errorf("request context = %+v, want %d invocations", rc, tc.invokes)
				}
				if got := f.ResponseContext.FunctionError != nil && *f.ResponseContext.FunctionError == "Unhandled"; got != tc.funcErr ||
					f.ResponseContext.StatusCode != 200 || f.ResponseContext.ExecutedVersion != "$LATEST" {
					t.Errorf("response context = %+v (functionError %v), want Unhandled %v", f.ResponseContext, f.ResponseContext.FunctionError, tc.funcErr)
				}
				if f.Version != "1.0" {
					t.Errorf("version %q", f.Version)
				}
				if _, err := time.Parse("2006-01-02T15:04:05.000Z", f.Timestamp); err != nil {
					t.Errorf("timestamp: %v", err)
				}
				lost := 0
				for _, k := range append(keys, "k8#P|1", "k9#P|1") {
					switch n := c.ackedCount(k); {
					case k == poison && n != 0:
						t.Errorf("the poison record was acknowledged %d times", n)
					case k != poison && n == 0:
						lost++
					}
				}
				if lost != tc.lost || (tc.allAcked && lost != 0) {
					t.Errorf("%d other records never delivered, want %d", lost, tc.lost)
				}
				if c.ackedCount("k9#P|1") != 1 {
					t.Error("the records after the failed batch were not delivered once")
				}
			})
		})
	}
}

// TestStreamCheckpointFile: with a checkpoint file, restarted pollers resume after the last
// record done with; without one they replay the stream from TRIM_HORIZON.
func TestStreamCheckpointFile(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		file := filepath.Join(t.TempDir(), "checkpoints.json")
		first := newStreamConsumer(nil)
		s, p := startStream(t, backend, streamSettings{}, first, nil, PollerOptions{CheckpointFile: file})
		for i := 0; i < 3; i++ {
			put(t, s, item(fmt.Sprintf("old%d#P", i), "1"))
		}
		drain(t, p)
		p.Stop()
		for i := 0; i < 2; i++ {
			put(t, s, item(fmt.Sprintf("new%d#P", i), "1"))
		}
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var saved checkpointData
		if err := json.Unmarshal(b, &saved); err != nil || saved.Sources["SyncFunction.Stream"] == nil {
			t.Fatalf("checkpoint file %s: %v", b, err)
		}

		keys := func(c *streamConsumer) []string {
			var out []string
			for _, r := range c.records() {
				out = append(out, recordKey(r))
			}
			return out
		}
		tests := []struct {
			name string
			file string
			want []string
		}{
			{"restart with the file", file, []string{"new0#P|1", "new1#P|1"}},
			{"restart without a file", "", []string{"old0#P|1", "old1#P|1", "old2#P|1", "new0#P|1", "new1#P|1"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				c := newStreamConsumer(nil)
				p := startStreamPollers(t, s, c, nil, PollerOptions{CheckpointFile: tc.file})
				drain(t, p)
				p.Stop()
				if got := keys(c); !slices.Equal(got, tc.want) {
					t.Errorf("delivered %v, want %v", got, tc.want)
				}
			})
		}
	})
}

// TestStreamLatest: a LATEST source sees only what changes after it started.
func TestStreamLatest(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		set := streamSettings{StartingPosition: "LATEST"}.defaults()
		name := uniqueName(t, backend)
		set.Table = name
		s := provisionOn(t, backend, streamTemplate(t, set), name)
		put(t, s, item("before#P", "1"))
		c := newStreamConsumer(nil)
		p := startStreamPollers(t, s, c, nil, PollerOptions{})
		drain(t, p) // the reader has its LATEST iterator once the source is quiet
		put(t, s, item("after#P", "1"))
		drain(t, p)
		var got []string
		for _, r := range c.records() {
			got = append(got, recordKey(r))
		}
		if want := []string{"after#P|1"}; !slices.Equal(got, want) {
			t.Errorf("delivered %v, want %v", got, want)
		}
	})
}

// TestStreamBatchingWindow: with MaximumBatchingWindowInSeconds, changes made together
// arrive in one batch.
func TestStreamBatchingWindow(t *testing.T) {
	t.Parallel()
	forEachBackend(t, func(t *testing.T, backend string) {
		c := newStreamConsumer(nil)
		s, p := startStream(t, backend, streamSettings{Window: 1, BatchSize: 100}, c, nil, PollerOptions{})
		start := time.Now()
		for i := 0; i < 5; i++ {
			put(t, s, item(fmt.Sprintf("w%d#P", i), "1"))
			time.Sleep(30 * time.Millisecond)
		}
		drain(t, p)
		c.mu.Lock()
		var sizes []int
		for _, b := range c.batches {
			sizes = append(sizes, len(b))
		}
		c.mu.Unlock()
		if !slices.Equal(sizes, []int{5}) {
			t.Errorf("batch sizes %v, want one batch of 5", sizes)
		}
		if d := time.Since(start); d < 900*time.Millisecond {
			t.Errorf("the batch came after %v, before the 1 s window", d)
		}
	})
}

// TestDrainStreamChain: Drain waits while a stream handler feeds a queue whose consumer
// writes the table, which makes new stream records: it returns when the last generation has
// been handled.
func TestDrainStreamChain(t *testing.T) {
	t.Parallel()
	const generations = 3
	forEachBackend(t, func(t *testing.T, backend string) {
		var s *Stack
		c := newStreamConsumer(nil)
		c.after = func(ctx context.Context, batch []events.DynamoDBEventRecord) error {
			for _, r := range batch {
				gen, _ := strconv.Atoi(r.Change.NewImage["gen"].String())
				if r.EventName != "INSERT" || gen >= generations {
					continue
				}
				// Delayed messages must count as pending too.
				_, err := s.SQS.SendMessage(ctx, &sqs.SendMessageInput{
					QueueUrl: aws.String(s.Queues["Work"].URL), MessageBody: aws.String(strconv.Itoa(gen + 1)), DelaySeconds: 1,
				})
				if err != nil {
					return err
				}
			}
			return nil
		}
		worker := func(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
			for _, m := range ev.Records {
				_, err := s.DynamoDB.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.TableName), Item: item("chain#P", m.Body, "gen", m.Body)})
				if err != nil {
					return events.SQSEventResponse{}, err
				}
			}
			return events.SQSEventResponse{}, nil
		}
		set := streamSettings{}.defaults()
		name := uniqueName(t, backend)
		set.Table = name
		s = provisionOn(t, backend, streamTemplate(t, set), name)
		p := startStreamPollers(t, s, c, worker, PollerOptions{})
		put(t, s, item("chain#P", "0", "gen", "0"))
		start := time.Now()
		drain(t, p)
		var gens []string
		for _, r := range c.records() {
			gens = append(gens, r.Change.NewImage["gen"].String())
		}
		if want := []string{"0", "1", "2", "3"}; !slices.Equal(gens, want) {
			t.Errorf("Drain returned after %v with generations %v handled, want %v", time.Since(start), gens, want)
		}
	})
}

// TestNewPollersStreamErrors: a DynamoDB event needs a stream handler and a provisioned
// stream.
func TestNewPollersStreamErrors(t *testing.T) {
	t.Parallel()
	set := streamSettings{}.defaults()
	name := uniqueName(t, "dynoxide")
	set.Table = name
	s := provisionOn(t, "dynoxide", streamTemplate(t, set), name)
	handlers := func(sync any) Lookup {
		return func(name string) (any, error) {
			if name == "sync" {
				return sync, nil
			}
			return SQSHandler(func(context.Context, events.SQSEvent) (events.SQSEventResponse, error) {
				return events.SQSEventResponse{}, nil
			}), nil
		}
	}
	noStream := *s
	noStream.StreamARN = ""
	tests := []struct {
		name   string
		stack  *Stack
		lookup Lookup
		want   string
	}{
		{"an SQS handler for a stream", s, handlers(SQSHandler(nil)), "has a DynamoDB event but its handler is a"},
		{"no stream", &noStream, handlers(DynamoDBHandler(newStreamConsumer(nil).handle)), "is not provisioned"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewPollers(tc.stack, tc.lookup, PollerOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("NewPollers = %v, want an error containing %q", err, tc.want)
			}
		})
	}
	bad := filepath.Join(t.TempDir(), "checkpoints.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := NewPollers(s, handlers(DynamoDBHandler(newStreamConsumer(nil).handle)), PollerOptions{CheckpointFile: bad}); err == nil {
		t.Error("a corrupt checkpoint file was accepted")
	}
}
