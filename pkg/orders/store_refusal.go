package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"

	"github.com/multisell/multisell/pkg/store"
)

// kindRefusal is the item kind of a refused document (refusal.go): an item
// written once, for the event feed, kept a day.
const kindRefusal = "OFAIL"

// refusalTTL is how long a refusal's item is kept: the event it makes is
// what lasts.
const refusalTTL = 24 * time.Hour

// putRefusal writes r as a new item of the account (a fresh id, so every
// refusal is its own event).
func putRefusal(ctx context.Context, t store.Table, account string, r Refusal, at time.Time) error {
	item, err := attributevalue.MarshalMap(r)
	if err != nil {
		return fmt.Errorf("marshal refusal: %w", err)
	}
	for k, v := range store.Key(store.PK(account, kindRefusal), store.NewID()) {
		item[k] = v
	}
	item[store.AttrTTL] = store.N(at.Add(refusalTTL).Unix())
	if err := t.Commit(ctx, []store.Write{store.Put(item, "", nil)}); err != nil {
		return fmt.Errorf("record the refusal of order %q: %w", r.DisplayRef, err)
	}
	return nil
}
