package connectors

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/wire"
)

// Message is one outbox message: its id (the SQS message id), body, and account_id attribute.
type Message struct {
	ID, Body, Account string
}

// Outcome is what became of one outbox message. The zero Outcome (but its ID) is done: the
// push was made, or failed and its failure answered, and the message can be deleted.
type Outcome struct {
	ID string
	// Drop is why the message can never be applied (it is set aside, not retried).
	Drop string
	// RetryAt is set when the channel's limits (or a refused token not yet counted three
	// times) put the push off: the message is received again then, and no result is sent.
	RetryAt time.Time
	// Regroup, set with RetryAt when the put-off is the message's own (a limit the channel
	// holds per listing, QuantityResult.RetryAt), is the message group of its listing: the
	// message waits there, so its channel's lane, and the channel's other pushes in it, need
	// not wait for it (Handlers.Consume).
	Regroup string
	// Err is a failure a retry may cure (the inbox or the table did not answer): the message
	// is received again soon.
	Err error
}

// PushReport is what a Push did: one Outcome per message, in order, and the channels it
// found disconnected.
type PushReport struct {
	Outcomes     []Outcome
	Disconnected []*Disconnected
	// Channels says, per channel of the messages, whether its connector was reached (Err
	// nil) or why not: what the channel's connection status shows.
	Channels []ChannelPush
}

// ChannelPush is how a Push went for one channel: Err is why its connector was not reached
// (its messages' outcomes say what becomes of them), nil when it was.
type ChannelPush struct {
	ChannelRef
	Err error
}

// PushWait is the most the calls of one channel's pushes in one batch of the connector-push
// function wait, all together, for the channel's limits (Service.Push): a channel out of
// budget has the rest of its messages put off (their Outcomes' RetryAt, one time for them
// all: when its bucket has a token again, so they come back together and go in one call)
// instead of holding the consumer, which takes other channels' messages meanwhile. It is
// the second SQS counts a message's visibility in: a token due within it is waited for
// rather than the message hidden for a whole second (docs/connectors.md, "Pushes and
// fairness").
const PushWait = time.Second

// SharedPushWait is PushWait for a channel whose messages share their batch with another
// channel's: the batch ends with its slowest channel, so one channel's wait for its limits
// would hold the other channels' lanes with it. Such a channel waits for a token due within
// this and puts the rest off, so the others' lanes are given back to the queue at once
// (docs/connectors.md, "Pushes and fairness").
const SharedPushWait = 100 * time.Millisecond

// AuthRetry is how long a push the channel refused the token of waits before it is tried again.
const AuthRetry = 30 * time.Second

// group is the messages of one channel in a Push.
type group struct {
	account, channel string
	quantities       []int         // indexes of listing.quantity messages
	trackings        []int         // indexes of shipment.tracking messages
	until            time.Time     // the channel's calls are put off until then
	disconnected     *Disconnected // the channel is disconnected: no more calls
}

// Push applies outbox messages: it groups them per channel and, the channels at once, pushes
// each channel's listing quantities in batches of the connector's QuantityBatch (the newest version of each
// listing) and posts its shipments' tracking, and answers each message with a listing.result
// or shipment.result on the inbox. A throttled push sends no result: its Outcome says when to
// retry. A push the channel fails is answered as failed, which multisell retries. Each call
// waits for the channel's limits up to the runtime's MaxWait; the connector-push function
// waits less (Service.Push, PushWait).
func (r *Runtime) Push(ctx context.Context, msgs []Message) PushReport {
	return r.push(ctx, msgs, 0)
}

// push is Push whose calls of one channel wait for its limits at most wait all together
// (0: each call up to MaxWait).
func (r *Runtime) push(ctx context.Context, msgs []Message, wait time.Duration) PushReport {
	rep := PushReport{Outcomes: make([]Outcome, len(msgs))}
	decoded := make([]any, len(msgs))
	var groups []*group
	byChannel := map[[2]string]*group{}
	for i, m := range msgs {
		rep.Outcomes[i].ID = m.ID
		d, err := decodeOutbox(m.Body, m.Account)
		if err != nil {
			rep.Outcomes[i].Drop = err.Error()
			continue
		}
		decoded[i] = d
		var k [2]string
		switch d := d.(type) {
		case *wire.QuantityMessage:
			k = [2]string{d.AccountID, d.ChannelUUID}
		case *wire.TrackingMessage:
			k = [2]string{d.AccountID, d.ChannelUUID}
		}
		g := byChannel[k]
		if g == nil {
			g = &group{account: k[0], channel: k[1]}
			byChannel[k] = g
			groups = append(groups, g)
		}
		if _, ok := d.(*wire.QuantityMessage); ok {
			g.quantities = append(g.quantities, i)
		} else {
			g.trackings = append(g.trackings, i)
		}
	}
	// The channels are pushed at once: each waits on its own channel only. Their reports
	// share the Outcomes, each setting its own messages'.
	wait = batchWait(wait, len(groups))
	parts := make([]PushReport, len(groups))
	var wg sync.WaitGroup
	for j, g := range groups {
		parts[j].Outcomes = rep.Outcomes
		wg.Go(func() { r.pushChannel(ctx, g, decoded, wait, &parts[j]) })
	}
	wg.Wait()
	for _, p := range parts {
		rep.Disconnected = append(rep.Disconnected, p.Disconnected...)
		rep.Channels = append(rep.Channels, p.Channels...)
	}
	return rep
}

// batchWait is how long the calls of each of a batch's channels wait for its limits
// together, given the most they may (0: each call up to MaxWait, left as it is) and how
// many channels share the batch: SharedPushWait at most when they are several.
func batchWait(wait time.Duration, channels int) time.Duration {
	if wait > 0 && channels > 1 {
		return min(wait, SharedPushWait)
	}
	return wait
}

// pushChannel pushes one channel's messages, its calls waiting for its limits at most wait
// all together (0: each up to MaxWait).
func (r *Runtime) pushChannel(ctx context.Context, g *group, decoded []any, wait time.Duration, rep *PushReport) {
	all := append(append([]int(nil), g.quantities...), g.trackings...)
	ch, err := r.Channels.Channel(ctx, g.account, g.channel)
	if err == nil {
		var s *Session
		if s, err = r.Session(ctx, ch); err == nil {
			if wait > 0 {
				s.waitUntil = r.now().Add(wait)
			}
			r.pushQuantities(ctx, s, g, decoded, rep)
			r.postTrackings(ctx, s, g, decoded, rep)
			err = s.accepted(ctx)
			all = nil
		}
	}
	rep.Channels = append(rep.Channels, ChannelPush{ChannelRef: ChannelRef{Account: g.account, UUID: g.channel}, Err: err})
	for _, i := range all {
		if errs.KindOf(err) == errs.KindNotFound {
			rep.Outcomes[i].Drop = err.Error()
		} else {
			rep.Outcomes[i].Err = err
		}
	}
}

// pushQuantities pushes a channel's listing quantities in batches.
func (r *Runtime) pushQuantities(ctx context.Context, s *Session, g *group, decoded []any, rep *PushReport) {
	// The newest version of each listing is pushed; its older versions get its result.
	newest := map[string]*wire.QuantityMessage{}
	var skus []string
	for _, i := range g.quantities {
		m := decoded[i].(*wire.QuantityMessage)
		if n, ok := newest[m.ChannelSKU]; !ok {
			skus = append(skus, m.ChannelSKU)
			newest[m.ChannelSKU] = m
		} else if m.Version > n.Version {
			newest[m.ChannelSKU] = m
		}
	}
	size := max(s.spec.QuantityBatch, 1)
	for start := 0; start < len(skus); start += size {
		batch := skus[start:min(start+size, len(skus))]
		in := map[string]bool{}
		pushes := make([]QuantityPush, len(batch))
		for j, sku := range batch {
			m := newest[sku]
			in[sku] = true
			pushes[j] = QuantityPush{ChannelSKU: sku, ListingRef: deref(m.ListingRef), Quantity: m.Quantity, ChannelQuantity: m.ChannelQuantity}
		}
		var idx []int
		var msgs []*wire.QuantityMessage
		for _, i := range g.quantities {
			if m := decoded[i].(*wire.QuantityMessage); in[m.ChannelSKU] {
				idx, msgs = append(idx, i), append(msgs, m)
			}
		}
		var results []QuantityResult
		failure, ok := r.attempt(ctx, s, g, idx, rep, func() (err error) {
			results, err = s.conn.PushQuantities(ctx, s, pushes)
			for j := range results {
				results[j].Error = s.Clean(results[j].Error)
			}
			return err
		})
		if !ok {
			continue
		}
		if failure == nil {
			if idx, msgs = putOff(g, results, idx, msgs, rep); len(msgs) == 0 {
				continue
			}
		}
		answers := listingResults(msgs, results)
		if failure != nil {
			answers = failedListings(msgs, failure)
		}
		answer(ctx, r, g.account, idx, answers, rep)
	}
}

// postTrackings posts a channel's shipments' tracking, one call each.
func (r *Runtime) postTrackings(ctx context.Context, s *Session, g *group, decoded []any, rep *PushReport) {
	for _, i := range g.trackings {
		m := decoded[i].(*wire.TrackingMessage)
		failure, ok := r.attempt(ctx, s, g, []int{i}, rep, func() error {
			return s.conn.PostTracking(ctx, s, trackingOf(m))
		})
		if !ok {
			continue
		}
		res := wire.ShipmentResult{Type: wire.TypeShipmentResult, ChannelUUID: m.ChannelUUID, ShipmentID: m.ShipmentID, OK: failure == nil}
		if failure != nil {
			res.Error = failure.Error()
		}
		answer(ctx, r, g.account, []int{i}, []wire.ShipmentResult{res}, rep)
	}
}

// attempt makes one call for the messages idx of g unless the channel's limits put the
// group off, and judges its error: ok is false when the messages are put off (their
// Outcomes say until when), else failure is what to answer them with (nil: the call went
// through). A refused token counts toward the channel's disconnection; until it disconnects
// the push is put off by AuthRetry, as it is when the channel named its access token stale
// (*Forbidden with Token); a *Forbidden operation is the push's failure.
func (r *Runtime) attempt(ctx context.Context, s *Session, g *group, idx []int, rep *PushReport, call func() error) (failure error, ok bool) {
	if g.disconnected != nil {
		return g.disconnected, true
	}
	if g.until.IsZero() {
		err := call()
		if err == nil {
			return nil, true
		}
		var th *Throttled
		if errors.As(err, &th) {
			g.until = th.RetryAt
		} else {
			err = s.Refused(ctx, err)
			var d *Disconnected
			var ae *AuthError
			var fb *Forbidden
			switch {
			case errors.As(err, &d):
				g.disconnected = d
				rep.Disconnected = append(rep.Disconnected, d)
				return d, true
			case errors.As(err, &ae), errors.As(err, &fb) && fb.Token:
				g.until = r.now().Add(AuthRetry)
			default:
				return err, true
			}
		}
	}
	for _, i := range idx {
		rep.Outcomes[i].RetryAt = g.until
	}
	return nil, false
}

// answer sends the results of the messages idx to the inbox; a send that fails fails them.
func answer[R any](ctx context.Context, r *Runtime, account string, idx []int, results []R, rep *PushReport) {
	bodies := make([]json.RawMessage, len(results))
	for j, res := range results {
		b, err := json.Marshal(res)
		if err != nil {
			panic(err) // plain structs of strings and numbers
		}
		bodies[j] = b
	}
	if err := r.Inbox.SendResults(ctx, account, bodies); err != nil {
		for _, i := range idx {
			rep.Outcomes[i].Err = cmp.Or(rep.Outcomes[i].Err, fmt.Errorf("send results to the inbox: %w", err))
		}
	}
}

// putOff sets aside the quantity messages of the listings the connector put off (a result
// with RetryAt): their Outcomes say when to try again, in their listing's message group, and
// they get no result. It returns the indexes and messages of the others.
func putOff(g *group, results []QuantityResult, idx []int, msgs []*wire.QuantityMessage, rep *PushReport) ([]int, []*wire.QuantityMessage) {
	later := map[string]time.Time{}
	for _, r := range results {
		if !r.RetryAt.IsZero() {
			later[r.ChannelSKU] = r.RetryAt
		}
	}
	if len(later) == 0 {
		return idx, msgs
	}
	var keepIdx []int
	var keep []*wire.QuantityMessage
	for j, m := range msgs {
		if at, ok := later[m.ChannelSKU]; ok {
			rep.Outcomes[idx[j]].RetryAt = at
			rep.Outcomes[idx[j]].Regroup = queue.Group("listing", g.account, g.channel, m.ChannelSKU)
			continue
		}
		keepIdx, keep = append(keepIdx, idx[j]), append(keep, m)
	}
	return keepIdx, keep
}
