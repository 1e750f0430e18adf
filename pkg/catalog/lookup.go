package catalog

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
)

// Service is the catalog domain: every operation on an account's products
// and variation groups.
type Service struct{ Table store.Table }

// Lookup returns the account's products with the given SKUs, keyed by SKU;
// unknown (or invalid) SKUs are absent from the map. It makes one
// BatchGetItem per 100 distinct SKUs and no other reads, so a variation
// group comes with its own fields only: no Variations and nothing inherited
// from its children.
func (s Service) Lookup(ctx context.Context, account string, skus []string) (map[string]Product, error) {
	recs, err := getRecords(ctx, s.Table, account, skus)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Product, len(recs))
	for sku, r := range recs {
		out[sku] = r.product()
	}
	return out, nil
}

// getRecords reads the product items of the given SKUs with strongly
// consistent reads, keyed by SKU. Duplicates and invalid SKUs are skipped.
func getRecords(ctx context.Context, t store.Table, account string, skus []string) (map[string]*record, error) {
	seen := make(map[string]bool, len(skus))
	keys := make([]map[string]types.AttributeValue, 0, len(skus))
	for _, s := range skus {
		if seen[s] || !sku.Valid(s) {
			continue
		}
		seen[s] = true
		keys = append(keys, productKey(account, s))
	}
	items, err := t.BatchGet(ctx, keys, true)
	if err != nil {
		return nil, err
	}
	recs, err := decodeRecords(items)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*record, len(recs))
	for _, r := range recs {
		out[r.SKU] = r
	}
	return out, nil
}
