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
//	PK = <account>#RL, SK = <unix minute>, m = minute count, s<0-59> = second counts,
//	sv = the account's current secret version
//
// One UpdateItem adds 1 to both counters under the condition that neither
// has reached its limit and that the request's secret version (from the
// authorizer's context) is the item's; a refused request therefore counts
// nothing. The item expires through TTL.
type Limiter struct {
	Table store.Table
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// window is one of the two windows' counts after a request.
type window struct {
	limit, count, reset int
}

// Quota is the pure part of a decision: the quota a request leaves, given
// the counts of its second and minute after it (or, refused, the counts
// that refused it). The window with fewer requests remaining is the one
// reported, the minute on a tie (its wait is the longer); a refused request
// reports the window that refused it, or the minute when both did.
func Quota(now time.Time, allowed bool, secondCount, rps, minuteCount, rpm int) api.Quota {
	sec := window{limit: rps, count: secondCount, reset: 1}
	w := window{limit: rpm, count: minuteCount, reset: 60 - now.Second()}
	switch {
	case !allowed && minuteCount < rpm:
		w = sec
	case allowed && rps-secondCount < rpm-minuteCount:
		w = sec
	}
	return api.Quota{Allowed: allowed, Limit: w.limit, Remaining: max(0, w.limit-w.count), Reset: w.reset}
}

// Allow implements api.Limiter.
func (l Limiter) Allow(ctx context.Context, a api.Account) (api.Quota, error) {
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
	out, err := l.Table.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
		TableName:                l.Table.TableName(),
		Key:                      key,
		UpdateExpression:         aws.String("ADD m :one, #s :one SET #ttl = :ttl, sv = :sv"),
		ConditionExpression:      aws.String("(attribute_not_exists(m) OR m < :rpm) AND (attribute_not_exists(#s) OR #s < :rps) AND (attribute_not_exists(sv) OR sv = :sv)"),
		ExpressionAttributeNames: map[string]string{"#s": sec, "#ttl": store.AttrTTL},
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":one": store.N(1), ":rpm": store.N(int64(rpm)), ":rps": store.N(int64(rps)),
			":ttl": store.N((minute + 2) * 60), ":sv": store.N(int64(a.SecretVersion)),
		},
		ReturnValues: types.ReturnValueUpdatedNew,
	})
	if err == nil {
		return Quota(now, true, count(out.Attributes, sec), rps, count(out.Attributes, "m"), rpm), nil
	}
	if !store.ConditionFailed(err) {
		return api.Quota{}, fmt.Errorf("rate limit update: %w", err)
	}
	counts, err := l.counts(ctx, key, sec)
	if err != nil {
		return api.Quota{}, err
	}
	if count(counts, "sv") != a.SecretVersion {
		return api.Quota{}, api.ErrRevoked
	}
	return Quota(now, false, count(counts, sec), rps, count(counts, "m"), rpm), nil
}

// counts reads the minute's and the second's counts and the secret
// version after a refusal, to tell which condition refused it.
func (l Limiter) counts(ctx context.Context, key map[string]types.AttributeValue, sec string) (map[string]types.AttributeValue, error) {
	out, err := l.Table.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: l.Table.TableName(), Key: key, ConsistentRead: aws.Bool(true),
		ProjectionExpression:     aws.String("m, #s, sv"),
		ExpressionAttributeNames: map[string]string{"#s": sec},
	})
	if err != nil {
		return nil, fmt.Errorf("rate limit read: %w", err)
	}
	return out.Item, nil
}

// count is the number attribute name of item (0 when absent).
func count(item map[string]types.AttributeValue, name string) int {
	if n, ok := item[name].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.Atoi(n.Value)
		return v
	}
	return 0
}

// CacheCover is how long after a revocation the windows stay marked with
// the new secret version: the authorizer cache's TTL (the template's
// ReauthorizeEvery, at most 300 s, which pkg/local/template's tests hold it
// to), plus a minute either side for clocks that differ.
const CacheCover = 5 * time.Minute

// Revoke implements accounts.Revoker: it marks the account's windows of
// every minute from one minute ago to CacheCover and one minute ahead with
// version, so that the next request of an older version fails the counting
// write's condition (answered 401) instead of counting. By the time those
// windows are past, every cached authorization of an older version has
// expired and the authorizer reads the account again. One UpdateItem per
// minute; a window already marked with a newer version is left alone.
func (l Limiter) Revoke(ctx context.Context, account string, version int) error {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	first := now.Add(-time.Minute).Unix() / 60
	last := now.Add(CacheCover+time.Minute).Unix() / 60
	for minute := first; minute <= last; minute++ {
		_, err := l.Table.DB.UpdateItem(ctx, &dynamodb.UpdateItemInput{
			TableName:                l.Table.TableName(),
			Key:                      store.Key(store.PK(account, "RL"), strconv.FormatInt(minute, 10)),
			UpdateExpression:         aws.String("SET sv = :sv, #ttl = :ttl"),
			ConditionExpression:      aws.String("attribute_not_exists(sv) OR sv < :sv"),
			ExpressionAttributeNames: map[string]string{"#ttl": store.AttrTTL},
			ExpressionAttributeValues: map[string]types.AttributeValue{
				":sv": store.N(int64(version)), ":ttl": store.N((minute + 2) * 60),
			},
		})
		if err != nil && !store.ConditionFailed(err) {
			return fmt.Errorf("revoke secret versions before %d: %w", version, err)
		}
	}
	return nil
}
