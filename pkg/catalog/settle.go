package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// CountDue reports the SKU of a product the stream record shows carrying a
// change to the counts not yet settled.
func CountDue(c store.Change) (string, bool) {
	return c.SK, c.Kind == kindProduct && c.New.Has(attrCountDue)
}

// SettleCounts adds the counts due on the products skus to the counts and
// removes them, each in one transaction conditioned on the version read (a
// product read without a due, or gone, is settled already).
func (s Service) SettleCounts(ctx context.Context, account string, skus []string) error {
	for _, sku := range skus {
		_, err := retry(ctx, func() (struct{}, error) {
			r, err := getRecord(ctx, s.Table, account, sku, strong)
			if err != nil || r == nil || r.CountDue == nil {
				return struct{}{}, err
			}
			settle := store.Update{Remove: []string{attrCountDue}, Add: []string{"#ver :one"}, Condition: "#ver = :ver"}
			settle.Value(":one", store.N(1))
			settle.Value(":ver", store.N(r.Version))
			counts := store.Counts{productsCount: r.CountDue.Products, groupsCount: r.CountDue.Groups}
			ws := append([]store.Write{settle.Write(productKey(account, sku))}, counts.Writes(account)...)
			if err := s.Table.Commit(ctx, ws); err != nil {
				return struct{}{}, fmt.Errorf("settle the counts due on %s: %w", sku, err)
			}
			return struct{}{}, nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
