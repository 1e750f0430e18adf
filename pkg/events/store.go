package events

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// Item kinds of the feed (docs/data-model.md).
const (
	// kindFeed is the partition of an account's events, by seq.
	kindFeed = "EV"
	// kindCounter holds the account's last seq (SK counterSK, attr seq).
	kindCounter = "EVSEQ"
	counterSK   = "EVENT"
	// kindSource marks the stream records already made into an event (SK
	// the hash of the record's source key: a key with a long SKU in it
	// would not fit a sort key), so a replay makes none.
	kindSource = "EVSRC"
	// kindByType + "#" + type is the partition of an account's events of
	// one type, by seq (attr seq only): the feed filtered by type.
	kindByType = "EVT#"
	attrSeq    = "seq"
)

// Retention of the items, in seconds.
const (
	// retention is how long an event is kept.
	retention = 30 * 24 * 3600
	// sourceRetention is how long a source record's mark is kept: longer
	// than the stream keeps a record (24 hours), so a replay always finds it.
	sourceRetention = 2 * 24 * 3600
)

// seqText is a seq as a sort key: 16 digits, so keys sort by number.
func seqText(seq int64) string { return fmt.Sprintf("%016d", seq) }

// counterKey is the key of the account's seq counter.
func counterKey(account string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindCounter), counterSK)
}

// eventKey is the key of the account's event seq.
func eventKey(account string, seq int64) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindFeed), seqText(seq))
}

// stored is an event item.
type stored struct {
	Seq       int64  `dynamodbav:"seq"`
	ID        string `dynamodbav:"id"`
	Type      string `dynamodbav:"type"`
	CreatedAt string `dynamodbav:"created_at"`
	Data      string `dynamodbav:"data"` // the resource's JSON
	Source    string `dynamodbav:"source"`
	TTL       int64  `dynamodbav:"ttl"`
}

func (s stored) event() Event {
	return Event{Seq: s.Seq, ID: s.ID, Type: s.Type, CreatedAt: s.CreatedAt, Data: json.RawMessage(s.Data)}
}

// lastSeq reads the account's last seq (0 before its first event),
// strongly consistent.
func lastSeq(ctx context.Context, t store.Table, account string) (int64, error) {
	var c struct {
		Seq int64 `dynamodbav:"seq"`
	}
	if _, err := t.Get(ctx, counterKey(account), &c, true); err != nil {
		return 0, fmt.Errorf("read the event counter: %w", err)
	}
	return c.Seq, nil
}

// writesPerEvent is the writes of one event in a commit: its source mark,
// the event and its entry by type.
const writesPerEvent = 3

// eventWrites are the writes of evs, numbered from prev+1, in one
// transaction: the counter moves from prev (which must still be the last
// seq: no other writer numbered meanwhile), each source is marked
// (attribute_not_exists: a replay fails there), each event is put with its
// entry by type.
func eventWrites(account string, prev int64, evs []stored, now int64) ([]store.Write, error) {
	ws := make([]store.Write, 0, 1+writesPerEvent*len(evs))
	counter := counterKey(account)
	counter[attrSeq] = store.N(prev + int64(len(evs)))
	ws = append(ws, store.Put(counter, "attribute_not_exists(seq) OR seq = :prev", map[string]types.AttributeValue{":prev": store.N(prev)}))
	for _, e := range evs {
		mark := store.Key(store.PK(account, kindSource), sourceMark(e.Source))
		mark[attrSeq] = store.N(e.Seq)
		mark[store.AttrTTL] = store.N(now + sourceRetention)
		ws = append(ws, store.Put(mark, "attribute_not_exists(PK)", nil))
		e.TTL = now + retention
		item, err := store.Marshal(e, eventKey(account, e.Seq))
		if err != nil {
			return nil, err
		}
		ws = append(ws, store.Put(item, "", nil))
		byType := store.Key(store.PK(account, kindByType+e.Type), seqText(e.Seq))
		byType[attrSeq] = store.N(e.Seq)
		byType[store.AttrTTL] = store.N(now + retention)
		ws = append(ws, store.Put(byType, "", nil))
	}
	return ws, nil
}

// commitOutcome explains a failed commit of eventWrites: whether the
// counter had moved, and which events' sources were marked already.
func commitOutcome(err error) (counterMoved bool, recorded []int) {
	for i, r := range store.CancellationReasons(err) {
		if r != "ConditionalCheckFailed" {
			continue
		}
		if i == 0 {
			counterMoved = true
		} else if (i-1)%writesPerEvent == 0 {
			recorded = append(recorded, (i-1)/writesPerEvent)
		}
	}
	return counterMoved, recorded
}

// readFeed reads the account's events after seq after, at most limit, of
// type typ when it is set: one strongly consistent Query of the feed, or of
// the type's entries plus one BatchGetItem of their events.
func readFeed(ctx context.Context, t store.Table, account string, q Query) ([]Event, error) {
	pk := store.PK(account, kindFeed)
	if q.Type != "" {
		pk = store.PK(account, kindByType+q.Type)
	}
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND SK > :after"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(pk), ":after": store.S(seqText(q.After)),
		},
		ConsistentRead: aws.Bool(true),
	}, q.Limit)
	if err != nil {
		return nil, fmt.Errorf("read the event feed: %w", err)
	}
	if q.Type != "" {
		keys := make([]map[string]types.AttributeValue, 0, len(items))
		for _, it := range items {
			n, ok := it[attrSeq].(*types.AttributeValueMemberN)
			if !ok {
				return nil, fmt.Errorf("event entry %v has no seq", it[store.AttrSK])
			}
			seq, err := strconv.ParseInt(n.Value, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("event entry seq %q: %w", n.Value, err)
			}
			keys = append(keys, eventKey(account, seq))
		}
		if items, err = t.BatchGet(ctx, keys, true); err != nil {
			return nil, fmt.Errorf("read events by type: %w", err)
		}
	}
	out := make([]Event, 0, len(items))
	for _, it := range items {
		e, err := decode(store.ImageOf(it))
		if err != nil {
			return nil, err
		}
		out = append(out, e.event())
	}
	slices.SortFunc(out, func(a, b Event) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// decode reads an event item (or stream image).
func decode(img store.Image) (stored, error) {
	var s stored
	if err := img.Decode(&s); err != nil {
		return stored{}, fmt.Errorf("decode event: %w", err)
	}
	return s, nil
}

// getEvent reads the account's event seq (strongly consistent); ok is
// false when there is none.
func getEvent(ctx context.Context, t store.Table, account string, seq int64) (Event, bool, error) {
	img, err := t.Item(ctx, eventKey(account, seq), true)
	if err != nil || !img.Exists() {
		return Event{}, false, err
	}
	e, err := decode(img)
	return e.event(), err == nil, err
}

// Published returns the event a stream record of the feed adds: ok for the
// insert of an event item, false for anything else.
func Published(c store.Change) (Event, bool, error) {
	if c.Kind != kindFeed || c.Old.Exists() || !c.New.Exists() {
		return Event{}, false, nil
	}
	s, err := decode(c.New)
	if err != nil {
		return Event{}, false, err
	}
	return s.event(), true, nil
}
