package consent

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// A pending authorization is one item, <acct>#CONSENT / the SHA-256 of its state's secret
// part (the state itself is stored nowhere): what the callback needs, its expiry (Unix
// seconds, also the item's TTL) and, once the callback spent it, used. The stream filters of
// template.yaml leave the partition out.
const (
	kindConsent = "CONSENT"
	attrUsed    = "used"
	attrExpires = "expires"
)

// pending is a pending authorization as stored.
type pending struct {
	Connector string            `dynamodbav:"connector"`
	Name      string            `dynamodbav:"name"`
	ReturnURL string            `dynamodbav:"return_url,omitempty"`
	Fields    map[string]string `dynamodbav:"fields,omitempty"`
	Verifier  string            `dynamodbav:"verifier"`
	Expires   int64             `dynamodbav:"expires"`
	TTL       int64             `dynamodbav:"ttl"`
}

// key is the key of the account's pending authorization of the state's secret part.
func key(account, secret string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindConsent), secretDigest(secret))
}

// put stores a new pending authorization (a state's digest is never stored twice).
func put(ctx context.Context, t store.Table, account, secret string, p pending) error {
	item, err := store.Marshal(p, key(account, secret))
	if err != nil {
		return err
	}
	_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: t.TableName(), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(" + store.AttrPK + ")")})
	if err != nil {
		return fmt.Errorf("store the authorization: %w", err)
	}
	return nil
}

// spend marks the pending authorization used, in one conditional write that only an unused
// and unexpired one at now passes, and returns it; false when there is none such (unknown,
// another account's, used or expired), with nothing written.
func spend(ctx context.Context, t store.Table, account, secret string, now time.Time) (pending, bool, error) {
	out, err := t.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: t.TableName(), Key: key(account, secret),
		UpdateExpression:         aws.String("SET #u = :u"),
		ConditionExpression:      aws.String("attribute_exists(#pk) AND attribute_not_exists(#u) AND #e > :now"),
		ExpressionAttributeNames: map[string]string{"#u": attrUsed, "#pk": store.AttrPK, "#e": attrExpires},
		ExpressionAttributeValues: map[string]types.AttributeValue{":u": store.N(now.Unix()),
			":now": store.N(now.Unix())},
		ReturnValues: types.ReturnValueAllNew})
	if store.ConditionFailed(err) {
		return pending{}, false, nil
	}
	if err != nil {
		return pending{}, false, fmt.Errorf("spend the authorization: %w", err)
	}
	var p pending
	if err := attributevalue.UnmarshalMap(out.Attributes, &p); err != nil {
		return pending{}, false, fmt.Errorf("read the authorization: %w", err)
	}
	return p, true, nil
}
