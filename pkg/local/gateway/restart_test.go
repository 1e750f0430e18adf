package gateway

import (
	"context"
	"log/slog"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/emulators"
	"github.com/multisell/multisell/pkg/local/template"
)

// warnCounter is a slog handler that counts the warnings and errors logged.
type warnCounter struct{ n atomic.Int64 }

func (w *warnCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnCounter) Handle(context.Context, slog.Record) error    { w.n.Add(1); return nil }
func (w *warnCounter) WithAttrs([]slog.Attr) slog.Handler           { return w }
func (w *warnCounter) WithGroup(string) slog.Handler                { return w }

// TestPollersSurviveEmulatorRestarts: the pollers ride out a crash of either emulator
// (connections refused until they notice, then answers again, as serve's supervision
// restarts it): they log, back off and resume, neither exiting nor spinning. Dynoxide restarted on
// its database keeps its stream (the same ARN and shard ids), so the stream source goes on
// after its last record: nothing missed, nothing delivered twice. A restarted fauxqs has no
// queues until ProvisionQueues makes them again, with the same URLs and attributes; the SQS
// source then reads them.
func TestPollersSurviveEmulatorRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	ctx := context.Background()
	ddb, err := emulators.StartDynoxide(ctx, emulators.DynoxideOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sqsProc, err := emulators.StartFauxqs(ctx)
	if err != nil {
		_ = ddb.Stop()
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ddb.Stop(); _ = sqsProc.Stop() })
	tpl, err := template.Parse([]byte(streamTemplate(t, streamSettings{Table: "restarts"}.defaults())))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Provision(ctx, tpl, Endpoints{DynamoDB: ddb.Endpoint, SQS: sqsProc.Endpoint}, ProvisionOptions{StackName: "restarts"})
	if err != nil {
		t.Fatal(err)
	}
	var (
		mu     sync.Mutex
		bodies []string
	)
	worker := func(_ context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range ev.Records {
			bodies = append(bodies, m.Body)
		}
		return events.SQSEventResponse{}, nil
	}
	warnings := &warnCounter{}
	c := newStreamConsumer(nil)
	p := startStreamPollers(t, s, c, worker, PollerOptions{Logger: slog.New(warnings), CheckpointFile: filepath.Join(t.TempDir(), "checkpoints.json")})
	change := func(t *testing.T, name string) {
		t.Helper()
		put(t, s, item(name+"#P", "1"))
		if _, err := s.SQS.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(s.Queues["Work"].URL), MessageBody: aws.String(name)}); err != nil {
			t.Fatal(err)
		}
		drain(t, p)
	}
	change(t, "before")

	for _, tc := range []struct {
		name    string
		proc    **emulators.Process
		restore func(context.Context) error // what serve does after the restart
	}{
		{"dynoxide", &ddb, func(context.Context) error { return nil }},
		{"fauxqs", &sqsProc, s.ProvisionQueues},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := *tc.proc
			warnedBefore := warnings.n.Load()
			if err := syscall.Kill(old.Pid(), syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			<-old.Done()
			// Down until the pollers notice (the SDK's own retries hide a short outage), and
			// two seconds more.
			for deadline := time.Now().Add(20 * time.Second); warnings.n.Load() == warnedBefore; time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no poller noticed that %s was down in 20 s", tc.name)
				}
			}
			down := time.Now()
			time.Sleep(2 * time.Second)
			again, err := old.Restart(ctx)
			if err != nil {
				t.Fatal(err)
			}
			*tc.proc = again
			if err := tc.restore(ctx); err != nil {
				t.Fatal(err)
			}
			change(t, "after-"+tc.name)
			if n := warnings.n.Load() - warnedBefore; n > 50 {
				t.Errorf("%d warnings while %s was down for %v, want few (the pollers back off)", n, tc.name, time.Since(down))
			}
			t.Logf("%s: %d warnings", tc.name, warnings.n.Load()-warnedBefore)
		})
	}

	want := []string{"before", "after-dynoxide", "after-fauxqs"}
	var got []string
	for _, r := range c.records() {
		got = append(got, r.Change.Keys["PK"].String())
	}
	for i := range want {
		want[i] += "#P"
	}
	if !slices.Equal(got, want) {
		t.Errorf("stream delivered %v, want %v (once each, in order)", got, want)
	}
	mu.Lock()
	if want := []string{"before", "after-dynoxide", "after-fauxqs"}; !slices.Equal(bodies, want) {
		t.Errorf("the queue delivered %v, want %v", bodies, want)
	}
	mu.Unlock()
}

// TestProvisionQueuesAgain: on a restarted fauxqs, ProvisionQueues makes the queues again
// as Provision made them: the same URLs and ARNs, FIFO, with their attributes and the
// redrive policy to their dead-letter queue.
func TestProvisionQueuesAgain(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the emulators: skipped with -short (make unit); make test runs it")
	}
	t.Parallel()
	ctx := context.Background()
	sqsProc, err := emulators.StartFauxqs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sqsProc.Stop() })
	doc := strings.Replace(string(testdata(t, "provision.yaml")), "TABLE_NAME_PLACEHOLDER", "again-table", 1)
	tpl, err := template.Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Provision(ctx, tpl, Endpoints{DynamoDB: emulator(t, "dynoxide").Endpoint, SQS: sqsProc.Endpoint}, ProvisionOptions{StackName: "again"})
	if err != nil {
		t.Fatal(err)
	}
	attributes := func() map[string]map[string]string {
		out := map[string]map[string]string{}
		for id, q := range s.Queues {
			got, err := s.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{
				QueueUrl: aws.String(q.URL), AttributeNames: []sqstypes.QueueAttributeName{sqstypes.QueueAttributeNameAll},
			})
			if err != nil {
				t.Fatalf("queue %s: %v", id, err)
			}
			out[id] = got.Attributes
			for _, varying := range []string{"CreatedTimestamp", "LastModifiedTimestamp"} {
				delete(out[id], varying)
			}
		}
		return out
	}
	want := attributes()
	if err := syscall.Kill(sqsProc.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-sqsProc.Done()
	if sqsProc, err = sqsProc.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.ProvisionQueues(ctx); err != nil {
		t.Fatal(err)
	}
	got := attributes()
	for id := range want {
		if !maps.Equal(got[id], want[id]) {
			t.Errorf("queue %s made again with %v, want %v", id, got[id], want[id])
		}
	}
	if !strings.Contains(got["Work"]["RedrivePolicy"], s.Queues["WorkDLQ"].ARN) || got["Work"]["FifoQueue"] != "true" {
		t.Errorf("Work made again with %v, want FIFO with a redrive policy to WorkDLQ", got["Work"])
	}
}
