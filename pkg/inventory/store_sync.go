package inventory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// stockReaders is how many SKUs' stock BySKU reads at once.
const stockReaders = 8

// BySKU reads every record of each SKU with strongly consistent reads (one
// Query per SKU, up to stockReaders at once), keyed by SKU: what the
// channel-sync function turns into listing and product quantities.
func (s Service) BySKU(ctx context.Context, account string, skus []string) (map[string][]Record, error) {
	skus = slices.Compact(slices.Sorted(slices.Values(skus)))
	out := make(map[string][]Record, len(skus))
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, stockReaders)
	)
	for _, sku := range skus {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			recs, err := s.stockOf(ctx, account, sku)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, err)
				return
			}
			out[sku] = recs
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// stockOf reads the records of one SKU: one consistent Query.
func (s Service) stockOf(ctx context.Context, account, sku string) ([]Record, error) {
	items, err := s.Table.QueryUpTo(ctx, dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sku)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(pk(account)), ":sku": store.S(store.KeyText(sku) + store.Sep),
		},
		ConsistentRead: aws.Bool(true),
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("read stock of %q: %w", sku, err)
	}
	var recs []Record
	if err := attributevalue.UnmarshalListOfMaps(items, &recs); err != nil {
		return nil, fmt.Errorf("unmarshal stock of %q: %w", sku, err)
	}
	// Exact matches only: a local emulator compares key prefixes without
	// case.
	return slices.DeleteFunc(recs, func(r Record) bool { return r.SKU != sku }), nil
}

// SKUsAt returns the SKUs that have a record at the warehouse (one Query
// of GSI1, keys only): whose quantities archiving it changes.
func (s Service) SKUsAt(ctx context.Context, account, warehouse string) ([]string, error) {
	items, err := s.Table.QueryUpTo(ctx, dynamodb.QueryInput{
		IndexName:              aws.String(store.GSI1),
		KeyConditionExpression: aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(byWarehousePK(account, warehouse)),
		},
		ProjectionExpression: aws.String(attrSKU),
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("read the SKUs at warehouse %s: %w", warehouse, err)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		if s, ok := it[attrSKU].(*types.AttributeValueMemberS); ok {
			out = append(out, s.Value)
		}
	}
	return out, nil
}

// StockChanged decodes a stream record of an inventory record: the SKU,
// when the record's available quantity changed (or the record came or
// went).
func StockChanged(c store.Change) (string, bool) {
	if c.Kind != kindRecord || store.Same(c.Old, c.New, attrAvailable) {
		return "", false
	}
	img := c.New
	if !img.Exists() {
		img = c.Old
	}
	sku := img.Text(attrSKU)
	return sku, sku != ""
}
