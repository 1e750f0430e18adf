package idempotency

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// kind is the partition of an account's keys: <acct>#IDEM / <key>.
const kind = "IDEM"

// Store keeps the records in the table; it implements api.Replays.
type Store struct {
	Table store.Table
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

func (s Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func recordKey(account, key string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kind), key)
}

// Claim implements api.Replays: one conditional put takes a key that is
// free (never used, expired, or a claim whose lease ran out); when another
// request holds it, its record is read (strongly consistent) and returned.
func (s Store) Claim(ctx context.Context, account, key, fingerprint, requestID string) (*api.Replay, error) {
	now := s.now()
	r := record{Fingerprint: fingerprint, State: statePending, RequestID: requestID,
		LeaseUntil: now.Add(lease).UnixMilli(), TTL: now.Add(retention).Unix()}
	item, err := store.Marshal(r, recordKey(account, key))
	if err != nil {
		return nil, err
	}
	err = s.Table.Commit(ctx, []store.Write{store.Put(item,
		"attribute_not_exists(PK) OR #ttl < :sec OR (#state = :pending AND lease_until < :ms)",
		map[string]types.AttributeValue{
			":sec": store.N(now.Unix()), ":pending": store.S(statePending), ":ms": store.N(now.UnixMilli()),
		})})
	if err == nil {
		return nil, nil
	}
	if !store.ConditionFailed(err) && store.CancellationReasons(err) == nil {
		return nil, fmt.Errorf("claim an idempotency key: %w", err)
	}
	var prior record
	found, err := s.Table.Get(ctx, recordKey(account, key), &prior, true)
	if err != nil {
		return nil, fmt.Errorf("read an idempotency key: %w", err)
	}
	if !found { // released in between: the caller may try again
		return &api.Replay{Fingerprint: fingerprint, Pending: true}, nil
	}
	return prior.replay()
}

// Save implements api.Replays: the claim of requestID becomes the answer
// to replay.
func (s Store) Save(ctx context.Context, account, key, requestID string, rep api.Replay) error {
	headers, err := json.Marshal(rep.Headers)
	if err != nil {
		return err
	}
	r := record{Fingerprint: rep.Fingerprint, State: stateDone, RequestID: requestID, Status: rep.Status,
		Headers: string(headers), Body: rep.Body, TTL: s.now().Add(retention).Unix()}
	item, err := store.Marshal(r, recordKey(account, key))
	if err != nil {
		return err
	}
	if err := s.Table.Commit(ctx, []store.Write{store.Put(item, "rid = :rid",
		map[string]types.AttributeValue{":rid": store.S(requestID)})}); err != nil {
		return fmt.Errorf("save the answer of an idempotency key: %w", err)
	}
	return nil
}

// Release implements api.Replays: the claim of requestID is dropped, so a
// retry runs the request again.
func (s Store) Release(ctx context.Context, account, key, requestID string) error {
	if err := s.Table.Commit(ctx, []store.Write{store.Delete(recordKey(account, key), "rid = :rid",
		map[string]types.AttributeValue{":rid": store.S(requestID)})}); err != nil {
		return fmt.Errorf("release an idempotency key: %w", err)
	}
	return nil
}
