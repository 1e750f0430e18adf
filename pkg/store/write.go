package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxWrites is the most writes one Commit takes: DynamoDB's limit of items
// in one TransactWriteItems.
const MaxWrites = 100

// Write is one write of an all-or-nothing Commit: a put, an update, a
// delete or a condition check of one item. A domain builds its writes in
// its storage file; a change that spans domains passes them between
// packages as a []Write (a write set), so no SDK type crosses a package's
// API. Conditions and values are written as for Update.
type Write struct{ tw types.TransactWriteItem }

// Put is the write of the whole item, if cond holds ("" for none).
func Put(item map[string]types.AttributeValue, cond string, values map[string]types.AttributeValue) Write {
	return Write{tw: types.TransactWriteItem{Put: &types.Put{
		Item: item, ConditionExpression: optional(cond),
		ExpressionAttributeNames: Names(cond), ExpressionAttributeValues: nonEmpty(values),
	}}}
}

// Delete is the deletion of the item key, if cond holds ("" for none).
func Delete(key map[string]types.AttributeValue, cond string, values map[string]types.AttributeValue) Write {
	return Write{tw: types.TransactWriteItem{Delete: &types.Delete{
		Key: key, ConditionExpression: optional(cond),
		ExpressionAttributeNames: Names(cond), ExpressionAttributeValues: nonEmpty(values),
	}}}
}

// Check is a condition on the item key that the Commit needs to hold,
// without writing it.
func Check(key map[string]types.AttributeValue, cond string, values map[string]types.AttributeValue) Write {
	return Write{tw: types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		Key: key, ConditionExpression: optional(cond),
		ExpressionAttributeNames: Names(cond), ExpressionAttributeValues: nonEmpty(values),
	}}}
}

// Commit applies ws all or nothing. A single put, update or delete is the
// single-item call (half the capacity of a transaction), whose failed
// condition ConditionFailed reports; anything else is one
// TransactWriteItems, whose cancellation CancellationReasons explains write
// by write, in the order of ws.
func (t Table) Commit(ctx context.Context, ws []Write) error {
	switch {
	case len(ws) == 0:
		return nil
	case len(ws) > MaxWrites:
		return fmt.Errorf("commit: %d writes, more than the %d of one transaction", len(ws), MaxWrites)
	case len(ws) == 1 && ws[0].tw.ConditionCheck == nil:
		return t.commitOne(ctx, ws[0].tw)
	}
	items := make([]types.TransactWriteItem, len(ws))
	for i, w := range ws {
		items[i] = w.withTable(t.TableName())
	}
	if _, err := t.DB.TransactWriteItems(ctx, &dynamodb.TransactWriteItemsInput{TransactItems: items}); err != nil {
		return fmt.Errorf("transaction of %d writes: %w", len(ws), err)
	}
	return nil
}

// commitOne makes the single-item call of one write.
func (t Table) commitOne(ctx context.Context, w types.TransactWriteItem) error {
	var err error
	switch {
	case w.Put != nil:
		_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: t.TableName(), Item: w.Put.Item,
			ConditionExpression: w.Put.ConditionExpression, ExpressionAttributeNames: w.Put.ExpressionAttributeNames,
			ExpressionAttributeValues: w.Put.ExpressionAttributeValues})
	case w.Update != nil:
		_, err = t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: t.TableName(), Key: w.Update.Key,
			UpdateExpression: w.Update.UpdateExpression, ConditionExpression: w.Update.ConditionExpression,
			ExpressionAttributeNames: w.Update.ExpressionAttributeNames, ExpressionAttributeValues: w.Update.ExpressionAttributeValues})
	case w.Delete != nil:
		_, err = t.DB.DeleteItem(ctx, &dynamodb.DeleteItemInput{TableName: t.TableName(), Key: w.Delete.Key,
			ConditionExpression: w.Delete.ConditionExpression, ExpressionAttributeNames: w.Delete.ExpressionAttributeNames,
			ExpressionAttributeValues: w.Delete.ExpressionAttributeValues})
	default:
		err = errors.New("empty write")
	}
	if err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}

// withTable is w's transaction item on the table name.
func (w Write) withTable(name *string) types.TransactWriteItem {
	tw := w.tw
	switch {
	case tw.Put != nil:
		p := *tw.Put
		p.TableName, tw.Put = name, &p
	case tw.Update != nil:
		u := *tw.Update
		u.TableName, tw.Update = name, &u
	case tw.Delete != nil:
		d := *tw.Delete
		d.TableName, tw.Delete = name, &d
	case tw.ConditionCheck != nil:
		c := *tw.ConditionCheck
		c.TableName, tw.ConditionCheck = name, &c
	}
	return tw
}
