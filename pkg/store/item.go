package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Marshal returns v (a struct with dynamodbav tags) as an item with the
// primary key key.
func Marshal(v any, key map[string]types.AttributeValue) (map[string]types.AttributeValue, error) {
	item, err := attributevalue.MarshalMap(v)
	if err != nil {
		return nil, fmt.Errorf("marshal %T: %w", v, err)
	}
	for k, a := range key {
		item[k] = a
	}
	return item, nil
}

// Get reads the item with the primary key key into v and reports whether
// it exists; consistent asks for a strongly consistent read, which only a
// read-modify-write needs.
func (t Table) Get(ctx context.Context, key map[string]types.AttributeValue, v any, consistent bool) (bool, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: key, ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return false, fmt.Errorf("get %T: %w", v, err)
	}
	if out.Item == nil {
		return false, nil
	}
	if err := attributevalue.UnmarshalMap(out.Item, v); err != nil {
		return false, fmt.Errorf("unmarshal %T: %w", v, err)
	}
	return true, nil
}

// Item reads the item with the primary key key as an Image (absent: the
// zero Image), for items whose attributes are not all plain fields.
func (t Table) Item(ctx context.Context, key map[string]types.AttributeValue, consistent bool) (Image, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: key, ConsistentRead: aws.Bool(consistent),
	})
	if err != nil {
		return Image{}, fmt.Errorf("get item: %w", err)
	}
	return Image{out.Item}, nil
}
