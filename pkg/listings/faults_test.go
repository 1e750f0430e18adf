package listings_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/wire"
)

// TestFailedPushRetried: a push the channel refuses makes the listing
// failed with the connector's error, and is sent again (with backoff) until
// the channel takes it; a result for an older version changes nothing.
func TestFailedPushRetried(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.waitSynced(wanted(15))
	// Refused until the first failure is seen: while the channel refuses, a
	// delayed retry is always pending, and Drain (of every test sharing the
	// stack) would wait for it.
	w.Env.RefusePushes(t, w.Acct.ID)
	w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": 20}})
	testenv.WaitFor(t, func() bool {
		for _, l := range w.listings("sync_status=failed") {
			if l.ChannelSKU == "P" && l.SyncError != nil && *l.Quantity == 25 && *l.ChannelQuantity == 15 {
				return true
			}
		}
		return false
	}, "the refused push failed with the channel's error and its old quantity")
	w.Env.AcceptPushes(w.Acct.ID)
	w.waitSynced(wanted(25))

	// A stale result: the version before the current one, failed. Nothing changes.
	shown, _ := w.Env.SimListing(w.Acct.ID, w.Amazon, "P")
	before := w.listings("")
	body, _ := json.Marshal(map[string]any{"type": wire.TypeListingResult, "channel_uuid": w.Amazon, "channel_sku": "P",
		"version": shown.Version - 1, "ok": false, "error": "late"})
	_, err := w.Env.Deps.SQS.SendMessage(context.Background(), &sqs.SendMessageInput{
		QueueUrl: aws.String(w.Env.Config.ChannelInboxQueueURL), MessageBody: aws.String(string(body)),
		MessageGroupId: aws.String(w.Acct.ID), MessageDeduplicationId: aws.String(fmt.Sprint(time.Now().UnixNano())),
		MessageAttributes: map[string]sqstypes.MessageAttributeValue{
			queue.AccountAttribute: {DataType: aws.String("String"), StringValue: aws.String(w.Acct.ID)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.Env.Drain(t)
	if after := w.listings(""); fmt.Sprint(render(after)) != fmt.Sprint(render(before)) || after[0].UpdatedAt != before[0].UpdatedAt {
		t.Errorf("a stale result changed the listings: %v -> %v", render(before), render(after))
	}
}

// TestReplayedRecordSendsNothing: the same stream record handled again (a
// retried batch) finds nothing left to change and sends no new version.
func TestReplayedRecordSendsNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.waitSynced(wanted(15))
	before, _ := w.Env.SimListing(w.Acct.ID, w.Amazon, "P")
	listed, _ := json.Marshal(w.listings(""))
	h, err := w.Env.Handler("channel-sync")
	if err != nil {
		t.Fatal(err)
	}
	img := func(available int) map[string]any {
		return map[string]any{"PK": map[string]string{"S": store.PK(w.Acct.ID, "INV")}, "SK": map[string]string{"S": store.Join("P", w.A)},
			"sku": map[string]string{"S": "P"}, "warehouse_uuid": map[string]string{"S": w.A},
			"on_hand": map[string]string{"N": "10"}, "reserved": map[string]string{"N": "0"}, "available": map[string]string{"N": fmt.Sprint(available)}}
	}
	raw, _ := json.Marshal(map[string]any{"Records": []any{map[string]any{
		"eventID": "replay", "eventName": "MODIFY", "eventSource": "aws:dynamodb",
		"dynamodb": map[string]any{"Keys": map[string]any{"PK": img(0)["PK"], "SK": img(0)["SK"]}, "OldImage": img(3), "NewImage": img(10),
			"SequenceNumber": "1", "StreamViewType": "NEW_AND_OLD_IMAGES"},
	}}})
	var ev events.DynamoDBEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		resp, err := h.(app.StreamHandler)(context.Background(), ev)
		if err != nil || len(resp.BatchItemFailures) > 0 {
			t.Fatalf("replay: %+v %v", resp, err)
		}
	}
	w.Env.Drain(t)
	time.Sleep(500 * time.Millisecond) // give a (wrong) message time to reach the sim
	after, _ := w.Env.SimListing(w.Acct.ID, w.Amazon, "P")
	if after.Version != before.Version || after.Quantity != before.Quantity {
		t.Errorf("replays sent a version: channel at v%d q%d, was v%d q%d", after.Version, after.Quantity, before.Version, before.Quantity)
	}
	if again, _ := json.Marshal(w.listings("")); string(again) != string(listed) {
		t.Errorf("replays changed the listings: %s -> %s", listed, again)
	}
}

// TestBurstCoalesces: 500 adjustments of one SKU end with the channel
// showing the final quantity, in at most half as many messages as
// adjustments: the push interval folds the changes within it into one
// (how many depends on how fast the shared emulator applies them;
// BenchmarkStockBurst reports the figure, docs/decisions.md). It runs
// alone (not parallel): its 500 requests would slow the others.
func TestBurstCoalesces(t *testing.T) {
	w := newWorld(t)
	w.waitSynced(wanted(15))
	messages := w.messageCount(t, w.Amazon+store.Sep)
	for i := range 500 {
		w.must(http.MethodPut, "/inventory", map[string]any{"inventory": map[string]any{"sku": "P", "warehouse_uuid": w.A, "on_hand": i + 1}})
	}
	w.waitSynced(wanted(505))
	end, _ := w.Env.SimListing(w.Acct.ID, w.Amazon, "P")
	sent := messages()
	t.Logf("500 adjustments of one SKU: %d listing.quantity messages to its listing, final quantity %d", sent, end.Quantity)
	if sent < 1 || sent > 250 {
		t.Errorf("500 adjustments sent %d messages, want 1 to 250", sent)
	}
}

// TestStreamFault: when the channel-sync function keeps failing on one
// record, the mapping retries and bisects the batch, delivers the other
// records, and after its retries leaves the failing record's position in
// the failure queue.
func TestStreamFault(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.Product("BAD")
	w.Stock("BAD", w.A, 1)
	w.must(http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": w.Amazon, "channel_sku": "BAD"}})
	want := wanted(15)
	want["BAD"] = 1
	w.waitSynced(want)
	badPK, badSK := store.PK(w.Acct.ID, "INV"), store.Join("BAD", w.A)
	w.Env.FailStream(t, func(r events.DynamoDBEventRecord) bool {
		return r.Change.Keys["PK"].String() == badPK && r.Change.Keys["SK"].String() == badSK
	})
	w.Adjust("BAD", w.A, 7)
	w.Adjust("P", w.A, 2)
	want["P"], want["EB-P"] = 7, 3
	w.waitSynced(want) // BAD stays at 1: its record never got through

	failures := w.Env.Stack.Queues["ChannelSyncFailureQueue"].URL
	deadline := time.Now().Add(45 * time.Second)
	for time.Now().Before(deadline) {
		res, err := w.Env.Deps.SQS.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(failures), MaxNumberOfMessages: 10, WaitTimeSeconds: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Messages {
			var rec struct {
				RequestContext struct {
					Condition              string `json:"condition"`
					ApproximateInvokeCount int    `json:"approximateInvokeCount"`
				} `json:"requestContext"`
				Info struct {
					ShardID   string `json:"shardId"`
					Start     string `json:"startSequenceNumber"`
					BatchSize int    `json:"batchSize"`
					StreamARN string `json:"streamArn"`
				} `json:"DDBStreamBatchInfo"`
			}
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &rec); err != nil {
				t.Fatalf("failure record %s: %v", aws.ToString(m.Body), err)
			}
			keys := streamRecordKeys(t, w.Env.Stack.DynamoDBStreams, rec.Info.StreamARN, rec.Info.ShardID, rec.Info.Start)
			if keys != badPK+" "+badSK {
				continue // another test's, or an earlier run's
			}
			if rec.Info.BatchSize != 1 || rec.RequestContext.Condition != "RetryAttemptsExhausted" || rec.RequestContext.ApproximateInvokeCount < 6 {
				t.Errorf("failure record %+v: want the one record, after its 5 retries", rec)
			}
			return
		}
	}
	t.Fatal("no failure record for the failing stream record")
}

// streamRecordKeys reads the keys of the stream record at seq, as "PK SK".
func streamRecordKeys(t *testing.T, c *dynamodbstreams.Client, arn, shard, seq string) string {
	t.Helper()
	ctx := context.Background()
	it, err := c.GetShardIterator(ctx, &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(arn), ShardId: aws.String(shard),
		ShardIteratorType: streamtypes.ShardIteratorTypeAtSequenceNumber, SequenceNumber: aws.String(seq)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: it.ShardIterator, Limit: aws.Int32(1)})
	if err != nil || len(out.Records) == 0 {
		t.Fatalf("stream record %s: %v", seq, err)
	}
	var parts []string
	for _, k := range []string{"PK", "SK"} {
		if s, ok := out.Records[0].Dynamodb.Keys[k].(*streamtypes.AttributeValueMemberS); ok {
			parts = append(parts, s.Value)
		}
	}
	return strings.Join(parts, " ")
}
