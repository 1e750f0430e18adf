package inventory

import (
	"context"
	"fmt"
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/multisell/multisell/pkg/store"
)

// Recount sets the counts of the inventory lists, every record and each
// warehouse's, to their sizes (docs/operations.md): for an account whose
// records were written before the counts. Each is a Select COUNT of the
// Query GET /inventory reads for it (pageQuery): the records' partition
// (strongly consistent), and for each of the account's warehouses
// (archived ones too) its GSI1 partition. The counts are exact only while
// no record is created; running it again is harmless.
func (s Service) Recount(ctx context.Context, account string) error {
	whs, err := s.Warehouses.List(ctx, account)
	if err != nil {
		return err
	}
	filters := []Filter{{}}
	for _, w := range whs {
		filters = append(filters, Filter{Warehouse: w.UUID})
	}
	want := store.Counts{}
	for _, f := range filters {
		q, _ := f.pageQuery(account)
		q.Input.ConsistentRead = aws.Bool(q.Input.IndexName == nil)
		n, _, err := s.Table.CountQuery(ctx, q.Input, math.MaxInt)
		if err != nil {
			return fmt.Errorf("recount the inventory: %w", err)
		}
		want[*q.Count] = n
	}
	if err := s.Table.SetCounts(ctx, account, want); err != nil {
		return fmt.Errorf("recount the inventory: %w", err)
	}
	return nil
}
