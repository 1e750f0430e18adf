package catalog

import (
	"context"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// filter selects products: by SKU (nil: all) and by modified_at.
type filter struct {
	skus     []string
	modified isotime.Range
}

// listing is a page of a list, and the number of matches when it was cheap
// to know (-1 otherwise).
type listing[T any] struct {
	items []T
	total int
}

// listProducts returns a page of the account's products in SKU order. By
// SKUs it reads those (BatchGetItem); by modified_at it reads the matches
// from GSI2 (one Query while they fit in 1 MB); otherwise it reads the
// table's first page*limit products (one Query while they fit in 1 MB).
// Groups on the page get their children from what was read, and any others
// in one BatchGetItem.
func listProducts(ctx context.Context, t store.Table, account string, f filter, page paging.Page) (listing[Product], error) {
	var recs []*record
	var err error
	total := -1
	switch {
	case f.skus != nil:
		recs, err = recordsBySKU(ctx, t, account, f.skus)
	case f.modified.Active():
		recs, err = recordsModified(ctx, t, account, f.modified)
	default:
		recs, err = queryRecords(ctx, t, dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("#PK = :pk"),
			ExpressionAttributeNames:  store.Names("#PK"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(productsPK(account))},
			ConsistentRead:            aws.Bool(true),
		}, pageEnd(page))
	}
	if err != nil {
		return listing[Product]{}, err
	}
	known := make(map[string]*record, len(recs))
	for _, r := range recs {
		known[r.SKU] = r
	}
	if f.skus != nil || f.modified.Active() {
		recs = slices.DeleteFunc(recs, func(r *record) bool { return !f.modified.Contains(modifiedAt(r)) })
		slices.SortFunc(recs, func(a, b *record) int { return strings.Compare(a.SKU, b.SKU) })
		total = len(recs)
	}
	items, err := render(ctx, t, account, paging.Slice(recs, page), known)
	return listing[Product]{items: items, total: total}, err
}

// listGroups returns a page of the account's variation groups in SKU
// order: by SKUs it reads those (BatchGetItem), otherwise the first
// page*limit groups from GSI1 (one Query while they fit in 1 MB).
func listGroups(ctx context.Context, t store.Table, account string, skus []string, page paging.Page) (listing[VariationGroup], error) {
	var recs []*record
	var err error
	total := -1
	if skus != nil {
		recs, err = recordsBySKU(ctx, t, account, skus)
		recs = slices.DeleteFunc(recs, func(r *record) bool { return !r.isGroup() })
		total = len(recs)
	} else {
		recs, err = queryRecords(ctx, t, dynamodb.QueryInput{
			IndexName:                 aws.String(store.GSI1),
			KeyConditionExpression:    aws.String("#GSI1PK = :pk"),
			ExpressionAttributeNames:  store.Names("#GSI1PK"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(store.PK(account, kindGroups))},
		}, pageEnd(page))
	}
	if err != nil {
		return listing[VariationGroup]{}, err
	}
	recs = paging.Slice(recs, page)
	out := make([]VariationGroup, len(recs))
	for i, r := range recs {
		out[i] = r.group()
	}
	return listing[VariationGroup]{items: out, total: total}, nil
}

// recordsBySKU reads the products of the given SKUs, sorted by SKU.
func recordsBySKU(ctx context.Context, t store.Table, account string, skus []string) ([]*record, error) {
	bySKU, err := getRecords(ctx, t, account, skus)
	if err != nil {
		return nil, err
	}
	out := make([]*record, 0, len(bySKU))
	for _, r := range bySKU {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b *record) int { return strings.Compare(a.SKU, b.SKU) })
	return out, nil
}

// recordsModified reads every product whose modified_at is within m from
// GSI2 (eventually consistent, as every index).
func recordsModified(ctx context.Context, t store.Table, account string, m isotime.Range) ([]*record, error) {
	if m.Min != nil && m.Max != nil && m.Min.After(*m.Max) {
		return nil, nil
	}
	cond := "#GSI2PK = :pk"
	values := map[string]types.AttributeValue{":pk": store.S(store.PK(account, kindModified))}
	switch {
	case m.Min != nil && m.Max != nil:
		cond += " AND #GSI2SK BETWEEN :min AND :max"
	case m.Min != nil:
		cond += " AND #GSI2SK >= :min"
	default:
		cond += " AND #GSI2SK <= :max"
	}
	if m.Min != nil {
		values[":min"] = store.S(isotime.Format(*m.Min))
	}
	if m.Max != nil {
		values[":max"] = store.S(isotime.Format(*m.Max))
	}
	return queryRecords(ctx, t, dynamodb.QueryInput{
		IndexName: aws.String(store.GSI2), KeyConditionExpression: aws.String(cond),
		ExpressionAttributeNames: store.Names(cond), ExpressionAttributeValues: values,
	}, math.MaxInt)
}

// pageEnd is the number of records up to the end of page.
func pageEnd(page paging.Page) int {
	if page.Number > math.MaxInt/page.Limit {
		return math.MaxInt
	}
	return page.Number * page.Limit
}

// queryRecords reads the first n records of the query.
func queryRecords(ctx context.Context, t store.Table, in dynamodb.QueryInput, n int) ([]*record, error) {
	items, err := t.QueryUpTo(ctx, in, n)
	if err != nil {
		return nil, err
	}
	return decodeRecords(items)
}

// modifiedAt is the record's modified_at as a time.
func modifiedAt(r *record) time.Time {
	m, _ := time.Parse(time.RFC3339, r.ModifiedAt)
	return m
}
