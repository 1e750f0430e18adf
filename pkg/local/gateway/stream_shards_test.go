package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"

	"github.com/multisell/multisell/pkg/local/template"
)

// The emulators keep one shard per stream, so the shard lineage (a closed parent, its
// children) is played here against a fake DynamoDB Streams endpoint.

// fakeShard is a shard of the fake stream.
type fakeShard struct {
	id, parent string
	closed     bool
	seqs       []int
}

// fakeStreams serves DescribeStream (one shard per page), GetShardIterator and GetRecords
// (two records per call at most) for a fixed set of shards.
type fakeStreams struct {
	shards []fakeShard

	mu    sync.Mutex
	reads []string // the shard of each GetRecords call that returned records
}

func (f *fakeStreams) shard(id string) *fakeShard {
	for i := range f.shards {
		if f.shards[i].id == id {
			return &f.shards[i]
		}
	}
	return nil
}

func (f *fakeStreams) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	op := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), "DynamoDBStreams_20120810.")
	var out any
	switch op {
	case "DescribeStream":
		start := 0
		if after, ok := in["ExclusiveStartShardId"].(string); ok {
			for i, sh := range f.shards {
				if sh.id == after {
					start = i + 1
				}
			}
		}
		sh := f.shards[start]
		desc := map[string]any{"StreamArn": in["StreamArn"], "StreamStatus": "ENABLED", "StreamViewType": "NEW_AND_OLD_IMAGES", "TableName": "fake"}
		shard := map[string]any{"ShardId": sh.id, "SequenceNumberRange": map[string]any{"StartingSequenceNumber": strconv.Itoa(sh.seqs[0])}}
		if sh.parent != "" {
			shard["ParentShardId"] = sh.parent
		}
		if sh.closed {
			shard["SequenceNumberRange"].(map[string]any)["EndingSequenceNumber"] = strconv.Itoa(sh.seqs[len(sh.seqs)-1])
		}
		desc["Shards"] = []any{shard}
		if start+1 < len(f.shards) {
			desc["LastEvaluatedShardId"] = sh.id
		}
		out = map[string]any{"StreamDescription": desc}
	case "GetShardIterator":
		sh := f.shard(in["ShardId"].(string))
		pos := 0
		switch in["ShardIteratorType"] {
		case "LATEST":
			pos = len(sh.seqs)
		case "AFTER_SEQUENCE_NUMBER":
			after, _ := strconv.Atoi(in["SequenceNumber"].(string))
			for pos < len(sh.seqs) && sh.seqs[pos] <= after {
				pos++
			}
		}
		out = map[string]any{"ShardIterator": fmt.Sprintf("%s|%d", sh.id, pos)}
	case "GetRecords":
		id, p, _ := strings.Cut(in["ShardIterator"].(string), "|")
		pos, _ := strconv.Atoi(p)
		sh := f.shard(id)
		end := min(pos+2, len(sh.seqs))
		var recs []any
		for _, seq := range sh.seqs[pos:end] {
			recs = append(recs, map[string]any{
				"eventID": strconv.Itoa(seq), "eventName": "INSERT", "eventVersion": "1.1", "eventSource": "aws:dynamodb", "awsRegion": "ddblocal",
				"dynamodb": map[string]any{
					"ApproximateCreationDateTime": float64(time.Now().Unix()),
					"Keys":                        map[string]any{"PK": map[string]any{"S": sh.id}, "SK": map[string]any{"S": strconv.Itoa(seq)}},
					"NewImage":                    map[string]any{"PK": map[string]any{"S": sh.id}, "SK": map[string]any{"S": strconv.Itoa(seq)}},
					"SequenceNumber":              strconv.Itoa(seq), "SizeBytes": 20, "StreamViewType": "NEW_AND_OLD_IMAGES",
				},
			})
		}
		res := map[string]any{"Records": recs}
		if !sh.closed || end < len(sh.seqs) {
			res["NextShardIterator"] = fmt.Sprintf("%s|%d", sh.id, end)
		}
		if len(recs) > 0 {
			f.mu.Lock()
			f.reads = append(f.reads, sh.id)
			f.mu.Unlock()
		}
		out = res
	default:
		http.Error(w, "unknown operation "+op, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/x-amz-json-1.0")
	_ = json.NewEncoder(w).Encode(out)
}

// fakeStreamStack is a stack whose only source is a DynamoDB event on a fake stream.
func fakeStreamStack(t *testing.T, f *fakeStreams, startingPosition string) *Stack {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	doc := strings.NewReplacer("POSITION", startingPosition).Replace(`Resources:
  Table:
    Type: AWS::DynamoDB::Table
    Properties:
      KeySchema: [{AttributeName: PK, KeyType: HASH}]
      StreamSpecification: {StreamViewType: NEW_AND_OLD_IMAGES}
  SyncFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: functions/sync/
      Events:
        Stream:
          Type: DynamoDB
          Properties: {Stream: !GetAtt Table.StreamArn, StartingPosition: POSITION, BatchSize: 10}
`)
	tpl, err := template.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return &Stack{
		Name: "fake", Region: "us-east-1", AccountID: "000000000000", template: tpl,
		StreamARN: "arn:aws:dynamodb:us-east-1:000000000000:table/fake/stream/1",
		DynamoDBStreams: dynamodbstreams.New(dynamodbstreams.Options{
			Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("a", "b", ""), BaseEndpoint: aws.String(srv.URL),
		}),
	}
}

// TestStreamShardLineage: shards are listed page by page, a child shard is read only after
// its parent was read to its end, and a closed shard ends; under LATEST the closed parent is
// skipped and the child read from its tip.
func TestStreamShardLineage(t *testing.T) {
	t.Parallel()
	// The grandchild and the child are listed before their parents.
	shards := []fakeShard{
		{id: "shardId-3", parent: "shardId-2", seqs: []int{600, 700}},
		{id: "shardId-2", parent: "shardId-1", closed: true, seqs: []int{400, 500}},
		{id: "shardId-1", closed: true, seqs: []int{100, 200, 300}},
		{id: "shardId-9", closed: true, seqs: []int{50}}, // a parent no longer listed
		{id: "shardId-10", parent: "shardId-gone", seqs: []int{60}},
	}
	tests := []struct {
		position string
		want     []string // sequence numbers delivered, in order per lineage
	}{
		{"TRIM_HORIZON", []string{"100", "200", "300", "400", "500", "600", "700", "50", "60"}},
		{"LATEST", nil},
	}
	for _, tc := range tests {
		t.Run(tc.position, func(t *testing.T) {
			t.Parallel()
			f := &fakeStreams{shards: shards}
			s := fakeStreamStack(t, f, tc.position)
			c := newStreamConsumer(nil)
			p := startStreamPollers(t, s, c, nil, PollerOptions{})
			drain(t, p)
			var got []string
			for _, r := range c.records() {
				got = append(got, r.Change.SequenceNumber)
			}
			// One lineage must be in order; the two unrelated shards may come at any point.
			lineage := slices.DeleteFunc(slices.Clone(got), func(s string) bool { return s == "50" || s == "60" })
			wantLineage := slices.DeleteFunc(slices.Clone(tc.want), func(s string) bool { return s == "50" || s == "60" })
			if !slices.Equal(lineage, wantLineage) || len(got) != len(tc.want) {
				t.Errorf("delivered %v, want %v", got, tc.want)
			}
			for _, r := range c.records() {
				if r.AWSRegion != "us-east-1" || r.EventSourceArn != s.StreamARN {
					t.Errorf("record %+v: region and source are the mapping's", r)
				}
			}
			src := p.streams[0]
			for _, id := range []string{"shardId-1", "shardId-2", "shardId-9"} {
				if cp, _ := p.checkpoints.get(src.key, s.StreamARN, id); !cp.Ended {
					t.Errorf("closed shard %s: checkpoint %+v, want ended", id, cp)
				}
			}
		})
	}
	t.Run("children wait for their parents", func(t *testing.T) {
		t.Parallel()
		f := &fakeStreams{shards: shards}
		s := fakeStreamStack(t, f, "TRIM_HORIZON")
		c := newStreamConsumer(func(r events.DynamoDBEventRecord) string { return "ok" })
		p := startStreamPollers(t, s, c, nil, PollerOptions{})
		drain(t, p)
		f.mu.Lock()
		reads := slices.DeleteFunc(slices.Clone(f.reads), func(s string) bool { return s == "shardId-9" || s == "shardId-10" })
		f.mu.Unlock()
		if want := []string{"shardId-1", "shardId-1", "shardId-2", "shardId-3"}; !slices.Equal(reads, want) {
			t.Errorf("reads with records %v, want %v", reads, want)
		}
	})
}
