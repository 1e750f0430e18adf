// Package ratelimit enforces the per-account request limits (by default 2
// per clock second and 40 per clock minute) with one conditional DynamoDB
// write per request, so the count is exact across any number of concurrent
// Lambdas. The decisions are in docs/decisions.md (Rate limits).
package ratelimit

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// Limiter counts requests in an item per account and clock minute that holds
// the minute's count and one count per second of that minute:
//
//	PK = <account>#RL, SK = <unix minute>, m = minute count, s<0-59> = second counts
//
// One UpdateItem adds 1 to both counters under the condition that neither
// has reached its limit; a refused request therefore counts nothing. The
// item expires through TTL.
type Limiter struct {
	Table store.Table
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Decide is the pure part of a refusal: how long the caller should wait,
// given the counts that refused it.
func Decide(now time.Time, minuteCount, rpm int) (retryAfter int) {
	if minuteCount >= rpm {
		return 60 - now.Second()
	}
	return 1
}

// Allow implements api.Limiter.
func (l Limiter) Allow(ctx context.Context, a api.Account) (bool, int, error) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	rps, rpm := a.RPS, a.RPM
	if rps <= 0 {
		rps = accounts.DefaultRPS
	}
	if rpm <= 0 {
		rpm = accounts.DefaultRPM
	}
	minute := now.Unix() / 60
	sec := "s" + strconv.Itoa(now.Second())
	key := store.Key(store.PK(a.ID, "RL"), strconv.FormatInt(minute, 10))
	_, err := l.Table.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                l.Table.TableName(),
		Key:                      key,
		UpdateExpression:         aws.String("ADD m :one, #s :one SET #ttl = :ttl"),
		ConditionExpression:      aws.String("(attribute_not_exists(m) OR m < :rpm) AND (attribute_not_exists(#s) OR #s < :rps)"),
		ExpressionAttributeNames: map[string]string{"#s": sec, "#ttl": store.AttrTTL},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":one": store.N(1), ":rpm": store.N(int64(rpm)), ":rps": store.N(int64(rps)),
			":ttl": store.N((minute + 2) * 60),
		},
	})
	if err == nil {
		return true, 0, nil
	}
	if !store.ConditionFailed(err) {
		return false, 0, fmt.Errorf("rate limit update: %w", err)
	}
	count, err := l.minuteCount(ctx, key)
	if err != nil {
		return false, 0, err
	}
	return false, Decide(now, count, rpm), nil
}

// minuteCount reads the minute's count after a refusal to tell which limit
// refused it.
func (l Limiter) minuteCount(ctx context.Context, key map[string]types.AttributeValue) (int, error) {
	out, err := l.Table.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: l.Table.TableName(), Key: key, ConsistentRead: aws.Bool(true),
		ProjectionExpression: aws.String("m"),
	})
	if err != nil {
		return 0, fmt.Errorf("rate limit read: %w", err)
	}
	if n, ok := out.Item["m"].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.Atoi(n.Value)
		return v, nil
	}
	return 0, nil
}
