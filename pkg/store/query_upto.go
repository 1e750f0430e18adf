package store

import (
	"context"
	"fmt"
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// QueryUpTo runs the Query in (its key condition, index, order and
// consistency as given; TableName is set to the table) and returns its
// first n items, following LastEvaluatedKey until it has n or the query
// ends: a page of a list sorted by the key is one call while the items up to
// its end fit in DynamoDB's 1 MB per call. in is not modified.
func (t Table) QueryUpTo(ctx context.Context, in dynamodb.QueryInput, n int) ([]map[string]types.AttributeValue, error) {
	in.TableName = t.TableName()
	var items []map[string]types.AttributeValue
	for len(items) < n {
		in.Limit = aws.Int32(int32(min(n-len(items), math.MaxInt32)))
		out, err := t.DB.Query(ctx, &in)
		if err != nil {
			return nil, fmt.Errorf("query: %w", err)
		}
		items = append(items, out.Items...)
		if len(out.LastEvaluatedKey) == 0 {
			break
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return items, nil
}
