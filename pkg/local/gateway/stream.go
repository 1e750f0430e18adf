package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/google/uuid"

	"github.com/multisell/multisell/pkg/local/template"
)

const (
	// streamRetention is how long DynamoDB keeps a stream record; older records are gone on
	// AWS, so they are never delivered, and a record retried that long is given up.
	streamRetention = 24 * time.Hour
	// maxPayloadBytes is Lambda's synchronous invocation payload limit, which also ends a batch.
	maxPayloadBytes = 6 << 20
	// describeInterval is how often a stream is described to find new shards.
	describeInterval = time.Second
)

// streamSource plays one DynamoDB event source mapping: it describes the stream and starts a
// worker per shard, a child shard once its parent has been read to its end; each worker reads
// its shard in order and invokes the function with one batch at a time.
type streamSource struct {
	p         *Pollers
	fn        *template.Function
	event     template.DynamoDBEvent
	key       string // the checkpoint key
	streamARN string
	handler   DynamoDBHandler
	onFailure *QueueInfo // nil without a destination
	log       *slog.Logger

	wake chan struct{}

	mu      sync.Mutex
	workers map[string]*shardWorker
	// described is the clock tick at which the last DescribeStream call started that left no
	// shard waiting to be started.
	described int64
}

// shardWorker reads one shard.
type shardWorker struct {
	s  *streamSource
	id string
	// done is the sequence number of the last record done with (the checkpoint).
	done string

	mu    sync.Mutex
	ended bool
	// quiet is the clock tick at which the last read started that found nothing new, with
	// nothing buffered or in flight; 0 while the worker has work.
	quiet int64
}

// run describes the stream until ctx ends, starting a worker for each shard that is ready.
func (s *streamSource) run(ctx context.Context, wg *sync.WaitGroup) {
	first := true
	backoff := s.p.opts.StreamPollInterval
	for ctx.Err() == nil {
		tick := s.p.tick()
		shards, err := s.describe(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			s.log.Warn("stream describe failed", "source", s.key, "stream", s.streamARN, "error", err.Error())
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(backoff*2, 5*time.Second)
			continue
		}
		backoff = s.p.opts.StreamPollInterval
		if s.startReady(ctx, wg, shards, first) {
			s.mu.Lock()
			s.described = tick
			s.mu.Unlock()
		}
		first = false
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-time.After(describeInterval):
		}
	}
}

// startReady starts a worker for every shard not started yet whose parent has ended; it
// reports whether no shard is left waiting. On the first description, the shards get the
// event's StartingPosition (a shard that already has a child is skipped under LATEST);
// shards found later are read from their start, as Lambda reads a new child shard.
func (s *streamSource) startReady(ctx context.Context, wg *sync.WaitGroup, shards []streamtypes.Shard, first bool) bool {
	known, hasChild := map[string]bool{}, map[string]bool{}
	for _, sh := range shards {
		known[aws.ToString(sh.ShardId)] = true
		hasChild[aws.ToString(sh.ParentShardId)] = true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// Shards may be listed before their parents: go over them until nothing changes.
	for progress := true; progress; {
		progress = false
		for _, sh := range shards {
			id := aws.ToString(sh.ShardId)
			if _, started := s.workers[id]; started {
				continue
			}
			cp, hasCheckpoint := s.p.checkpoints.get(s.key, s.streamARN, id)
			if !cp.Ended && first && !hasCheckpoint && s.event.StartingPosition == "LATEST" && hasChild[id] {
				// A closed shard is behind the tip of the stream.
				cp.Ended = true
				if err := s.p.checkpoints.set(s.key, s.streamARN, id, cp); err != nil {
					s.log.Error("stream checkpoint not saved", "source", s.key, "shard", id, "error", err.Error())
				}
			}
			if cp.Ended {
				s.workers[id] = &shardWorker{s: s, id: id, ended: true}
				progress = true
				continue
			}
			if parent := aws.ToString(sh.ParentShardId); parent != "" && known[parent] {
				if pw := s.workers[parent]; pw == nil || !pw.isEnded() {
					continue
				}
			}
			w := &shardWorker{s: s, id: id, done: cp.SequenceNumber}
			s.workers[id] = w
			progress = true
			position := streamtypes.ShardIteratorTypeTrimHorizon
			if first {
				position = streamtypes.ShardIteratorType(s.event.StartingPosition)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.run(ctx, position)
			}()
		}
	}
	for _, sh := range shards {
		if _, started := s.workers[aws.ToString(sh.ShardId)]; !started {
			return false
		}
	}
	return true
}

func (s *streamSource) describe(ctx context.Context) ([]streamtypes.Shard, error) {
	var (
		shards []streamtypes.Shard
		start  *string
	)
	for {
		out, err := s.p.stack.DynamoDBStreams.DescribeStream(ctx, &dynamodbstreams.DescribeStreamInput{
			StreamArn: aws.String(s.streamARN), ExclusiveStartShardId: start,
		})
		if err != nil {
			return nil, err
		}
		if out.StreamDescription == nil {
			return nil, errors.New("DescribeStream returned no description")
		}
		shards = append(shards, out.StreamDescription.Shards...)
		start = out.StreamDescription.LastEvaluatedShardId
		if start == nil {
			return shards, nil
		}
	}
}

// quietSince reports whether the source has nothing to do: a description started after tick
// left no shard waiting, and every worker has ended or found nothing new in a read started
// after tick. It names what is busy otherwise.
func (s *streamSource) quietSince(tick int64) (bool, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.described <= tick {
		return false, s.key + " (describing its stream)"
	}
	for id, w := range s.workers {
		if !w.quietSince(tick) {
			return false, s.key + " shard " + id
		}
	}
	return true, ""
}

func (s *streamSource) wakeUp() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (w *shardWorker) isEnded() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ended
}

func (w *shardWorker) quietSince(tick int64) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ended || w.quiet > tick
}

func (w *shardWorker) setQuiet(tick int64) {
	w.mu.Lock()
	w.quiet = tick
	w.mu.Unlock()
}

// readMark is a read that reached the shard's end: the tick it started at and the last
// record read so far. Once every record up to seq is delivered, everything written to the
// shard before tick is done with.
type readMark struct {
	tick int64
	seq  string
}

// settle moves the worker's quiet tick to the latest of marks whose records are all
// delivered (buffer holds what is not) and returns the marks still waiting.
func (w *shardWorker) settle(marks []readMark, buffer []*streamRecord) []readMark {
	done := int64(-1)
	for len(marks) > 0 && (len(buffer) == 0 || seqBefore(marks[0].seq, buffer[0].seq)) {
		done, marks = marks[0].tick, marks[1:]
	}
	if done >= 0 {
		w.mu.Lock()
		w.quiet = max(w.quiet, done)
		w.mu.Unlock()
	}
	return marks
}

// seqBefore reports whether sequence number a comes before b (both decimal numbers; ""
// comes first).
func seqBefore(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// end marks the shard as read to its end and lets the source start its children.
func (w *shardWorker) end() {
	if err := w.s.p.checkpoints.set(w.s.key, w.s.streamARN, w.id, shardCheckpoint{SequenceNumber: w.done, Ended: true}); err != nil {
		w.s.log.Error("stream checkpoint not saved", "source", w.s.key, "shard", w.id, "error", err.Error())
	}
	w.mu.Lock()
	w.ended = true
	w.mu.Unlock()
	w.s.log.Debug("stream shard ended", "source", w.s.key, "shard", w.id)
	w.s.wakeUp()
}

// checkpoint records that every record up to seq is done with.
func (w *shardWorker) checkpoint(seq string) {
	if seq == "" || seq == w.done {
		return
	}
	w.done = seq
	if err := w.s.p.checkpoints.set(w.s.key, w.s.streamARN, w.id, shardCheckpoint{SequenceNumber: seq}); err != nil {
		w.s.log.Error("stream checkpoint not saved", "source", w.s.key, "shard", w.id, "error", err.Error())
	}
}

// iterator returns a shard iterator after the last record read (or the checkpoint), else at
// position. It retries until it gets one or ctx ends; a shard that no longer exists has
// ended (nil, true).
func (w *shardWorker) iterator(ctx context.Context, after string, position streamtypes.ShardIteratorType) (iter *string, gone bool) {
	s := w.s
	backoff := s.p.opts.StreamPollInterval
	for ctx.Err() == nil {
		in := &dynamodbstreams.GetShardIteratorInput{StreamArn: aws.String(s.streamARN), ShardId: aws.String(w.id), ShardIteratorType: position}
		if after != "" {
			in.ShardIteratorType = streamtypes.ShardIteratorTypeAfterSequenceNumber
			in.SequenceNumber = aws.String(after)
		}
		out, err := s.p.stack.DynamoDBStreams.GetShardIterator(ctx, in)
		var (
			notFound *streamtypes.ResourceNotFoundException
			trimmed  *streamtypes.TrimmedDataAccessException
		)
		switch {
		case err == nil:
			return out.ShardIterator, false
		case ctx.Err() != nil:
			return nil, false
		case errors.As(err, &notFound):
			s.log.Warn("stream shard is gone; it counts as read to its end", "source", s.key, "shard", w.id, "error", err.Error())
			return nil, true
		case errors.As(err, &trimmed) && after != "":
			s.log.Warn("stream records after the checkpoint were trimmed; reading the shard from its oldest record",
				"source", s.key, "shard", w.id, "after", after)
			after, position = "", streamtypes.ShardIteratorTypeTrimHorizon
			continue
		}
		s.log.Warn("stream shard iterator failed", "source", s.key, "shard", w.id, "error", err.Error())
		if !sleep(ctx, backoff) {
			return nil, false
		}
		backoff = min(backoff*2, 5*time.Second)
	}
	return nil, false
}

// run reads the shard until it ends or ctx ends, delivering batches of the records that pass
// the filters; the checkpoint moves past the records filtered out.
func (w *shardWorker) run(ctx context.Context, position streamtypes.ShardIteratorType) {
	s, ev, opts := w.s, w.s.event, w.s.p.opts
	if opts.StreamBatchingWindow > 0 {
		ev.MaxBatchingWindow = min(ev.MaxBatchingWindow, opts.StreamBatchingWindow)
	}
	iter, gone := w.iterator(ctx, w.done, position)
	if gone {
		w.end()
		return
	}
	if iter == nil {
		return
	}
	var (
		buffer   []*streamRecord
		firstAt  time.Time // when the buffer's first record was read
		lastRead string
		marks    []readMark
	)
	limit := int32(min(ev.BatchSize, 1000))
	backoff := opts.StreamPollInterval
	for ctx.Err() == nil {
		tick := s.p.tick()
		out, err := s.p.stack.DynamoDBStreams.GetRecords(ctx, &dynamodbstreams.GetRecordsInput{ShardIterator: iter, Limit: aws.Int32(limit)})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			w.setQuiet(0)
			s.log.Warn("stream read failed; getting a new iterator", "source", s.key, "shard", w.id, "error", err.Error())
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(backoff*2, 5*time.Second)
			after := lastRead
			if after == "" {
				after = w.done
			}
			if iter, gone = w.iterator(ctx, after, position); gone {
				w.end()
				return
			} else if iter == nil {
				return
			}
			continue
		}
		backoff = opts.StreamPollInterval
		old := 0
		for _, r := range out.Records {
			rec, err := lambdaRecord(r, s.p.stack.Region, s.streamARN)
			if err != nil {
				s.log.Error("stream record skipped", "source", s.key, "shard", w.id, "error", err.Error())
				continue
			}
			lastRead = rec.seq
			if time.Since(rec.created) > streamRetention {
				old++
				continue
			}
			match, err := rec.matches(ev.Filters)
			if err != nil {
				s.log.Error("stream record not filtered; delivering it", "source", s.key, "sequence", rec.seq, "error", err.Error())
				match = true
			}
			if !match {
				continue
			}
			if len(buffer) == 0 {
				firstAt = time.Now()
			}
			buffer = append(buffer, rec)
		}
		if old > 0 {
			s.log.Info("stream records older than the stream's 24 h retention skipped (DynamoDB would have trimmed them)",
				"source", s.key, "shard", w.id, "records", old)
		}
		if len(out.Records) < int(limit) {
			// Read to the shard's end as it was at tick. Records the filters dropped are no
			// work, so a table busy with other items does not hold Drain up.
			marks = append(marks, readMark{tick: tick, seq: lastRead})
		}
		iter = out.NextShardIterator
		ended := iter == nil
		delivered := false
		for len(buffer) > 0 && (ended || len(buffer) >= ev.BatchSize || time.Since(firstAt) >= ev.MaxBatchingWindow || batchLen(buffer, len(buffer)) < len(buffer)) {
			w.setQuiet(0)
			n := batchLen(buffer, ev.BatchSize)
			if !w.deliver(ctx, buffer[:n]) {
				return
			}
			buffer, delivered = buffer[n:], true
			firstAt = time.Now()
		}
		if len(buffer) == 0 {
			w.checkpoint(lastRead)
		}
		if ended && len(buffer) == 0 {
			w.end()
			return
		}
		marks = w.settle(marks, buffer)
		if len(out.Records) < int(limit) && !delivered {
			wait := opts.StreamPollInterval
			if len(buffer) > 0 {
				wait = min(wait, max(time.Until(firstAt.Add(ev.MaxBatchingWindow)), 0))
			}
			if !sleep(ctx, wait) {
				return
			}
		}
	}
}

// batchLen is how many of the first records make a batch: at most max, within the
// invocation payload limit, and at least one.
func batchLen(recs []*streamRecord, max int) int {
	size := 0
	for i, r := range recs {
		if i == max || (i > 0 && size+r.size > maxPayloadBytes) {
			return i
		}
		size += r.size
	}
	return len(recs)
}

// piece is a part of a batch being retried: its records, the retries it has used and the
// invocations that included its records.
type piece struct {
	recs    []*streamRecord
	retries int
	invokes int
}

// deliver plays Lambda's error handling for one batch until every record is done with:
// delivered, or sent to the on-failure destination. It returns false when ctx ended first;
// the records not done with are then read again on the next start.
//
// A failed invocation (an error, a panic, a timeout, or a reported item failure) is handled
// as Lambda does: with ReportBatchItemFailures the records before the lowest reported
// sequence number are done and only the rest is retried; with BisectBatchOnFunctionError a
// failed batch of more than one record is split in two halves retried in order, which does
// not use a retry (nor does retrying the rest of a partly successful batch); otherwise the
// retry counts against MaximumRetryAttempts. When the retries are used up, or a record is
// older than MaximumRecordAge (or the stream's 24 h retention), the records go to the
// on-failure destination and the shard moves on.
func (w *shardWorker) deliver(ctx context.Context, batch []*streamRecord) bool {
	s, ev := w.s, w.s.event
	maxAge := ev.MaximumRecordAge
	if maxAge == 0 || maxAge > streamRetention {
		maxAge = streamRetention
	}
	queue := []piece{{recs: batch}}
	for len(queue) > 0 {
		pc := &queue[0]
		if n := expired(pc.recs, maxAge, time.Now()); n > 0 {
			if !w.fail(ctx, pc.recs[:n], "RecordAgeExceeded", pc.invokes, uuid.NewString(), false) {
				return false
			}
			if pc.recs = pc.recs[n:]; len(pc.recs) == 0 {
				queue = queue[1:]
				continue
			}
		}
		requestID := uuid.NewString()
		failedAt, unhandled := w.invoke(ctx, requestID, pc.recs)
		pc.invokes++
		if failedAt < 0 {
			w.checkpoint(pc.recs[len(pc.recs)-1].seq)
			queue = queue[1:]
			continue
		}
		if failedAt > 0 {
			w.checkpoint(pc.recs[failedAt-1].seq)
			pc.recs = pc.recs[failedAt:]
			if ev.Bisect {
				s.log.Warn("stream batch partly failed; retrying from the first failed record", "source", s.key,
					"shard", w.id, "sequence", pc.recs[0].seq, "records", len(pc.recs))
				if !sleep(ctx, s.p.opts.StreamRetryDelay) {
					return false
				}
				continue
			}
		}
		if ev.Bisect && len(pc.recs) > 1 {
			half := len(pc.recs) / 2
			first := piece{recs: pc.recs[:half], retries: pc.retries, invokes: pc.invokes}
			second := piece{recs: pc.recs[half:], retries: pc.retries, invokes: pc.invokes}
			queue = append([]piece{first, second}, queue[1:]...)
			s.log.Warn("stream batch failed; bisecting", "source", s.key, "shard", w.id,
				"records", len(first.recs)+len(second.recs), "halves", fmt.Sprintf("%d+%d", len(first.recs), len(second.recs)))
			if !sleep(ctx, s.p.opts.StreamRetryDelay) {
				return false
			}
			continue
		}
		pc.retries++
		if ev.MaximumRetryAttempts >= 0 && pc.retries > ev.MaximumRetryAttempts {
			if !w.fail(ctx, pc.recs, "RetryAttemptsExhausted", pc.invokes, requestID, unhandled) {
				return false
			}
			queue = queue[1:]
			continue
		}
		delay := s.p.opts.StreamRetryDelay << min(pc.retries-1, 5)
		s.log.Warn("stream batch failed; retrying", "source", s.key, "shard", w.id, "sequence", pc.recs[0].seq,
			"records", len(pc.recs), "retry", pc.retries, "delay", delay.String())
		if !sleep(ctx, delay) {
			return false
		}
	}
	return true
}

// expired is how many of the first records are older than maxAge.
func expired(recs []*streamRecord, maxAge time.Duration, now time.Time) int {
	n := 0
	for n < len(recs) && now.Sub(recs[n].created) > maxAge {
		n++
	}
	return n
}

// invoke hands the records to the function. It returns the index of the first record to
// retry (-1 when the batch succeeded), and whether the function itself failed (an error, a
// panic or a timeout, Lambda's "Unhandled" function error).
func (w *shardWorker) invoke(ctx context.Context, requestID string, recs []*streamRecord) (failedAt int, unhandled bool) {
	s := w.s
	event := events.DynamoDBEvent{Records: make([]events.DynamoDBEventRecord, len(recs))}
	index := make(map[string]int, len(recs))
	for i, r := range recs {
		event.Records[i] = r.event
		index[r.seq] = i
	}
	// The batch finishes even when the pollers stop meanwhile, as a running Lambda would.
	resp, err := invokeAs(context.WithoutCancel(ctx), requestID, s.fn, s.p.stack.Region, s.p.stack.AccountID, s.handler, event)
	if err != nil {
		s.log.Error("stream handler failed", "function", s.fn.LogicalID, "source", s.key, "shard", w.id,
			"records", len(recs), "request_id", requestID, "error", err.Error())
		return 0, true
	}
	s.log.Debug("stream batch", "function", s.fn.LogicalID, "shard", w.id, "records", len(recs), "failures", len(resp.BatchItemFailures))
	if !s.event.ReportBatchItemFailures || len(resp.BatchItemFailures) == 0 {
		return -1, false
	}
	failedAt = len(recs)
	for _, f := range resp.BatchItemFailures {
		i, ok := index[f.ItemIdentifier]
		if !ok {
			// Lambda treats an empty or unknown identifier as a failure of the whole batch.
			s.log.Error("stream handler reported an itemIdentifier that is not a sequence number of the batch; the whole batch fails",
				"function", s.fn.LogicalID, "item", f.ItemIdentifier)
			return 0, false
		}
		failedAt = min(failedAt, i)
	}
	return failedAt, false
}

// streamFailure is the invocation record Lambda sends to a stream event source's on-failure
// destination: what failed and where the records are, not the records themselves.
type streamFailure struct {
	RequestContext struct {
		RequestID              string `json:"requestId"`
		FunctionARN            string `json:"functionArn"`
		Condition              string `json:"condition"`
		ApproximateInvokeCount int    `json:"approximateInvokeCount"`
	} `json:"requestContext"`
	ResponseContext struct {
		StatusCode      int     `json:"statusCode"`
		ExecutedVersion string  `json:"executedVersion"`
		FunctionError   *string `json:"functionError"`
	} `json:"responseContext"`
	Version   string `json:"version"`
	Timestamp string `json:"timestamp"`
	BatchInfo struct {
		ShardID                         string `json:"shardId"`
		StartSequenceNumber             string `json:"startSequenceNumber"`
		EndSequenceNumber               string `json:"endSequenceNumber"`
		ApproximateArrivalOfFirstRecord string `json:"approximateArrivalOfFirstRecord"`
		ApproximateArrivalOfLastRecord  string `json:"approximateArrivalOfLastRecord"`
		BatchSize                       int    `json:"batchSize"`
		StreamARN                       string `json:"streamArn"`
	} `json:"DDBStreamBatchInfo"`
}

// fail gives up on records: it sends the invocation record to the on-failure destination
// (retrying until it is sent or ctx ends), or logs it as an error when there is none, then
// moves the checkpoint past the records.
func (w *shardWorker) fail(ctx context.Context, recs []*streamRecord, condition string, invokes int, requestID string, unhandled bool) bool {
	s := w.s
	var f streamFailure
	f.RequestContext.RequestID = requestID
	f.RequestContext.FunctionARN = functionARN(s.p.stack.Region, s.p.stack.AccountID, s.fn)
	f.RequestContext.Condition = condition
	f.RequestContext.ApproximateInvokeCount = invokes
	f.ResponseContext.StatusCode = 200
	f.ResponseContext.ExecutedVersion = "$LATEST"
	if unhandled {
		f.ResponseContext.FunctionError = aws.String("Unhandled")
	}
	f.Version = "1.0"
	f.Timestamp = time.Now().UTC().Format("2006-01-02T15:04:05.000Z")
	first, last := recs[0], recs[len(recs)-1]
	f.BatchInfo.ShardID = w.id
	f.BatchInfo.StartSequenceNumber = first.seq
	f.BatchInfo.EndSequenceNumber = last.seq
	f.BatchInfo.ApproximateArrivalOfFirstRecord = first.created.UTC().Format("2006-01-02T15:04:05Z")
	f.BatchInfo.ApproximateArrivalOfLastRecord = last.created.UTC().Format("2006-01-02T15:04:05Z")
	f.BatchInfo.BatchSize = len(recs)
	f.BatchInfo.StreamARN = s.streamARN
	body, err := json.Marshal(f)
	if err != nil {
		s.log.Error("stream failure record", "error", err.Error())
		return false
	}
	if s.onFailure == nil {
		s.log.Error("stream records given up with no on-failure destination", "function", s.fn.LogicalID, "record", string(body))
		w.checkpoint(last.seq)
		return true
	}
	for {
		_, err := s.p.stack.SQS.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: aws.String(s.onFailure.URL), MessageBody: aws.String(string(body))})
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return false
		}
		s.log.Error("stream on-failure record not sent; retrying", "queue", s.onFailure.Name, "error", err.Error())
		if !sleep(ctx, time.Second) {
			return false
		}
	}
	s.log.Warn("stream records sent to the on-failure destination", "function", s.fn.LogicalID, "queue", s.onFailure.Name,
		"condition", condition, "shard", w.id, "start", first.seq, "end", last.seq, "records", len(recs))
	w.checkpoint(last.seq)
	return true
}

// sleep waits for d or until ctx ends; it reports whether ctx is still alive.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
