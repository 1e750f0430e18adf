package store

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// MaxBatchGet is the most keys one BatchGetItem call takes.
const MaxBatchGet = 100

// BatchGet reads the items with the given keys from the table: one
// BatchGetItem per 100 keys, plus a retry of whatever DynamoDB leaves
// unprocessed. Missing items are absent from the result, whose order is not
// the keys' order. consistent asks for strongly consistent reads.
func (t Table) BatchGet(ctx context.Context, keys []map[string]types.AttributeValue, consistent bool) ([]map[string]types.AttributeValue, error) {
	var out []map[string]types.AttributeValue
	for start := 0; start < len(keys); start += MaxBatchGet {
		req := map[string]types.KeysAndAttributes{t.Name: {
			Keys: keys[start:min(start+MaxBatchGet, len(keys))], ConsistentRead: &consistent,
		}}
		for len(req) > 0 {
			res, err := t.DB.BatchGetItem(ctx, &dynamodb.BatchGetItemInput{RequestItems: req})
			if err != nil {
				return nil, fmt.Errorf("batch get: %w", err)
			}
			out = append(out, res.Responses[t.Name]...)
			req = res.UnprocessedKeys
		}
	}
	return out, nil
}
