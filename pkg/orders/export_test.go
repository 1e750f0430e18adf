package orders

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// SeedItems returns the items the import of o (a new order: Seq set, its
// lines and allocations filled) stores, built by the functions the import
// uses: the order (statuses derived, version 1), its idempotency key and
// its index items. The tests write them in bulk to seed large accounts.
func SeedItems(account string, o *Order) ([]map[string]types.AttributeValue, error) {
	o.derive()
	o.Version = 1
	return seedItems(account, o)
}

// SeedCounts adds to c the counts the import of o (after SeedItems) adds
// to, so a seeded account's lists have their sizes.
func SeedCounts(c store.Counts, o *Order) {
	for name, d := range countDiff(nil, o) {
		c.Add(name, d)
	}
}

// SeqCounterItem is the account's order sequence counter holding seq.
func SeqCounterItem(account string, seq int64) map[string]types.AttributeValue {
	return seqCounterItem(account, seq)
}

// ForgetCursors deletes the account's page starts (store.Table.Page's
// cursor items, <acct>#CUR), so the next listing of any page is a fresh
// one (a jump, for a page past the first).
func ForgetCursors(t store.Table, account string) error {
	ctx := context.Background()
	items, err := t.QueryAll(ctx, store.PK(account, "CUR"))
	if err != nil {
		return err
	}
	for _, it := range items {
		key := map[string]types.AttributeValue{store.AttrPK: it[store.AttrPK], store.AttrSK: it[store.AttrSK]}
		if err := t.Commit(ctx, []store.Write{store.Delete(key, "", nil)}); err != nil {
			return err
		}
	}
	return nil
}

// Allocate plans o's unassigned quantities as an import does (o's statuses
// derived first): the stock of the SKUs o needs and the warehouses to plan
// it over. Nothing is written.
func Allocate(ctx context.Context, s Service, account string, o *Order) error {
	o.derive()
	return s.allocate(ctx, account, o, "")
}
