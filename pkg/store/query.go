package store

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// QueryAll runs a Query on the table's partition pk and follows
// LastEvaluatedKey until every item is read. For the small per-account
// collections (channels, warehouses) this is one call.
func (t Table) QueryAll(ctx context.Context, pk string) ([]map[string]types.AttributeValue, error) {
	in := &dynamodb.QueryInput{
		TableName:                 t.TableName(),
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": S(pk)},
	}
	var items []map[string]types.AttributeValue
	for {
		out, err := t.DB.Query(ctx, in)
		if err != nil {
			return nil, fmt.Errorf("query %s: %w", pk, err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			return items, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// Project reads every item of the partition pk with a strongly consistent
// Query that returns only the attributes attrs (the read costs what the
// whole items do): the whole-partition read of a tool that must look at an
// attribute, such as a recount (SetCounts).
func (t Table) Project(ctx context.Context, pk string, attrs ...string) ([]Image, error) {
	proj := "#" + strings.Join(attrs, ", #")
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("#PK = :pk"),
		ProjectionExpression:      aws.String(proj),
		ExpressionAttributeNames:  Names("#PK", proj),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": S(pk)},
		ConsistentRead:            aws.Bool(true),
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", pk, err)
	}
	out := make([]Image, len(items))
	for i, it := range items {
		out[i] = ImageOf(it)
	}
	return out, nil
}
