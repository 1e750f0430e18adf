package store

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Update is an UpdateItem assembled from clauses: SET clauses ("#a = :a"),
// attributes to REMOVE, ADD clauses ("#n :one"), a condition, and the values
// they use. Attribute names are written as placeholders that spell the
// attribute (see Names), so no reserved word ever collides and the names
// map is derived, never written by hand.
type Update struct {
	Set       []string
	Remove    []string
	Add       []string
	Condition string
	Values    map[string]types.AttributeValue
}

// SetValue appends "#attr = :attr" with the value v.
func (u *Update) SetValue(attr string, v types.AttributeValue) {
	u.Set = append(u.Set, "#"+attr+" = :"+attr)
	u.Value(":"+attr, v)
}

// Value sets the value of the placeholder name (":x").
func (u *Update) Value(name string, v types.AttributeValue) {
	if u.Values == nil {
		u.Values = map[string]types.AttributeValue{}
	}
	u.Values[name] = v
}

// Empty reports whether u changes nothing.
func (u Update) Empty() bool { return len(u.Set)+len(u.Remove)+len(u.Add) == 0 }

// Expression is the update expression, "SET ... REMOVE ... ADD ...".
func (u Update) Expression() string {
	var parts []string
	if len(u.Set) > 0 {
		parts = append(parts, "SET "+strings.Join(u.Set, ", "))
	}
	if len(u.Remove) > 0 {
		parts = append(parts, "REMOVE #"+strings.Join(u.Remove, ", #"))
	}
	if len(u.Add) > 0 {
		parts = append(parts, "ADD "+strings.Join(u.Add, ", "))
	}
	return strings.Join(parts, " ")
}

// Input is u as the UpdateItemInput of the item key of t.
func (u Update) Input(t Table, key map[string]types.AttributeValue) *dynamodb.UpdateItemInput {
	expr := u.Expression()
	return &dynamodb.UpdateItemInput{
		TableName:                 t.TableName(),
		Key:                       key,
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       optional(u.Condition),
		ExpressionAttributeNames:  Names(expr, u.Condition),
		ExpressionAttributeValues: nonEmpty(u.Values),
	}
}

// Write is u as one write of a Commit, on the item key.
func (u Update) Write(key map[string]types.AttributeValue) Write {
	expr := u.Expression()
	return Write{tw: types.TransactWriteItem{Update: &types.Update{
		Key:                       key,
		UpdateExpression:          aws.String(expr),
		ConditionExpression:       optional(u.Condition),
		ExpressionAttributeNames:  Names(expr, u.Condition),
		ExpressionAttributeValues: nonEmpty(u.Values),
	}}}
}

// optional is s as an SDK string, nil when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return aws.String(s)
}

// nonEmpty is m, or nil when it has no entry (DynamoDB refuses an empty map).
func nonEmpty[V any](m map[string]V) map[string]V {
	if len(m) == 0 {
		return nil
	}
	return m
}
