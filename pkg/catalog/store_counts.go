package catalog

import (
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
