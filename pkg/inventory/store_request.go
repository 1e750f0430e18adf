package inventory

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
)

// An accepted adjustment is recorded before PUT or PATCH answers: its
// status item (<acct>#ADJ, request id) is written with status queued, the
// adjustment as queued (attribute adjustment) and GSI1 keys that put it in
// the queued-requests index, one of requestShards partitions
// (ADJQ#<shard>, request id), so the sweep finds what is still queued with
// a Query. Once applied or failed the item is rewritten without them and
// leaves the index (docs/inventory.md, "Accepted means recorded").
const (
	attrStatus     = "status"
	attrReason     = "reason"
	attrAdjustment = "adjustment"
	attrStarted    = "started_at"
	attrSends      = "sends"

	requestShards = 8
)

// queuedPK is the GSI1 partition of the queued requests of shard n.
func queuedPK(n int) string { return "ADJQ#" + strconv.Itoa(n) }

// shardOf is the queued-requests shard of an account: all of an account's
// requests are in one, so the sweep sends them in order.
func shardOf(account string) int {
	h := fnv.New32a()
	h.Write([]byte(account))
	return int(h.Sum32() % requestShards)
}

// putRequest records the accepted adjustment adj as queued at now.
func putRequest(ctx context.Context, t store.Table, adj Adjustment, now time.Time) error {
	body, err := queue.Encode(adj)
	if err != nil {
		return fmt.Errorf("adjustment %s: %w", adj.RequestID, err)
	}
	st := Status{RequestID: adj.RequestID, Status: StatusQueued, Items: []Result{}}
	item, err := store.Marshal(st, store.Key(statusPK(adj.Account), adj.RequestID))
	if err != nil {
		return fmt.Errorf("adjustment %s: %w", adj.RequestID, err)
	}
	item[attrAdjustment] = store.S(body)
	item["accepted_at"] = store.S(isotime.Format(now))
	item[store.AttrGSI1PK] = store.S(queuedPK(shardOf(adj.Account)))
	item[store.AttrGSI1SK] = store.S(adj.RequestID)
	item[store.AttrTTL] = store.N(now.Add(statusRetention).Unix())
	if err := t.Commit(ctx, []store.Write{store.Put(item, "attribute_not_exists(#PK)", nil)}); err != nil {
		return fmt.Errorf("record adjustment %s: %w", adj.RequestID, err)
	}
	return nil
}

// abandonRequest makes sure the request id is never applied: it writes the
// request as failed with the reason, unless it is recorded already and no
// longer queued. It follows a putRequest that timed out: that write may
// still land, and then finds this one and does nothing (its condition), or
// lands first and is overwritten here.
func abandonRequest(ctx context.Context, t store.Table, account, id, reason string, now time.Time) error {
	st := Status{RequestID: id, Status: StatusFailed, Reason: reason, Items: []Result{}}
	item, err := store.Marshal(st, store.Key(statusPK(account), id))
	if err != nil {
		return fmt.Errorf("adjustment %s: %w", id, err)
	}
	item[store.AttrTTL] = store.N(now.Add(statusRetention).Unix())
	err = t.Commit(ctx, []store.Write{store.Put(item, "attribute_not_exists(#PK) OR #status = :queued",
		map[string]types.AttributeValue{":queued": store.S(StatusQueued)})})
	if err != nil && !store.ConditionFailed(err) {
		return fmt.Errorf("abandon adjustment %s: %w", id, err)
	}
	return nil
}

// failRequest marks the queued request failed with the reason, on a
// condition: unstarted only (the request's answer gives it up when the
// queue refused it), or any still queued (the consumer's rejection). It
// reports false when the condition does not hold.
func failRequest(ctx context.Context, t store.Table, account, id, reason string, unstartedOnly bool) (bool, error) {
	u := store.Update{
		Remove:    []string{attrAdjustment, store.AttrGSI1PK, store.AttrGSI1SK},
		Condition: "#status = :queued",
		Values:    map[string]types.AttributeValue{":queued": store.S(StatusQueued)},
	}
	u.SetValue(attrStatus, store.S(StatusFailed))
	u.SetValue(attrReason, store.S(reason))
	if unstartedOnly {
		u.Condition += " AND attribute_not_exists(#" + attrStarted + ")"
	}
	return updateIf(ctx, t, account, id, u, "fail")
}

// updateIf makes the conditional update u of the request's status item and
// reports whether its condition held; what names the update in errors.
func updateIf(ctx context.Context, t store.Table, account, id string, u store.Update, what string) (bool, error) {
	_, err := t.DB.UpdateItem(ctx, u.Input(t, store.Key(statusPK(account), id)))
	switch {
	case store.ConditionFailed(err):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("%s adjustment %s: %w", what, id, err)
	}
	return true, nil
}

// claim marks the request started before its items are applied, so the
// answer of its PUT can no longer give it up, and returns what is stored of
// it when it is no longer queued (applied: its results; failed: its
// reason). recorded is false for a message without a status item (sent
// before requests were recorded, or by a test).
func claim(ctx context.Context, t store.Table, account, id string, now time.Time) (st Status, done, recorded bool, err error) {
	u := store.Update{
		Set:       []string{"#" + attrStarted + " = if_not_exists(#" + attrStarted + ", :now)"},
		Condition: "attribute_exists(#PK) AND #status = :queued",
		Values:    map[string]types.AttributeValue{":now": store.S(isotime.Format(now)), ":queued": store.S(StatusQueued)},
	}
	in := u.Input(t, store.Key(statusPK(account), id))
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	_, err = t.DB.UpdateItem(ctx, in)
	var ccf *types.ConditionalCheckFailedException
	switch {
	case errors.As(err, &ccf) && len(ccf.Item) == 0:
		return st, false, false, nil
	case errors.As(err, &ccf):
		if err := attributevalue.UnmarshalMap(ccf.Item, &st); err != nil {
			return st, false, true, fmt.Errorf("unmarshal adjustment %s: %w", id, err)
		}
		return st, true, true, nil
	case err != nil:
		return st, false, false, fmt.Errorf("claim adjustment %s: %w", id, err)
	}
	return st, false, true, nil
}

// queuedRequest is a queued request as the queued-requests index holds it.
type queuedRequest struct {
	RequestID  string `dynamodbav:"request_id"`
	Adjustment string `dynamodbav:"adjustment"`
	Sends      int    `dynamodbav:"sends"`
}

// queuedBefore returns the requests of shard n still queued that were
// accepted before the time: one Query of GSI1 (request ids begin with
// their time, so the range is a sort key range), in the order accepted.
func queuedBefore(ctx context.Context, t store.Table, n int, before time.Time) ([]queuedRequest, error) {
	in := dynamodb.QueryInput{
		IndexName:                aws.String("GSI1"),
		KeyConditionExpression:   aws.String("#GSI1PK = :pk AND #GSI1SK < :before"),
		ExpressionAttributeNames: store.Names("#GSI1PK", "#GSI1SK"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(queuedPK(n)), ":before": store.S(idPrefix(before)),
		},
	}
	items, err := t.QueryUpTo(ctx, in, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("query queued adjustments: %w", err)
	}
	var out []queuedRequest
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal queued adjustments: %w", err)
	}
	return out, nil
}

// countSend counts one more send of a queued request; it reports false when
// the request is no longer queued.
func countSend(ctx context.Context, t store.Table, account, id string) (bool, error) {
	u := store.Update{
		Add:       []string{"#" + attrSends + " :one"},
		Condition: "#status = :queued",
		Values:    map[string]types.AttributeValue{":one": store.N(1), ":queued": store.S(StatusQueued)},
	}
	return updateIf(ctx, t, account, id, u, "count a send of")
}
