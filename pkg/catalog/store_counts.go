package catalog

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/store"
)

// Counts of the catalog's lists (store.Counts): every product (groups
// included), and the variation groups, in one item, so a change of both is
// one write.
var (
	productsCount = store.CountName{List: "products", Value: store.CountAll}
	groupsCount   = store.CountName{List: "products", Value: store.CountAll, Attr: "groups"}
)

// attrCountDue is the attribute of a record's countDue.
const attrCountDue = "count_due"

// countDue is a change to the counts that its transaction had no room for:
// creating or dissolving a group of 99 children writes the 100 items a
// transaction holds. It rides on one of the children the transaction
// writes, and channel sync settles it (SettleCounts) within seconds, once:
// a transaction that adds it to the counts and removes it, conditioned on
// the child's version. Token tells one due from another.
type countDue struct {
	Token    string `dynamodbav:"token"`
	Products int64  `dynamodbav:"products"`
	Groups   int64  `dynamodbav:"groups"`
}

// count adds what the change does to the lists' sizes: a creation adds one
// product (and one group), a deletion removes one.
func (c change) count(counts store.Counts) {
	switch {
	case c.next == nil:
		counts.Add(productsCount, -1)
		if c.group {
			counts.Add(groupsCount, -1)
		}
	case c.read == 0:
		counts.Add(productsCount, 1)
		if c.next.isGroup() {
			counts.Add(groupsCount, 1)
		}
	}
}

// countChanges is what the changes do to the counts: the count writes of
// their Commit, or, when the Commit has no room for them, none, the change
// then riding on a child the changes write (its CountDue).
func countChanges(account string, changes []change) ([]store.Write, error) {
	counts := store.Counts{}
	for _, c := range changes {
		c.count(counts)
	}
	ws := counts.Writes(account)
	if len(changes)+len(ws) <= store.MaxWrites {
		return ws, nil
	}
	for _, c := range changes {
		if c.next == nil || c.next.isGroup() {
			continue // a group's every write is an event: the due rides on a child
		}
		due := c.next.CountDue
		if due == nil {
			due = &countDue{}
		}
		due.Token, due.Products, due.Groups = store.NewID(), due.Products+counts[productsCount], due.Groups+counts[groupsCount]
		c.next.CountDue = due
		return nil, nil
	}
	return nil, fmt.Errorf("%d product writes and their counts: more than one transaction holds, and no child to carry the counts", len(changes))
}

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
