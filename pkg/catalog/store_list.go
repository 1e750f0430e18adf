package catalog

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// productsPage reads page p of the account's products in SKU order: one
// Query of the table's partition from where the page starts, and the
// count (store.Table.Page).
func productsPage(ctx context.Context, t store.Table, account string, p paging.Page) ([]*record, int64, *paging.Cursor, error) {
	return pageRecords(ctx, t, store.PageQuery{Account: account, List: "products", Count: &productsCount,
		Input: dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("#PK = :pk"),
			ExpressionAttributeNames:  store.Names("#PK"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(productsPK(account))},
		}}, p)
}

// groupsPage reads page p of the account's variation groups in SKU order:
// one Query of GSI1 from where the page starts, and the count.
func groupsPage(ctx context.Context, t store.Table, account string, p paging.Page) ([]*record, int64, *paging.Cursor, error) {
	return pageRecords(ctx, t, store.PageQuery{Account: account, List: "groups", Count: &groupsCount,
		Input: gsi1Query(store.PK(account, kindGroups))}, p)
}

// pageRecords reads a page of records (by number or cursor), the list's
// total and the next page's cursor.
func pageRecords(ctx context.Context, t store.Table, q store.PageQuery, p paging.Page) ([]*record, int64, *paging.Cursor, error) {
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return nil, 0, nil, err
	}
	recs, err := decodeRecords(page.Items)
	return recs, page.Total, page.Next, err
}

// recordSKU is a record's place in SKU order.
func recordSKU(r *record) string { return r.SKU }

// indexed reads the first n records of the GSI1 partition pk in SKU order
// (one Query while they fit in 1 MB; eventually consistent, as every
// index).
func indexed(ctx context.Context, t store.Table, pk string, n int) ([]*record, error) {
	return queryRecords(ctx, t, gsi1Query(pk), n)
}

// gsi1Query is the Query of the GSI1 partition pk.
func gsi1Query(pk string) dynamodb.QueryInput {
	return dynamodb.QueryInput{
		IndexName:                 aws.String(store.GSI1),
		KeyConditionExpression:    aws.String("#GSI1PK = :pk"),
		ExpressionAttributeNames:  store.Names("#GSI1PK"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
	}
}

// recordsBySKU reads the products of the given SKUs (an eventually
// consistent BatchGetItem), sorted by SKU.
func recordsBySKU(ctx context.Context, t store.Table, account string, skus []string) ([]*record, error) {
	found, err := getRecords(ctx, t, account, skus, eventual)
	if err != nil {
		return nil, err
	}
	out := make([]*record, 0, len(found))
	for _, r := range found {
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

// queryRecords reads the first n records of the query.
func queryRecords(ctx context.Context, t store.Table, in dynamodb.QueryInput, n int) ([]*record, error) {
	items, err := t.QueryUpTo(ctx, in, n)
	if err != nil {
		return nil, err
	}
	return decodeRecords(items)
}

// groupChildren reads the children of the group sku from GSI1, keyed by
// SKU. The index is eventually consistent: a child that joined a moment ago may be missing yet, and one
// that left may still be there.
func groupChildren(ctx context.Context, t store.Table, account, sku string) (map[string]*record, error) {
	recs, err := indexed(ctx, t, childrenPK(account, sku), math.MaxInt)
	if err != nil {
		return nil, err
	}
	return bySKU(recs), nil
}
