package connectorsim

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/syncbuf"
)

// The fauxqs process shared by this package's tests, started on first use.
var (
	fauxqsOnce sync.Once
	fauxqs     *emulators.Process
	fauxqsErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if fauxqs != nil {
		_ = fauxqs.Stop()
	}
	os.Exit(code)
}

// sqsClient returns a client of the shared fauxqs.
func sqsClient(t *testing.T) *sqs.Client {
	t.Helper()
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	fauxqsOnce.Do(func() { fauxqs, fauxqsErr = emulators.StartFauxqs(context.Background()) })
	if fauxqsErr != nil {
		t.Fatalf("start fauxqs: %v", fauxqsErr)
	}
	return sqs.New(sqs.Options{
		Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: aws.String(fauxqs.Endpoint),
	})
}

var queueSeq atomic.Int64

// createQueue makes a FIFO queue with content-based deduplication, as the template's
// channel queues are, named after the test.
func createQueue(t *testing.T, c *sqs.Client, role string) string {
	t.Helper()
	name := regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(t.Name(), "-")
	name = fmt.Sprintf("%.50s-%d-%s.fifo", name, queueSeq.Add(1), role)
	out, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{
		QueueName: aws.String(name),
		Attributes: map[string]string{
			"FifoQueue": "true", "ContentBasedDeduplication": "true", "VisibilityTimeout": "30",
		},
	})
	if err != nil {
		t.Fatalf("create queue %s: %v", name, err)
	}
	return aws.ToString(out.QueueUrl)
}

// startSim runs s until the test ends and returns its log.
func startSim(t *testing.T, s *Sim) *syncbuf.Buffer {
	t.Helper()
	logs := &syncbuf.Buffer{}
	s.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return within 10 s of its context ending")
		}
		if t.Failed() {
			t.Logf("sim log:\n%s", logs)
		}
	})
	return logs
}

// outMsg is a message for the outbox.
type outMsg struct {
	group, body string
}

// sendOutbox sends messages to the outbox as multisell would: every message its own
// deduplication id (a replay is a new message), the account in an attribute.
func sendOutbox(t *testing.T, c *sqs.Client, url string, msgs ...outMsg) {
	t.Helper()
	for i, m := range msgs {
		in := &sqs.SendMessageInput{
			QueueUrl: aws.String(url), MessageBody: aws.String(m.body), MessageGroupId: aws.String(m.group),
			MessageDeduplicationId: aws.String(fmt.Sprintf("%d-%d", time.Now().UnixNano(), i)),
		}
		var account struct {
			AccountID string `json:"account_id"`
		}
		if json.Unmarshal([]byte(m.body), &account) == nil && account.AccountID != "" {
			in.MessageAttributes = map[string]sqstypes.MessageAttributeValue{
				"account_id": {DataType: aws.String("String"), StringValue: aws.String(account.AccountID)},
			}
		}
		if _, err := c.SendMessage(context.Background(), in); err != nil {
			t.Fatalf("send %s: %v", m.body, err)
		}
	}
}

// waitEmpty waits (up to 20 s) until the queue has no message, visible or in flight.
func waitEmpty(t *testing.T, c *sqs.Client, url string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		out, err := c.GetQueueAttributes(context.Background(), &sqs.GetQueueAttributesInput{
			QueueUrl: aws.String(url),
			AttributeNames: []sqstypes.QueueAttributeName{
				sqstypes.QueueAttributeNameApproximateNumberOfMessages, sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		a := out.Attributes
		if a["ApproximateNumberOfMessages"] == "0" && a["ApproximateNumberOfMessagesNotVisible"] == "0" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue %s still holds messages after 20 s: %v", url, a)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// inboxMsg is an answer the sim sent.
type inboxMsg struct {
	group, account string
	body           map[string]any
}

// receiveAll takes every message of the inbox, in the order received.
func receiveAll(t *testing.T, c *sqs.Client, url string) []inboxMsg {
	t.Helper()
	var got []inboxMsg
	for {
		out, err := c.ReceiveMessage(context.Background(), &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(url), MaxNumberOfMessages: 10, WaitTimeSeconds: 0,
			MessageAttributeNames:       []string{"All"},
			MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameMessageGroupId},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Messages) == 0 {
			return got
		}
		for _, m := range out.Messages {
			im := inboxMsg{group: m.Attributes["MessageGroupId"]}
			if a, ok := m.MessageAttributes["account_id"]; ok && aws.ToString(a.DataType) == "String" {
				im.account = aws.ToString(a.StringValue)
			}
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &im.body); err != nil {
				t.Fatalf("inbox body %q: %v", aws.ToString(m.Body), err)
			}
			got = append(got, im)
			if _, err := c.DeleteMessage(context.Background(), &sqs.DeleteMessageInput{QueueUrl: aws.String(url), ReceiptHandle: m.ReceiptHandle}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// collect takes the inbox's messages until it has n (waiting up to 10 s), then whatever
// else is there.
func collect(t *testing.T, c *sqs.Client, url string, n int) []inboxMsg {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var got []inboxMsg
	for len(got) < n && time.Now().Before(deadline) {
		got = append(got, receiveAll(t, c, url)...)
		time.Sleep(20 * time.Millisecond)
	}
	return append(got, receiveAll(t, c, url)...)
}

// quantity is the body of a listing.quantity message of account acct_1 on channel ch-1.
func quantity(sku string, qty, version int64) string {
	return fmt.Sprintf(`{"type":"listing.quantity","account_id":"acct_1","channel_uuid":"ch-1","channel_type":"eBay","channel_sku":%q,"listing_ref":"ref-%s","sku":"P-%s","quantity":%d,"version":%d,"at":"2026-01-02T03:04:05Z"}`,
		sku, sku, sku, qty, version)
}

const tracking = `{"type":"shipment.tracking","account_id":"acct_1","channel_uuid":"ch-1","channel_type":"eBay","display_ref":"111-1","shipment_id":"shp-1","carrier_name":"UPS","carrier_name_given":"ups","tracking_number":"1Z999","tracking_url":"https://ups.example/1Z999","shipping_method":"Ground","items":[{"order_item_ref":"1","sku":"E-1","quantity":2}],"shipped_at":"2026-01-02T03:04:05Z"}`

// TestSim runs the sim against fauxqs: each case sends outbox messages and checks the
// answers in the inbox (in order), the channel file afterwards and that the outbox is empty.
func TestSim(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name     string
		failRate float64
		report   bool
		before   map[string]Listing // listings of acct_1/ch-1 before the sim starts
		send     []outMsg
		want     []string            // the answers' JSON, in order
		listings map[string][2]int64 // channel SKU -> {quantity, version} afterwards
		dropped  int                 // messages logged as unreadable
	}{
		{
			name:     "a quantity is applied",
			send:     []outMsg{{"l-E-1", quantity("E-1", 5, 1)}},
			want:     []string{`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":1,"ok":true,"channel_quantity":5}`},
			listings: map[string][2]int64{"E-1": {5, 1}},
		},
		{
			name: "versions: newer applied, stale and repeated answered with the current quantity",
			send: []outMsg{
				{"l-E-1", quantity("E-1", 7, 2)}, {"l-E-1", quantity("E-1", 3, 1)}, {"l-E-1", quantity("E-1", 9, 2)},
				{"l-E-1", quantity("E-1", 8, 3)}, {"l-E-1", quantity("E-1", 8, 3)},
			},
			want: []string{
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":2,"ok":true,"channel_quantity":7}`,
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":1,"ok":true,"channel_quantity":7}`,
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":2,"ok":true,"channel_quantity":7}`,
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":3,"ok":true,"channel_quantity":8}`,
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":3,"ok":true,"channel_quantity":8}`,
			},
			listings: map[string][2]int64{"E-1": {8, 3}},
		},
		{
			name:     "fail rate 1: refused with the old quantity",
			failRate: 1,
			before:   map[string]Listing{"E-1": {ListingRef: "ref-E-1", Quantity: 4, Version: 1, UpdatedAt: at}},
			send:     []outMsg{{"l-E-1", quantity("E-1", 10, 2)}, {"l-E-2", quantity("E-2", 1, 1)}, {"s-1", tracking}},
			want: []string{
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":2,"ok":false,"error":"simulated channel error","channel_quantity":4}`,
				`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-2","version":1,"ok":false,"error":"simulated channel error","channel_quantity":0}`,
				`{"type":"shipment.result","channel_uuid":"ch-1","shipment_id":"shp-1","ok":false,"error":"simulated channel error"}`,
			},
			listings: map[string][2]int64{"E-1": {4, 1}},
		},
		{
			name: "tracking is posted",
			send: []outMsg{{"s-1", tracking}},
			want: []string{`{"type":"shipment.result","channel_uuid":"ch-1","shipment_id":"shp-1","ok":true}`},
		},
		{
			name: "unreadable messages are dropped and the sim goes on",
			send: []outMsg{
				{"g1", "not json"}, {"g2", `{"type":"order.cancel","account_id":"acct_1"}`}, {"g3", `{"type":"listing.quantity","account_id":"acct_1"}`},
				{"g4", `H4sIAAAAAAAA/6pWKqksSFWyUkrOzytJzSvRUSpKLS7NKQEAAAD//w==`},
				{"g5", `{"type":"listing.quantity","account_id":"../..","channel_uuid":"ch-1","channel_sku":"E-1","quantity":1,"version":1}`},
				{"l-E-1", quantity("E-1", 2, 1)},
			},
			want:     []string{`{"type":"listing.result","channel_uuid":"ch-1","channel_sku":"E-1","version":1,"ok":true,"channel_quantity":2}`},
			listings: map[string][2]int64{"E-1": {2, 1}},
			dropped:  5,
		},
		{
			name:   "report: the listings the channel has, at the start",
			report: true,
			before: map[string]Listing{
				"E-2": {ListingRef: "r2", Quantity: 0, Version: 4, UpdatedAt: at},
				"E-1": {ListingRef: "r1", Quantity: 6, Version: 1, UpdatedAt: at},
			},
			want: []string{
				`{"type":"listing","channel_uuid":"ch-1","channel_sku":"E-1","listing_ref":"r1","channel_quantity":6}`,
				`{"type":"listing","channel_uuid":"ch-1","channel_sku":"E-2","listing_ref":"r2","channel_quantity":0}`,
			},
			listings: map[string][2]int64{"E-1": {6, 1}, "E-2": {0, 4}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := sqsClient(t)
			outbox, inbox := createQueue(t, c, "outbox"), createQueue(t, c, "inbox")
			dir := t.TempDir()
			if tc.before != nil {
				ch := &Channel{AccountID: "acct_1", ChannelUUID: "ch-1", Listings: tc.before, Shipments: map[string]Shipment{}}
				if err := ch.save(dir); err != nil {
					t.Fatal(err)
				}
			}
			logs := startSim(t, &Sim{
				SQS: c, OutboxURL: outbox, InboxURL: inbox, Dir: dir, FailRate: tc.failRate,
				Rand: rand.New(rand.NewPCG(1, 2)), Report: tc.report,
			})
			sendOutbox(t, c, outbox, tc.send...)
			waitEmpty(t, c, outbox) // every answer is sent before its message is deleted
			got := collect(t, c, inbox, len(tc.want))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d answers, want %d: %+v", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				var want map[string]any
				if err := json.Unmarshal([]byte(w), &want); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got[i].body, want) {
					t.Errorf("answer %d:\n got %v\nwant %v", i, got[i].body, want)
				}
				if got[i].group != "acct_1" || got[i].account != "acct_1" {
					t.Errorf("answer %d: group %q, account_id attribute %q; want acct_1 for both", i, got[i].group, got[i].account)
				}
			}

			ch, err := LoadChannel(dir, "acct_1", "ch-1")
			if err != nil {
				t.Fatal(err)
			}
			listings := map[string][2]int64{}
			for sku, l := range ch.Listings {
				listings[sku] = [2]int64{l.Quantity, l.Version}
			}
			if len(tc.listings) == 0 {
				tc.listings = map[string][2]int64{}
			}
			if !reflect.DeepEqual(listings, tc.listings) {
				t.Errorf("listings afterwards %v, want %v", listings, tc.listings)
			}
			if l, ok := ch.Listings["E-1"]; ok && tc.before == nil && (l.ListingRef != "ref-E-1" || l.UpdatedAt.IsZero() || ch.ChannelType != "eBay") {
				t.Errorf("listing E-1 %+v, channel type %q", l, ch.ChannelType)
			}
			_, posted := ch.Shipments["shp-1"]
			if wantPosted := strings.Contains(strings.Join(tc.want, ""), `"shipment_id":"shp-1","ok":true`); posted != wantPosted {
				t.Errorf("shipment shp-1 posted: %v, want %v (%+v)", posted, wantPosted, ch.Shipments)
			}
			if n := strings.Count(logs.String(), "cannot read"); n != tc.dropped {
				t.Errorf("%d messages logged as unreadable, want %d:\n%s", n, tc.dropped, logs)
			}
		})
	}
}

// TestSimSurvivesSQSErrors: a missing inbox fails the answers; the sim logs, backs off,
// keeps the message and answers it once the inbox exists.
func TestSimSurvivesSQSErrors(t *testing.T) {
	t.Parallel()
	c := sqsClient(t)
	outbox := createQueue(t, c, "outbox")
	inboxName := "sim-errors-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-inbox.fifo"
	inbox := outbox[:strings.LastIndex(outbox, "/")+1] + inboxName // not created yet
	logs := startSim(t, &Sim{SQS: c, OutboxURL: outbox, InboxURL: inbox, Dir: t.TempDir()})
	sendOutbox(t, c, outbox, outMsg{"l-E-1", quantity("E-1", 5, 1)})
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), "send to the inbox") {
		if time.Now().After(deadline) {
			t.Fatalf("no failed send logged:\n%s", logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
	out, err := c.CreateQueue(context.Background(), &sqs.CreateQueueInput{
		QueueName:  aws.String(inboxName),
		Attributes: map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.QueueUrl) != inbox {
		t.Fatalf("the inbox URL is %s, the sim was given %s", aws.ToString(out.QueueUrl), inbox)
	}
	waitEmpty(t, c, outbox)
	got := collect(t, c, inbox, 1)
	if len(got) != 1 || got[0].body["ok"] != true || got[0].body["channel_quantity"] != 5.0 {
		t.Errorf("answers after the inbox appeared: %+v", got)
	}
}

func TestRunRefuses(t *testing.T) {
	t.Parallel()
	c := sqsClient(t)
	held := t.TempDir()
	unlock, err := lockDir(held)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(unlock)
	for _, tc := range []struct {
		name string
		sim  Sim
		err  string
	}{
		{"no client", Sim{OutboxURL: "o", InboxURL: "i", Dir: t.TempDir()}, "required"},
		{"no inbox", Sim{SQS: c, OutboxURL: "o", Dir: t.TempDir()}, "required"},
		{"no directory", Sim{SQS: c, OutboxURL: "o", InboxURL: "i"}, "directory"},
		{"fail rate above 1", Sim{SQS: c, OutboxURL: "o", InboxURL: "i", Dir: t.TempDir(), FailRate: 1.5}, "fail rate"},
		{"negative fail rate", Sim{SQS: c, OutboxURL: "o", InboxURL: "i", Dir: t.TempDir(), FailRate: -0.1}, "fail rate"},
		{"directory in use", Sim{SQS: c, OutboxURL: "o", InboxURL: "i", Dir: held}, "another sim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := tc.sim.Run(ctx); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Run: %v, want an error with %q", err, tc.err)
			}
		})
	}
}
