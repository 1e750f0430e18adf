package gateway

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	sqstypes "github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/multisell/multisell/pkg/local/template"
)

// PollerOptions configures Pollers.
type PollerOptions struct {
	// WaitTime is the long-poll wait of each ReceiveMessage, in whole seconds (default 1s).
	WaitTime time.Duration
	// FailedVisibility, when > 0, makes failed messages visible again after this delay
	// instead of the queue's visibility timeout (Lambda leaves them alone; tests may not
	// want to wait minutes for a retry).
	FailedVisibility time.Duration
	// OwnVisibility names the functions (logical ids, each with an SQS event) that set the
	// visibility of the messages they report failed themselves (queue.Sender.RetrySoon and
	// Hide: a retry in seconds, a push put off until the channel's limits allow it).
	// FailedVisibility leaves theirs as the function set it, as Lambda does, unless the
	// invocation itself failed.
	OwnVisibility []string
	// Concurrency is the number of receivers per event source (default 1; a standard
	// queue's has at least standardReceivers).
	Concurrency int
	// Logger receives a line per batch (Debug) and per failure (Warn/Error).
	Logger *slog.Logger

	// StreamPollInterval is how long a stream shard's reader waits after a read that found
	// nothing new (default 100 ms; Lambda polls four times a second).
	StreamPollInterval time.Duration
	// StreamRetryDelay is the wait before a failed stream batch is retried; it doubles with
	// each retry of the same records, up to 32 times (default 100 ms). A bisected batch's
	// halves wait the delay once.
	StreamRetryDelay time.Duration
	// CheckpointFile, when set, keeps the stream sources' checkpoints (the last record done
	// with in each shard) in this JSON file, so a restarted stack resumes where it stopped
	// instead of replaying the stream from TRIM_HORIZON. Without it they live in memory.
	CheckpointFile string
	// StreamBatchingWindow, when > 0, caps the stream sources' MaximumBatchingWindow (tests
	// want a change to reach the function at once; the template's window trades latency for
	// fewer invocations).
	StreamBatchingWindow time.Duration
}

// Pollers play the Lambda event source mappings of a template: one receive loop per enabled
// SQS event, and a stream reader per enabled DynamoDB event, invoking the function's handler
// with each batch; and its EventBridge schedules, invoking a function with a Schedule event
// every rate.
type Pollers struct {
	stack       *Stack
	sources     []*source
	streams     []*streamSource
	schedules   []*scheduleSource
	checkpoints *checkpoints
	opts        PollerOptions
	log         *slog.Logger
	inflight    atomic.Int64
	// clock orders the stream readers' reads and Drain's passes.
	clock atomic.Int64

	mu     sync.Mutex
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// batches is the context of the SQS batches being processed: it outlives Stop's cancel
	// by StopGrace, so a batch under way finishes unless it takes longer (cut, stopBatches).
	batches     context.Context
	stopBatches context.CancelFunc
}

type source struct {
	fn      *template.Function
	event   template.SQSEvent
	queue   QueueInfo
	handler SQSHandler
	// visibility is the queue's visibility timeout: how long Lambda leaves a message its
	// function failed invisible from the moment it was received.
	visibility time.Duration
}

// NewPollers prepares a poller for every enabled SQS and DynamoDB event of the template's
// functions, taking the handlers from lookup by folder name. Call Start to run them.
func NewPollers(stack *Stack, lookup Lookup, opts PollerOptions) (*Pollers, error) {
	opts.WaitTime = cmp.Or(opts.WaitTime, time.Second)
	opts.Concurrency = cmp.Or(opts.Concurrency, 1)
	opts.StreamPollInterval = cmp.Or(opts.StreamPollInterval, 100*time.Millisecond)
	opts.StreamRetryDelay = cmp.Or(opts.StreamRetryDelay, 100*time.Millisecond)
	p := &Pollers{stack: stack, opts: opts, log: cmp.Or(opts.Logger, slog.Default())}
	if err := p.addStreams(lookup); err != nil {
		return nil, err
	}
	if err := p.addSchedules(lookup); err != nil {
		return nil, err
	}
	tpl := stack.Template()
	for i := range tpl.Functions {
		fn := &tpl.Functions[i]
		for _, ev := range fn.SQSEvents {
			if !ev.Enabled {
				continue
			}
			q, ok := stack.Queues[ev.Queue]
			if !ok {
				return nil, fmt.Errorf("pollers: %s.%s: queue %s is not provisioned", fn.LogicalID, ev.Name, ev.Queue)
			}
			h, err := lookup(fn.Folder)
			if err != nil {
				return nil, fmt.Errorf("pollers: handler of %s: %w", fn.LogicalID, err)
			}
			sh, ok := h.(SQSHandler)
			if !ok {
				return nil, fmt.Errorf("pollers: %s (%s) has an SQS event but its handler is a %T", fn.LogicalID, fn.Folder, h)
			}
			src := &source{fn: fn, event: ev, queue: q, handler: sh, visibility: 30 * time.Second}
			if tq, ok := tpl.Queue(ev.Queue); ok {
				src.visibility = tq.VisibilityTimeout
			}
			p.sources = append(p.sources, src)
		}
	}
	for _, id := range opts.OwnVisibility {
		if !slices.ContainsFunc(p.sources, func(s *source) bool { return s.fn.LogicalID == id }) {
			return nil, fmt.Errorf("pollers: OwnVisibility names %s, which is no function with an SQS event", id)
		}
	}
	return p, nil
}

// addStreams prepares a stream source for every enabled DynamoDB event.
func (p *Pollers) addStreams(lookup Lookup) error {
	tpl := p.stack.Template()
	for i := range tpl.Functions {
		fn := &tpl.Functions[i]
		for _, ev := range fn.DynamoDBEvents {
			if !ev.Enabled {
				continue
			}
			where := fn.LogicalID + "." + ev.Name
			if p.stack.StreamARN == "" {
				return fmt.Errorf("pollers: %s: the stream of table %s is not provisioned", where, ev.Stream)
			}
			s := &streamSource{
				p: p, fn: fn, event: ev, key: where, streamARN: p.stack.StreamARN, log: p.log,
				wake: make(chan struct{}, 1), workers: map[string]*shardWorker{},
			}
			if ev.OnFailure != "" {
				q, ok := p.stack.Queues[ev.OnFailure]
				if !ok {
					return fmt.Errorf("pollers: %s: on-failure queue %s is not provisioned", where, ev.OnFailure)
				}
				s.onFailure = &q
			}
			h, err := lookup(fn.Folder)
			if err != nil {
				return fmt.Errorf("pollers: handler of %s: %w", fn.LogicalID, err)
			}
			if s.handler, _ = h.(DynamoDBHandler); s.handler == nil {
				return fmt.Errorf("pollers: %s (%s) has a DynamoDB event but its handler is a %T", fn.LogicalID, fn.Folder, h)
			}
			p.streams = append(p.streams, s)
		}
	}
	var err error
	if p.checkpoints, err = loadCheckpoints(p.opts.CheckpointFile); err != nil {
		return fmt.Errorf("pollers: %w", err)
	}
	return nil
}

// tick advances the pollers' clock.
func (p *Pollers) tick() int64 { return p.clock.Add(1) }

// Start runs the receive loops and the stream readers until Stop is called or ctx ends.
// Starting twice is a no-op.
func (p *Pollers) Start(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		return
	}
	p.batches, p.stopBatches = context.WithCancel(context.WithoutCancel(ctx))
	ctx, p.cancel = context.WithCancel(ctx)
	for _, s := range p.sources {
		for range p.receivers(s) {
			p.wg.Go(func() { p.loop(ctx, s) })
		}
	}
	for _, s := range p.streams {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			s.run(ctx, &p.wg)
		}()
	}
	for _, s := range p.schedules {
		p.wg.Go(func() { p.runSchedule(ctx, s) })
	}
}

// standardReceivers is the fewest receive loops of a standard queue: Lambda polls one with
// several concurrent invocations, so a slow batch (a webhook receiver hanging until the
// attempt's timeout) holds up no message behind it.
const standardReceivers = 4

// fifoReceivers bounds the receive loops of a FIFO queue whose event has a
// ScalingConfig.MaximumConcurrency: Lambda invokes up to that many batches at once, each
// of another message group (SQS hands out a group's messages one batch at a time), so the
// groups (a channel's pushes, an account's adjustments) proceed in parallel; the local
// stack runs as many receivers as the template's ceiling, at most this many on a laptop
// (8 were too few for the adjustments of 4 accounts: docs/scale.md).
const fifoReceivers = 16

// receivers is how many receive loops the source runs.
func (p *Pollers) receivers(s *source) int {
	if strings.HasSuffix(s.queue.Name, ".fifo") {
		return max(p.opts.Concurrency, min(s.event.MaxConcurrency, fifoReceivers))
	}
	return max(p.opts.Concurrency, standardReceivers)
}

// Stop ends the receive loops and the stream readers and waits for the batches in progress
// to finish, an SQS batch at most StopGrace (a stream batch waiting for a retry is not retried; it is read again on the next
// start).
func (p *Pollers) Stop() {
	p.mu.Lock()
	cancel := p.cancel
	p.mu.Unlock()
	if cancel == nil {
		return
	}
	cancel()
	done := make(chan struct{})
	go func() {
		p.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(StopGrace):
		p.log.Warn("stop: batches still under way are cut", "grace", StopGrace.String())
		p.stopBatches()
		<-done
	}
	p.stopBatches()
}

// StopGrace bounds how long Stop lets the SQS batches under way finish (a connector poll can
// wait minutes for its channel): after it their invocations' contexts end, the function
// returns, and their messages come back after the receive's visibility (docs/local-stack.md).
const StopGrace = 5 * time.Second

// receiveTimeout is how long a receive may take beyond its long-poll wait before it is
// abandoned and tried again. A FIFO queue without a MaximumConcurrency has one receive
// loop, so a request the emulator never answers would otherwise stop its function for the
// rest of the run: a CI run once saw
// the connector queue's consumer stop for minutes with messages waiting and nothing logged.
// It outlasts an emulator's pause (the fault tests' are up to 20 s): a paused emulator
// answers what it holds when it resumes, and the messages it gives a receive abandoned
// meanwhile stay hidden for the receive's whole visibility (docs/local-stack.md).
const receiveTimeout = 30 * time.Second

// receiveMargin is how much longer than its function's timeout a received batch is kept
// invisible (receiveVisibility): the invocation ends by its timeout, and the delete or
// visibility change that follows takes a few seconds at most.
const receiveMargin = 15 * time.Second

// receiveVisibility is how long the messages of one receive stay invisible: the queue's
// visibility timeout, but no longer than the function's timeout and receiveMargin. Every
// batch is done with (deleted, or its failed messages' visibility set) within that, so the
// function sees what Lambda would show it. What changes is a receive whose answer never
// arrives (the emulator took the messages, the connection broke on the way back): its
// messages come back after this instead of after the queue's timeout, which is six minutes
// for the connector queue. A CI run saw exactly that stop one batch of ten pushes.
func receiveVisibility(s *source) time.Duration {
	timeout := s.fn.Timeout
	if timeout <= 0 {
		timeout = 3 * time.Second // Lambda's default, as invoke applies it
	}
	return min(s.visibility, timeout+receiveMargin)
}

func (p *Pollers) loop(ctx context.Context, s *source) {
	backoff := 50 * time.Millisecond
	visibility := receiveVisibility(s)
	for ctx.Err() == nil {
		rctx, cancel := context.WithTimeout(ctx, p.opts.WaitTime+receiveTimeout)
		received := time.Now()
		out, err := p.stack.SQS.ReceiveMessage(rctx, &sqs.ReceiveMessageInput{
			QueueUrl:                    aws.String(s.queue.URL),
			MaxNumberOfMessages:         int32(min(max(s.event.BatchSize, 1), 10)),
			WaitTimeSeconds:             int32(p.opts.WaitTime / time.Second),
			VisibilityTimeout:           int32(visibility / time.Second),
			MessageSystemAttributeNames: []sqstypes.MessageSystemAttributeName{sqstypes.MessageSystemAttributeNameAll},
			MessageAttributeNames:       []string{"All"},
		}, noRetry)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			p.log.Warn("sqs receive failed; messages the emulator took for it come back after the receive's visibility",
				"queue", s.queue.Name, "visibility", visibility.String(), "error", err.Error())
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, 2*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		if len(out.Messages) == 0 {
			continue
		}
		p.inflight.Add(int64(len(out.Messages)))
		// The batch finishes even when Stop is called meanwhile, as a running Lambda would,
		// within StopGrace.
		p.process(p.batches, s, out.Messages, received)
		p.inflight.Add(-int64(len(out.Messages)))
	}
}

// noRetry makes one attempt of a ReceiveMessage. The SDK retries a receive whose
// connection broke after the request was sent, and the emulator may have taken messages
// for it by then: a silent retry would hide that (receiveVisibility); a failed receive is
// logged.
func noRetry(o *sqs.Options) { o.RetryMaxAttempts = 1 }

// process invokes the handler with one batch received at received, then deletes the
// messages that succeeded and sets the visibility of those that failed.
func (p *Pollers) process(ctx context.Context, s *source, msgs []sqstypes.Message, received time.Time) {
	event := events.SQSEvent{Records: make([]events.SQSMessage, 0, len(msgs))}
	byID := make(map[string]sqstypes.Message, len(msgs))
	for _, m := range msgs {
		event.Records = append(event.Records, p.record(s, m))
		byID[aws.ToString(m.MessageId)] = m
	}
	failed := map[string]bool{}
	resp, err := invoke(ctx, s.fn, p.stack.Region, p.stack.AccountID, s.handler, event)
	switch {
	case err != nil:
		p.log.Error("sqs handler failed; the batch returns after the visibility timeout",
			"function", s.fn.LogicalID, "queue", s.queue.Name, "messages", len(msgs), "error", err.Error())
		for id := range byID {
			failed[id] = true
		}
	case s.event.ReportBatchItemFailures:
		for _, f := range resp.BatchItemFailures {
			if _, ok := byID[f.ItemIdentifier]; !ok {
				// Lambda treats an unknown or empty identifier as a failure of the whole batch.
				p.log.Error("sqs handler reported an unknown itemIdentifier; the whole batch fails",
					"function", s.fn.LogicalID, "item", f.ItemIdentifier)
				for id := range byID {
					failed[id] = true
				}
				break
			}
			failed[f.ItemIdentifier] = true
		}
		if len(failed) > 0 {
			p.log.Warn("sqs partial batch failure", "function", s.fn.LogicalID, "failed", len(failed), "messages", len(msgs))
		}
	}
	var done, retry []sqstypes.Message
	for _, m := range msgs {
		if failed[aws.ToString(m.MessageId)] {
			retry = append(retry, m)
		} else {
			done = append(done, m)
		}
	}
	if err := p.deleteMessages(ctx, s, done); err != nil {
		p.log.Error("sqs delete failed", "queue", s.queue.Name, "error", err.Error())
	}
	if len(retry) > 0 && (err != nil || !slices.Contains(p.opts.OwnVisibility, s.fn.LogicalID)) {
		// Lambda leaves a failed message invisible for the queue's visibility timeout from
		// its receive, which asked for less (receiveVisibility); tests may want it sooner.
		wait := s.visibility - time.Since(received)
		if p.opts.FailedVisibility > 0 {
			wait = p.opts.FailedVisibility
		}
		if wait >= time.Second {
			if err := p.changeVisibility(ctx, s, retry, wait); err != nil {
				p.log.Warn("sqs change visibility failed", "queue", s.queue.Name, "error", err.Error())
			}
		}
	}
	p.log.Debug("sqs batch", "function", s.fn.LogicalID, "messages", len(msgs), "failed", len(retry))
}

func (p *Pollers) record(s *source, m sqstypes.Message) events.SQSMessage {
	rec := events.SQSMessage{
		MessageId:              aws.ToString(m.MessageId),
		ReceiptHandle:          aws.ToString(m.ReceiptHandle),
		Body:                   aws.ToString(m.Body),
		Md5OfBody:              aws.ToString(m.MD5OfBody),
		Md5OfMessageAttributes: aws.ToString(m.MD5OfMessageAttributes),
		Attributes:             map[string]string{},
		MessageAttributes:      map[string]events.SQSMessageAttribute{},
		EventSourceARN:         s.queue.ARN,
		EventSource:            "aws:sqs",
		AWSRegion:              p.stack.Region,
	}
	for k, v := range m.Attributes {
		rec.Attributes[k] = v
	}
	for k, v := range m.MessageAttributes {
		rec.MessageAttributes[k] = events.SQSMessageAttribute{
			StringValue:      v.StringValue,
			BinaryValue:      v.BinaryValue,
			StringListValues: v.StringListValues,
			BinaryListValues: v.BinaryListValues,
			DataType:         aws.ToString(v.DataType),
		}
	}
	return rec
}

func (p *Pollers) deleteMessages(ctx context.Context, s *source, msgs []sqstypes.Message) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var errs []error
	for start := 0; start < len(msgs); start += 10 {
		var entries []sqstypes.DeleteMessageBatchRequestEntry
		for i, m := range msgs[start:min(start+10, len(msgs))] {
			entries = append(entries, sqstypes.DeleteMessageBatchRequestEntry{Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle})
		}
		out, err := p.stack.SQS.DeleteMessageBatch(ctx, &sqs.DeleteMessageBatchInput{QueueUrl: aws.String(s.queue.URL), Entries: entries})
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, f := range out.Failed {
			errs = append(errs, fmt.Errorf("delete entry %s: %s", aws.ToString(f.Id), aws.ToString(f.Message)))
		}
	}
	return errors.Join(errs...)
}

func (p *Pollers) changeVisibility(ctx context.Context, s *source, msgs []sqstypes.Message, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var errs []error
	for start := 0; start < len(msgs); start += 10 {
		var entries []sqstypes.ChangeMessageVisibilityBatchRequestEntry
		for i, m := range msgs[start:min(start+10, len(msgs))] {
			entries = append(entries, sqstypes.ChangeMessageVisibilityBatchRequestEntry{
				Id: aws.String(strconv.Itoa(i)), ReceiptHandle: m.ReceiptHandle, VisibilityTimeout: int32(d / time.Second),
			})
		}
		if _, err := p.stack.SQS.ChangeMessageVisibilityBatch(ctx, &sqs.ChangeMessageVisibilityBatchInput{
			QueueUrl: aws.String(s.queue.URL), Entries: entries,
		}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// streamChainDepth is how many stream records in a row one change can lead to, each
// written by a stream function reading the one before (a product change, its event, the
// event's delivery): Drain reads the streams that many times over.
const streamChainDepth = 3

// Drain waits until the pollers are done with everything written before it was called, or
// ctx ends: every polled queue is empty (no visible, in-flight or delayed message) with no
// batch being processed, and every stream source has read its shards past the moment the
// queues were empty and delivered every record up to there. As one side may feed the other
// (a stream handler sends messages whose consumer writes the table, which makes new stream
// records), it repeats until the queues are still empty after the streams caught up. Writes
// made meanwhile by others (parallel tests) do not hold it up: the streams only have to reach
// the point each pass started from, and records their filters drop are no work. The pollers must be running. A failed message
// counts until it is deleted or moved to its dead-letter queue; a failed stream batch until
// it is delivered or sent to its on-failure destination.
func (p *Pollers) Drain(ctx context.Context) error {
	names := []sqstypes.QueueAttributeName{
		sqstypes.QueueAttributeNameApproximateNumberOfMessages,
		sqstypes.QueueAttributeNameApproximateNumberOfMessagesNotVisible,
		sqstypes.QueueAttributeNameApproximateNumberOfMessagesDelayed,
	}
	for {
		if err := p.drainQueues(ctx, names); err != nil {
			return err
		}
		// Every message handled so far wrote before start: the streams must be read past
		// it, and what the stream functions sent since handled in turn. A stream function's
		// own writes are stream records too (an event's record makes its deliveries, whose
		// records send them): a pass per link of such a chain reads them as well.
		for range streamChainDepth {
			start := p.tick()
			for _, s := range p.streams {
				s.wakeUp()
			}
			if err := p.drainStreams(ctx, start); err != nil {
				return err
			}
		}
		pending, err := p.pending(ctx, names)
		if err != nil {
			return err
		}
		if pending == 0 && p.inflight.Load() == 0 {
			return nil
		}
	}
}

// drainQueues waits until the polled queues are empty and no batch is being processed.
func (p *Pollers) drainQueues(ctx context.Context, names []sqstypes.QueueAttributeName) error {
	for {
		pending, err := p.pending(ctx, names)
		if err != nil {
			return err
		}
		if pending == 0 && p.inflight.Load() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("drain: %d messages still pending: %w", pending, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// drainStreams waits until every stream source has been quiet since the tick start.
func (p *Pollers) drainStreams(ctx context.Context, start int64) error {
	for {
		busy := ""
		for _, s := range p.streams {
			if ok, what := s.quietSince(start); !ok {
				busy = what
				break
			}
		}
		if busy == "" {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("drain: stream source %s is still busy: %w", busy, ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func (p *Pollers) pending(ctx context.Context, names []sqstypes.QueueAttributeName) (int, error) {
	total := 0
	seen := map[string]bool{}
	for _, s := range p.sources {
		if seen[s.queue.URL] {
			continue
		}
		seen[s.queue.URL] = true
		out, err := p.stack.SQS.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(s.queue.URL), AttributeNames: names})
		if err != nil {
			return 0, fmt.Errorf("drain: attributes of %s: %w", s.queue.Name, err)
		}
		for _, n := range names {
			v, _ := strconv.Atoi(out.Attributes[string(n)])
			total += v
		}
	}
	return total, nil
}
