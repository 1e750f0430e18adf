package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/multisell/multisell/pkg/local/connectorsim"
	"github.com/multisell/multisell/pkg/local/gateway"
	"github.com/multisell/multisell/pkg/testenv"
)

// useStack makes the connector command see s as the running local stack (nil: none).
func useStack(t *testing.T, s *stackFile, err error) {
	t.Helper()
	prev := findStack
	findStack = func() (*stackFile, error) { return s, err }
	t.Cleanup(func() { findStack = prev })
}

// channelQueues creates a channel outbox and inbox on the test stack's fauxqs, FIFO with
// content-based deduplication as in the template, and returns their URLs by logical id.
func channelQueues(t *testing.T, env *testenv.Env) map[string]string {
	t.Helper()
	urls := map[string]string{}
	for _, id := range []string{connectorsim.OutboxQueue, connectorsim.InboxQueue} {
		out, err := env.Stack.SQS.CreateQueue(context.Background(), &sqs.CreateQueueInput{
			QueueName:  aws.String(strings.ReplaceAll(t.Name(), "/", "-") + "-" + id + ".fifo"),
			Attributes: map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"},
		})
		if err != nil {
			t.Fatal(err)
		}
		urls[id] = aws.ToString(out.QueueUrl)
	}
	return urls
}

// answer sends a listing.quantity to the outbox and waits (up to 15 s) for the answer in
// the inbox, which it takes off the queue.
func answer(t *testing.T, c *sqs.Client, urls map[string]string, quantity int) map[string]any {
	t.Helper()
	ctx := context.Background()
	body := `{"type":"listing.quantity","account_id":"acct_cli","channel_uuid":"ch-cli","channel_type":"eBay","channel_sku":"E-1","listing_ref":"L1","sku":"W","quantity":` +
		strconv.Itoa(quantity) + `,"version":1,"at":"2026-01-02T03:04:05Z"}`
	if _, err := c.SendMessage(ctx, &sqs.SendMessageInput{
		QueueUrl: aws.String(urls[connectorsim.OutboxQueue]), MessageBody: aws.String(body), MessageGroupId: aws.String("l-E-1"),
		MessageDeduplicationId: aws.String(strconv.FormatInt(time.Now().UnixNano(), 10)), // a new message each time
	}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		out, err := c.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl: aws.String(urls[connectorsim.InboxQueue]), MaxNumberOfMessages: 1, WaitTimeSeconds: 1,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range out.Messages {
			var got map[string]any
			if err := json.Unmarshal([]byte(aws.ToString(m.Body)), &got); err != nil {
				t.Fatalf("inbox body %q: %v", aws.ToString(m.Body), err)
			}
			if _, err := c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(urls[connectorsim.InboxQueue]), ReceiptHandle: m.ReceiptHandle}); err != nil {
				t.Fatal(err)
			}
			return got
		}
	}
	t.Fatal("no answer in the inbox within 15 s")
	return nil
}

// TestConnectorSimRefuses: without a usable local stack `connector sim` exits 1 and says
// why; called wrongly (no or an unknown subcommand, a bad flag, an argument too many) it
// exits 2.
func TestConnectorSimRefuses(t *testing.T) {
	withQueues := &stackFile{PID: 1, SQSEndpoint: "http://127.0.0.1:1", Region: "us-east-1", QueueURLs: map[string]string{"AdjustmentsQueue": "u"}}
	outboxOnly := &stackFile{PID: 1, SQSEndpoint: "http://127.0.0.1:1", Region: "us-east-1", QueueURLs: map[string]string{connectorsim.OutboxQueue: "u"}}
	for _, tc := range []struct {
		name     string
		stack    *stackFile
		stackErr error
		args     []string
		stderr   string
		exit     int
	}{
		{"no stack", nil, nil, []string{"connector", "sim", "--dir", t.TempDir()}, "no local stack is running: start one with `make run`", 1},
		{"unreadable stack file", nil, errors.New("read .local/stack.json: boom"), []string{"connector", "sim"}, "boom", 1},
		{"no channel queues", withQueues, nil, []string{"connector", "sim"}, "has no ChannelInboxQueue or ChannelOutboxQueue", 1},
		{"no inbox", outboxOnly, nil, []string{"connector", "sim"}, "has no ChannelInboxQueue:", 1},
		{"no verb", nil, nil, []string{"connector"}, "multisell connector sim [--fail-rate P]", 2},
		{"unknown verb", nil, nil, []string{"connector", "amazon"}, "multisell connector sim [--fail-rate P]", 2},
		{"fail rate above 1", nil, nil, []string{"connector", "sim", "--fail-rate", "2"}, "--fail-rate 2 is not between 0 and 1", 1},
		{"fail rate NaN", nil, nil, []string{"connector", "sim", "--fail-rate", "NaN"}, "not between 0 and 1", 1},
		{"fail rate not a number", nil, nil, []string{"connector", "sim", "--fail-rate", "x"}, "invalid value", 2},
		{"extra argument", nil, nil, []string{"connector", "sim", "now"}, `unexpected argument "now"`, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			useStack(t, tc.stack, tc.stackErr)
			code, out, errOut := cli(t, tc.args...)
			if want := tc.exit; code != want || out != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("got exit %d, stdout %q, stderr %q; want exit %d, stderr with %q", code, out, errOut, want, tc.stderr)
			}
		})
	}
}

// TestConnectorSimRuns: `connector sim` answers the running stack's outbox until
// interrupted, keeping its channels in --dir, and exits 0.
func TestConnectorSimRuns(t *testing.T) {
	env := testenv.Get(t)
	urls := channelQueues(t, env)
	useStack(t, &stackFile{PID: os.Getpid(), SQSEndpoint: env.Config.SQSEndpoint, Region: env.Config.Region, QueueURLs: urls}, nil)
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	stdout, stderr = &out, &errOut
	t.Cleanup(func() { stdout, stderr = os.Stdout, os.Stderr })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- run(ctx, []string{"connector", "sim", "--dir", dir, "--fail-rate", "0"}) }()

	got := answer(t, env.Stack.SQS, urls, 12)
	if got["type"] != "listing.result" || got["ok"] != true || got["channel_quantity"] != 12.0 {
		t.Errorf("answer %v", got)
	}
	cancel()
	select {
	case c := <-code:
		if c != 0 {
			t.Errorf("exit %d, stderr %s", c, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("connector sim did not stop within 10 s of the interrupt")
	}
	if _, err := os.Stat(filepath.Join(dir, "acct_cli", "ch-cli.json")); err != nil {
		t.Errorf("channel file: %v", err)
	}
}

// TestServeSim: serve starts the sim on the stack's channel queues unless told not to or
// the template has none, and says so in one banner line.
func TestServeSim(t *testing.T) {
	env := testenv.Get(t)
	withQueues := &gateway.Stack{SQS: env.Stack.SQS, Queues: map[string]gateway.QueueInfo{}}
	without := &gateway.Stack{SQS: env.Stack.SQS, Queues: map[string]gateway.QueueInfo{}}
	urls := channelQueues(t, env)
	for id, url := range urls {
		withQueues.Queues[id] = gateway.QueueInfo{LogicalID: id, URL: url}
	}
	for _, tc := range []struct {
		name, sim, rate string
		stack           *gateway.Stack
		banner          string // what the banner line contains
		on              bool
	}{
		{"on", "", "", withQueues, "connector sim: on, answering the channel outbox (fail rate 0, channels in ", true},
		{"on, with a fail rate", "on", "0.25", withQueues, "(fail rate 0.25, ", true},
		{"MULTISELL_SIM=off", "off", "", withQueues, "connector sim: off (MULTISELL_SIM=off; bring your own connector)", false},
		{"OFF, any case", "OFF", "", withQueues, "connector sim: off (MULTISELL_SIM=off", false},
		{"a template without the channel queues", "", "", without, "connector sim: off (template.yaml has no ChannelOutboxQueue and ChannelInboxQueue)", false},
		{"a bad fail rate", "", "lots", withQueues, `connector sim: off (MULTISELL_SIM_FAIL_RATE="lots" is not a number from 0 to 1)`, false},
		{"a fail rate above 1", "", "1.5", withQueues, `MULTISELL_SIM_FAIL_RATE="1.5" is not`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("MULTISELL_SIM", tc.sim)
			t.Setenv("MULTISELL_SIM_FAIL_RATE", tc.rate)
			dir := t.TempDir()
			sim := startServeSim(context.Background(), tc.stack, dir)
			defer sim.stop()
			line := sim.bannerLine()
			if strings.Contains(line, "\n") || !strings.Contains(line, tc.banner) {
				t.Errorf("banner %q, want one line with %q", line, tc.banner)
			}
			if tc.on && !strings.Contains(line, "MULTISELL_SIM=off") {
				t.Errorf("the banner does not say how to turn the sim off: %q", line)
			}
			if !tc.on {
				return
			}
			got := answer(t, env.Stack.SQS, urls, 3)
			if got["channel_sku"] != "E-1" || got["version"] != 1.0 {
				t.Errorf("answer %v", got)
			}
			if _, err := os.Stat(filepath.Join(dir, "acct_cli", "ch-cli.json")); got["ok"] == true && err != nil {
				t.Errorf("channel file: %v", err)
			}
		})
	}
}
