package catalog

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// Messages of the catalog's 404s.
const (
	NotFoundMessage      = "Product not found"
	GroupNotFoundMessage = "Variation group not found"
)

// Service is the catalog domain: every operation on an account's products
// and variation groups. The methods that take one SKU refuse an invalid one
// (422), as the handlers do before reading a body.
type Service struct{ Table store.Table }

// Get returns the product sku: one eventually consistent GetItem, plus for
// a group one Query of its children. An unknown SKU is a 404.
func (s Service) Get(ctx context.Context, account, sku string) (Product, error) {
	if err := checkSKU(sku); err != nil {
		return Product{}, err
	}
	rec, err := getRecord(ctx, s.Table, account, sku, eventual)
	if err != nil {
		return Product{}, err
	}
	if rec == nil {
		return Product{}, errs.NotFound(NotFoundMessage)
	}
	if rec.isGroup() {
		return s.loadGroup(ctx, account, rec)
	}
	return rec.product(), nil
}

// Lookup returns the account's products with the given SKUs, keyed by SKU;
// unknown (or invalid) SKUs are absent from the map. It makes one
// eventually consistent BatchGetItem per 100 distinct SKUs and no other
// reads, so a variation
// group comes with its own fields only: no Variations and nothing inherited
// from its children.
func (s Service) Lookup(ctx context.Context, account string, skus []string) (map[string]Product, error) {
	recs, err := getRecords(ctx, s.Table, account, skus, eventual)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Product, len(recs))
	for sku, r := range recs {
		out[sku] = r.product()
	}
	return out, nil
}

// List returns a page of the account's products in SKU order, and their
// number. By SKUs it reads those (BatchGetItem); by modified_at it reads the
// matches from GSI2 and sorts them; otherwise it reads the page from where
// it starts (store.Table.Page: one Query, and the count). Groups on the
// page get their children from what was read, and any others in one
// BatchGetItem.
func (s Service) List(ctx context.Context, account string, f Filter, page paging.Page) (paging.Listing[Product], error) {
	var recs []*record
	var total int64
	var next *paging.Cursor
	var err error
	switch {
	case f.SKUs != nil:
		recs, err = recordsBySKU(ctx, s.Table, account, f.SKUs)
	case f.Modified.Active():
		recs, err = recordsModified(ctx, s.Table, account, f.Modified)
	default:
		recs, total, next, err = productsPage(ctx, s.Table, account, page)
	}
	if err != nil {
		return paging.Listing[Product]{}, err
	}
	known := bySKU(recs)
	if f.filtered() {
		recs = f.matching(recs)
		total = int64(len(recs))
		if recs, next, err = paging.SliceAfter(recs, page, account, f.list(), recordSKU); err != nil {
			return paging.Listing[Product]{}, err
		}
	}
	items, err := s.render(ctx, account, recs, known)
	return paging.Listing[Product]{Items: items, Total: int(total), Next: next}, err
}

// ListGroups returns a page of the account's variation groups in SKU
// order, and their number: of skus if not nil (BatchGetItem), otherwise
// the page from where it starts (store.Table.Page: one Query of GSI1, and
// the count).
func (s Service) ListGroups(ctx context.Context, account string, skus []string, page paging.Page) (paging.Listing[VariationGroup], error) {
	var recs []*record
	var total int64
	var next *paging.Cursor
	var err error
	if skus != nil {
		recs, err = recordsBySKU(ctx, s.Table, account, skus)
		recs = slices.DeleteFunc(recs, func(r *record) bool { return !r.isGroup() })
		total = int64(len(recs))
		if err == nil {
			recs, next, err = paging.SliceAfter(recs, page, account, paging.ListName("groups", strings.Join(skus, "\x00")), recordSKU)
		}
	} else {
		recs, total, next, err = groupsPage(ctx, s.Table, account, page)
	}
	if err != nil {
		return paging.Listing[VariationGroup]{}, err
	}
	out := make([]VariationGroup, len(recs))
	for i, r := range recs {
		out[i] = r.group()
	}
	return paging.Listing[VariationGroup]{Items: out, Total: int(total), Next: next}, nil
}

// Upsert creates or updates the product sku with the validated input and
// returns it as now stored: one GetItem and one conditional PutItem, the
// id of a creation coming from the ids the process reserved (store_ids.go).
// A child must keep a value for each of its group's variation attributes,
// unique in the group: a write that changes those values also reads the
// group and writes it (the values' hashes, its modified_at) in the same
// transaction; any other write of a child is the child's alone.
func (s Service) Upsert(ctx context.Context, account, sku string, in ProductInput) (Product, error) {
	if err := checkSKU(sku); err != nil {
		return Product{}, err
	}
	var id int64
	return retry(ctx, func() (Product, error) {
		cur, err := getRecord(ctx, s.Table, account, sku, strong)
		if err != nil {
			return Product{}, err
		}
		next := &record{Product: Product{SKU: sku}}
		if cur != nil {
			*next = *cur
		} else if !in.hasName {
			return Product{}, errs.Invalid("name is required to create a product")
		}
		next.Product = in.apply(next.Product)
		next.touch(time.Now())
		if err := checkSize(next.Product); err != nil {
			return Product{}, err
		}
		if cur == nil {
			if id == 0 {
				if id, err = nextID(ctx, s.Table, account); err != nil {
					return Product{}, err
				}
			}
			next.ID = id
		}
		changes := []change{put(next)}
		if next.isChild() && !sameCombo(cur, next) {
			group, err := getRecord(ctx, s.Table, account, *next.ParentSKU, strong)
			if err != nil {
				return Product{}, err
			}
			group, err = withChild(group, next, time.Now())
			if err != nil {
				return Product{}, err
			}
			changes = append(changes, put(group))
		}
		if err := commit(ctx, s.Table, account, changes); err != nil {
			return Product{}, err
		}
		if next.isGroup() {
			return s.loadGroup(ctx, account, next)
		}
		return next.product(), nil
	})
}

// Delete deletes the product sku; an unknown SKU is a 404. Deleting a child
// removes it from its group in the same transaction (and deletes the group
// with its last child, as a group needs one); deleting a group leaves its
// children stand-alone.
func (s Service) Delete(ctx context.Context, account, sku string) error {
	if err := checkSKU(sku); err != nil {
		return err
	}
	found, err := retry(ctx, func() (bool, error) {
		cur, err := getRecord(ctx, s.Table, account, sku, strong)
		if err != nil || cur == nil {
			return false, err
		}
		if cur.isGroup() {
			return true, s.dissolve(ctx, account, cur)
		}
		changes := []change{del(cur)}
		if cur.isChild() {
			group, err := getRecord(ctx, s.Table, account, *cur.ParentSKU, strong)
			if err != nil {
				return false, err
			}
			c, err := withoutChild(group, cur)
			if err != nil {
				return false, err
			}
			changes = append(changes, c)
		}
		return true, commit(ctx, s.Table, account, changes)
	})
	if err == nil && !found {
		return errs.NotFound(NotFoundMessage)
	}
	return err
}

// PutGroup creates or replaces the variation group sku: one read of the
// group, one BatchGetItem of its old and new children, and one transaction
// that writes the group and every child that joins, leaves or gets new
// variation attributes, each conditioned on the version read. A product in
// another group, a missing product, a group as a child, a child without a
// variation attribute, or two children with the same values is a 422.
func (s Service) PutGroup(ctx context.Context, account, sku string, in GroupInput) (VariationGroup, error) {
	if err := checkSKU(sku); err != nil {
		return VariationGroup{}, err
	}
	var id int64
	return retry(ctx, func() (VariationGroup, error) {
		cur, err := getRecord(ctx, s.Table, account, sku, strong)
		if err != nil {
			return VariationGroup{}, err
		}
		next := &record{Product: Product{SKU: sku}}
		if cur != nil {
			if !cur.isGroup() {
				return VariationGroup{}, errs.Invalid("%s is a product: a variation group needs a SKU that no product uses", sku)
			}
			*next = *cur
		}
		recs, err := getRecords(ctx, s.Table, account, append(slices.Clone(in.children), next.Children...), strong)
		if err != nil {
			return VariationGroup{}, err
		}
		combos, err := childCombos(sku, in, recs)
		if err != nil {
			return VariationGroup{}, err
		}
		now := time.Now()
		old := next.Children
		next.Name, next.Description, next.ImageList = &in.name, in.description, in.images
		next.Keys, next.Children, next.Combos = in.keys, in.children, combos
		next.touch(now)
		if err := checkSize(next.Product); err != nil {
			return VariationGroup{}, err
		}
		if cur == nil {
			if id == 0 {
				if id, err = nextID(ctx, s.Table, account); err != nil {
					return VariationGroup{}, err
				}
			}
			next.ID = id
		}
		changes := append([]change{put(next)}, memberChanges(sku, in, old, recs, now)...)
		if len(changes) > maxGroupWrites {
			return VariationGroup{}, errs.Invalid("this change writes %d products (the group and each child that joins, leaves or gets new variation attributes); one request writes at most %d: split it into several PUTs", len(changes), maxGroupWrites)
		}
		if err := commit(ctx, s.Table, account, changes); err != nil {
			return VariationGroup{}, err
		}
		return next.group(), nil
	})
}

// DeleteGroup deletes the variation group sku and makes its children
// stand-alone; a SKU that is not a group is a 404.
func (s Service) DeleteGroup(ctx context.Context, account, sku string) error {
	if err := checkSKU(sku); err != nil {
		return err
	}
	found, err := retry(ctx, func() (bool, error) {
		g, err := getRecord(ctx, s.Table, account, sku, strong)
		if err != nil || g == nil || !g.isGroup() {
			return false, err
		}
		return true, s.dissolve(ctx, account, g)
	})
	if err == nil && !found {
		return errs.NotFound(GroupNotFoundMessage)
	}
	return err
}

// loadGroup renders the group g with its children, read in one Query of
// GSI1; any the index does not hold yet are read in one BatchGetItem.
func (s Service) loadGroup(ctx context.Context, account string, g *record) (Product, error) {
	children, err := groupChildren(ctx, s.Table, account, g.SKU)
	if err != nil {
		return Product{}, err
	}
	out, err := s.render(ctx, account, []*record{g}, children)
	if err != nil {
		return Product{}, err
	}
	return out[0], nil
}

// render renders records, completing each group with its children: those
// among known (records already read, keyed by SKU) and the others read in
// one eventually consistent BatchGetItem per 100.
func (s Service) render(ctx context.Context, account string, recs []*record, known map[string]*record) ([]Product, error) {
	var missing []string
	for _, r := range recs {
		for _, c := range r.Children {
			if known[c] == nil {
				missing = append(missing, c)
			}
		}
	}
	if len(missing) > 0 {
		more, err := getRecords(ctx, s.Table, account, missing, eventual)
		if err != nil {
			return nil, err
		}
		for sku, r := range more {
			known[sku] = r
		}
	}
	out := make([]Product, len(recs))
	for i, r := range recs {
		if r.isGroup() {
			out[i] = r.groupProduct(known)
		} else {
			out[i] = r.product()
		}
	}
	return out, nil
}

// dissolve deletes the group g and makes its children stand-alone, in one
// transaction.
func (s Service) dissolve(ctx context.Context, account string, g *record) error {
	children, err := getRecords(ctx, s.Table, account, g.Children, strong)
	if err != nil {
		return err
	}
	changes, err := dissolution(g, children, time.Now())
	if err != nil {
		return err
	}
	return commit(ctx, s.Table, account, changes)
}

// retry runs attempt (which reads, validates and commits) with
// store.Retry: again while it loses a race, at most store.Attempts
// times; then the caller gets a 409.
func retry[T any](ctx context.Context, attempt func() (T, error)) (T, error) {
	var v T
	err := store.Retry(ctx, store.Attempts, raced, func() (err error) {
		v, err = attempt()
		return err
	})
	if raced(err) {
		return v, errs.Conflict("The product was changed by another request at the same time; retry")
	}
	return v, err
}

// SetQuantities stores the quantities derived from inventory on the
// products of those SKUs: one consistent BatchGetItem per 100 SKUs, then
// one UpdateItem per product whose quantity differs (none for a SKU that
// is no product). The channel-sync function calls it when stock changes.
func (s Service) SetQuantities(ctx context.Context, account string, quantities map[string]int64) error {
	skus := make([]string, 0, len(quantities))
	for sku := range quantities {
		skus = append(skus, sku)
	}
	recs, err := getRecords(ctx, s.Table, account, skus, strong)
	if err != nil {
		return err
	}
	for sku, r := range recs {
		if q := quantities[sku]; r.quantity() != q {
			if err := setQuantity(ctx, s.Table, account, sku, q); err != nil {
				return err
			}
		}
	}
	return nil
}

// SumGroup stores a variation group's quantity, the sum of its children's:
// one consistent GetItem and one BatchGetItem, then one UpdateItem when it
// differs. A SKU that
// is no longer a group is left alone.
func (s Service) SumGroup(ctx context.Context, account, sku string) error {
	g, err := getRecord(ctx, s.Table, account, sku, strong)
	if err != nil || g == nil || !g.isGroup() {
		return err
	}
	children, err := getRecords(ctx, s.Table, account, g.Children, strong)
	if err != nil {
		return err
	}
	var sum int64
	for _, c := range children {
		sum += c.quantity()
	}
	if g.quantity() == sum {
		return nil
	}
	return setQuantity(ctx, s.Table, account, sku, sum)
}
