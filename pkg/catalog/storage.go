package catalog

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/logctx"
	"github.com/multisell/multisell/pkg/store"
)

// maxAttempts bounds how often a write that lost a race with another
// request is re-read and retried before the caller gets a 409.
const maxAttempts = 6

// maxTransactionBytes keeps a transaction below DynamoDB's 4 MB.
const maxTransactionBytes = 3_900_000

// getRecord reads the product item sku with a strongly consistent read; nil
// if there is none.
func getRecord(ctx context.Context, t store.Table, account, sku string) (*record, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: productKey(account, sku), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return nil, fmt.Errorf("get product: %w", err)
	}
	if out.Item == nil {
		return nil, nil
	}
	recs, err := decodeRecords([]map[string]types.AttributeValue{out.Item})
	if err != nil {
		return nil, err
	}
	return recs[0], nil
}

// nextID returns the account's next product id from its counter item.
func nextID(ctx context.Context, t store.Table, account string) (int64, error) {
	out, err := t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                 t.TableName(),
		Key:                       store.Key(store.PK(account, kindSequence), "product_id"),
		UpdateExpression:          aws.String("ADD #next :one"),
		ExpressionAttributeNames:  store.Names("#next"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":one": &types.AttributeValueMemberN{Value: "1"}},
		ReturnValues:              types.ReturnValueUpdatedNew,
	})
	if err != nil {
		return 0, fmt.Errorf("next product id: %w", err)
	}
	n, ok := out.Attributes["next"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("next product id: no counter returned")
	}
	id, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("next product id: %w", err)
	}
	return id, nil
}

// nextModified is the modified_at of a write at now to a record last
// modified at prev: now, but always at least a second after prev, so that
// modified_at changes on every write even within one second.
func nextModified(prev string, now time.Time) string {
	now = now.UTC().Truncate(time.Second)
	if p, err := time.Parse(time.RFC3339, prev); err == nil && !now.After(p) {
		now = p.Add(time.Second)
	}
	return isotime.Format(now)
}

// touch prepares r for a write at now: its version goes up by one (a new
// record gets version 1) and its modified_at moves on.
func (r *record) touch(now time.Time) {
	r.Version++
	r.ModifiedAt = nextModified(r.ModifiedAt, now)
}

// change is one optimistic write of a product item: the record's new state
// (nil deletes it) and the version it was read at (0: it must not exist).
type change struct {
	sku  string
	next *record
	read int64
}

// put is the change that writes r, touched once since it was read.
func put(r *record) change { return change{sku: r.SKU, next: r, read: r.Version - 1} }

// del is the change that deletes r.
func del(r *record) change { return change{sku: r.SKU, read: r.Version} }

// condition is the write's condition on the version read: the item must
// not exist (read 0) or must still have that version.
func (c change) condition() (string, map[string]string, map[string]types.AttributeValue) {
	if c.read == 0 {
		return "attribute_not_exists(#PK)", store.Names("#PK"), nil
	}
	return "#ver = :ver", store.Names("#ver"),
		map[string]types.AttributeValue{":ver": &types.AttributeValueMemberN{Value: strconv.FormatInt(c.read, 10)}}
}

// commit writes the changes all or nothing, each conditioned on the version
// it was read at: one PutItem or DeleteItem, or one TransactWriteItems. A
// lost race surfaces as an error for which raced is true.
func commit(ctx context.Context, t store.Table, account string, changes []change) error {
	writes := make([]types.TransactWriteItem, len(changes))
	size := 0
	for i, c := range changes {
		cond, names, values := c.condition()
		if c.next == nil {
			writes[i].Delete = &types.Delete{TableName: t.TableName(), Key: productKey(account, c.sku),
				ConditionExpression: aws.String(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: values}
			continue
		}
		c.next.setKeys(account)
		item, err := c.next.item()
		if err != nil {
			return err
		}
		size += c.next.size()
		writes[i].Put = &types.Put{TableName: t.TableName(), Item: item,
			ConditionExpression: aws.String(cond), ExpressionAttributeNames: names, ExpressionAttributeValues: values}
	}
	if size > maxTransactionBytes {
		return errs.Invalid("this change writes %d bytes of products, more than one transaction holds (%d): change fewer children at once", size, maxTransactionBytes)
	}
	var err error
	switch w := writes[0]; {
	case len(writes) > 1:
		_, err = t.DB.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: writes})
	case w.Put != nil:
		_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: w.Put.TableName, Item: w.Put.Item,
			ConditionExpression: w.Put.ConditionExpression, ExpressionAttributeNames: w.Put.ExpressionAttributeNames,
			ExpressionAttributeValues: w.Put.ExpressionAttributeValues})
	default:
		_, err = t.DB.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: w.Delete.TableName, Key: w.Delete.Key,
			ConditionExpression: w.Delete.ConditionExpression, ExpressionAttributeNames: w.Delete.ExpressionAttributeNames,
			ExpressionAttributeValues: w.Delete.ExpressionAttributeValues})
	}
	if err != nil {
		return fmt.Errorf("write %d products: %w", len(writes), err)
	}
	return nil
}

// raced reports whether err is a write that lost a race: a condition on a
// version it read failed, or another transaction held one of its items.
func raced(err error) bool {
	if store.ConditionFailed(err) {
		return true
	}
	for _, r := range store.CancellationReasons(err) {
		if r == "ConditionalCheckFailed" || r == "TransactionConflict" {
			return true
		}
	}
	return false
}

// retry runs attempt (which reads, validates and commits) until it does not
// lose a race, at most maxAttempts times, pausing briefly between tries;
// then the caller gets a 409.
func retry[T any](ctx context.Context, attempt func() (T, error)) (T, error) {
	for i := 1; ; i++ {
		v, err := attempt()
		if !raced(err) {
			return v, err
		}
		if i == maxAttempts {
			return v, errs.Conflict("The product was changed by another request at the same time; retry")
		}
		logctx.From(ctx).Info("catalog write raced, retrying", "attempt", i)
		select {
		case <-ctx.Done():
			return v, ctx.Err()
		case <-time.After(time.Duration(5+rand.IntN(20*i)) * time.Millisecond):
		}
	}
}
