package inventory

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/catalog"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/sku"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// Filter is a validated GET /inventory query.
type Filter struct {
	// Warehouse, if set, keeps one warehouse's records.
	Warehouse string
	// SKUs, if set, keeps these SKUs' records; sorted, without duplicates.
	SKUs []string
	// Created and Updated are inclusive ranges of created_at and updated_at.
	Created, Updated isotime.Range
}

// ParseFilter reads the filters of GET /inventory: warehouse_uuid, sku
// (sku[], skus, skus[]; at most paging.MaxLimit values), created_at_min|max
// and updated_at_min|max (min_created_at etc. too). A bad value is 422.
func ParseFilter(r *api.Request) (Filter, error) {
	var f Filter
	if r.HasQuery("warehouse_uuid") {
		if f.Warehouse = strings.TrimSpace(r.Query("warehouse_uuid")); f.Warehouse == "" {
			return f, errs.Invalid("warehouse_uuid must not be empty")
		}
	}
	for _, s := range r.QueryList("sku", "skus") {
		if err := sku.Check("sku", s); err != nil {
			return f, err
		}
		f.SKUs = append(f.SKUs, s)
	}
	slices.Sort(f.SKUs)
	f.SKUs = slices.Compact(f.SKUs)
	if len(f.SKUs) > paging.MaxLimit {
		return f, errs.Invalid("sku takes at most %d values", paging.MaxLimit)
	}
	var err error
	if f.Created, err = api.ParseTimeRange(r, []string{"created_at_min", "min_created_at"},
		[]string{"created_at_max", "max_created_at"}); err != nil {
		return f, err
	}
	f.Updated, err = api.ParseTimeRange(r, []string{"updated_at_min", "min_updated_at"},
		[]string{"updated_at_max", "max_updated_at"})
	return f, err
}

// Match reports whether the record passes every filter.
func (f Filter) Match(rec Record) bool {
	if f.Warehouse != "" && rec.Warehouse != f.Warehouse {
		return false
	}
	if f.SKUs != nil {
		if _, ok := slices.BinarySearch(f.SKUs, rec.SKU); !ok {
			return false
		}
	}
	return inRange(f.Created, rec.CreatedAt) && inRange(f.Updated, rec.UpdatedAt)
}

// inRange reports whether the stored time s lies in the range.
func inRange(r isotime.Range, s string) bool {
	if !r.Active() {
		return true
	}
	t, ok := isotime.Parse(s)
	return ok && r.Contains(t)
}

// empty reports whether a range is empty (its min after its max).
func empty(r isotime.Range) bool { return r.Min != nil && r.Max != nil && r.Min.After(*r.Max) }

// source is one Query a listing reads: in (sku, warehouse) order unless
// sorted is false; exact when every item it returns passes the filter, so a
// Limit can bound it.
type source struct {
	in     *dynamodb.QueryInput
	sorted bool
	exact  bool
}

// sources plans the Queries of a listing, most selective first: one per
// SKU on the table; else a range of GSI2 by updated_at (not in SKU order);
// else one warehouse's records on GSI1; else the account's partition.
func (f Filter) sources(t store.Table, account string) []source {
	q := func(index, cond string, values map[string]types.AttributeValue) *dynamodb.QueryInput {
		in := &dynamodb.QueryInput{
			TableName: t.TableName(), KeyConditionExpression: aws.String(cond),
			ExpressionAttributeNames: store.Names(cond), ExpressionAttributeValues: values,
		}
		if index != "" {
			in.IndexName = aws.String(index)
		}
		return in
	}
	switch {
	case f.SKUs != nil:
		out := make([]source, len(f.SKUs))
		for i, sku := range f.SKUs {
			cond, prefix := "#PK = :pk AND begins_with(#SK, :sk)", sortKey(sku, "")
			if f.Warehouse != "" {
				cond, prefix = "#PK = :pk AND #SK = :sk", sortKey(sku, f.Warehouse)
			}
			out[i] = source{in: q("", cond, map[string]types.AttributeValue{
				":pk": store.S(pk(account)), ":sk": store.S(prefix),
			}), sorted: true, exact: !f.Created.Active() && !f.Updated.Active()}
		}
		return out
	case f.Updated.Active():
		cond, values := "#GSI2PK = :pk", map[string]types.AttributeValue{":pk": store.S(byUpdatePK(account))}
		var bounds []string
		if f.Updated.Min != nil {
			values[":min"] = store.S(isotime.Format(*f.Updated.Min))
			bounds = append(bounds, "#GSI2SK >= :min")
		}
		if f.Updated.Max != nil {
			values[":max"] = store.S(isotime.Format(*f.Updated.Max))
			bounds = append(bounds, "#GSI2SK <= :max")
		}
		if len(bounds) == 2 {
			bounds = []string{"#GSI2SK BETWEEN :min AND :max"}
		}
		return []source{{in: q(store.GSI2, cond+" AND "+bounds[0], values)}}
	case f.Warehouse != "":
		return []source{{in: q(store.GSI1, "#GSI1PK = :pk", map[string]types.AttributeValue{
			":pk": store.S(byWarehousePK(account, f.Warehouse)),
		}), sorted: true, exact: !f.Created.Active()}}
	default:
		return []source{{in: q("", "#PK = :pk", map[string]types.AttributeValue{
			":pk": store.S(pk(account)),
		}), sorted: true, exact: !f.Created.Active()}}
	}
}

// Listing is what a listing read: the matching records up to the end of
// the page, and their total when the read reached the end.
type Listing struct {
	Records []Record
	// Total is the number of matching records, or -1 if not known.
	Total int
	// warehouseSeen is whether any record read was in the filter's
	// warehouse, which proves the warehouse exists.
	warehouseSeen bool
}

// List returns the account's records that match f, in (sku, warehouse)
// order, reading no further than the end of page (plus one record to tell
// whether more follow). An unfiltered first page is one Query.
func (s Service) List(ctx context.Context, account string, f Filter, page paging.Page) (Listing, error) {
	t := s.Table
	l := Listing{Total: -1}
	if empty(f.Created) || empty(f.Updated) {
		l.Total = 0
		return l, nil
	}
	need := page.Offset() + page.Limit + 1
	complete := true
	for _, src := range f.sources(t, account) {
		done, err := l.read(ctx, t, f, src, need)
		if err != nil {
			return l, err
		}
		if !done {
			complete = false
			break
		}
	}
	if complete {
		slices.SortFunc(l.Records, func(a, b Record) int {
			return strings.Compare(sortKey(a.SKU, a.Warehouse), sortKey(b.SKU, b.Warehouse))
		})
		l.Total = len(l.Records)
	}
	return l, nil
}

// read adds the matching records of one source; done is false when a
// sorted source stopped early because the records up to need are read.
func (l *Listing) read(ctx context.Context, t store.Table, f Filter, src source, need int) (done bool, err error) {
	in := *src.in
	for {
		if src.sorted && len(l.Records) >= need {
			return false, nil
		}
		if src.exact {
			in.Limit = aws.Int32(int32(min(need-len(l.Records), math.MaxInt32)))
		}
		out, err := t.DB.Query(ctx, &in)
		if err != nil {
			return false, fmt.Errorf("query inventory: %w", err)
		}
		var recs []Record
		if err := attributevalue.UnmarshalListOfMaps(out.Items, &recs); err != nil {
			return false, fmt.Errorf("unmarshal inventory: %w", err)
		}
		for _, rec := range recs {
			l.warehouseSeen = l.warehouseSeen || rec.Warehouse == f.Warehouse
			if f.Match(rec) {
				l.Records = append(l.Records, rec)
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return true, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// List serves GET /inventory (and /inventories): a page of the account's
// records in (sku, warehouse) order with the product fields joined in, and
// Total-Pages when the read reached the end. An unknown warehouse_uuid is
// 404 Warehouse not found.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	page, err := api.ParsePage(r)
	if err != nil {
		return nil, err
	}
	f, err := ParseFilter(r)
	if err != nil {
		return nil, err
	}
	l, err := h.Service.List(ctx, r.Account.ID, f, page)
	if err != nil {
		return nil, err
	}
	if f.Warehouse != "" && !l.warehouseSeen {
		if _, err := (warehouses.Service{Table: h.Table}).Get(ctx, r.Account.ID, f.Warehouse); errors.Is(err, warehouses.ErrNotFound) {
			return nil, errs.NotFound(warehouses.NotFoundMessage)
		} else if err != nil {
			return nil, err
		}
	}
	out, err := withProducts(ctx, h.Table, r.Account.ID, paging.Slice(l.Records, page))
	if err != nil {
		return nil, err
	}
	resp := api.OK(out)
	if l.Total >= 0 {
		resp.WithTotalPages(paging.TotalPages(l.Total, page.Limit))
	}
	return resp, nil
}

// withProducts returns the records as the API shows them, with the fields
// of the product of the same SKU where one exists: one BatchGetItem for up
// to 100 SKUs.
func withProducts(ctx context.Context, t store.Table, account string, recs []Record) ([]Inventory, error) {
	skus := make([]string, len(recs))
	for i, rec := range recs {
		skus[i] = rec.SKU
	}
	products, err := catalog.Service{Table: t}.Lookup(ctx, account, skus)
	if err != nil {
		return nil, fmt.Errorf("look up products: %w", err)
	}
	out := make([]Inventory, len(recs))
	for i, rec := range recs {
		out[i] = view(rec, products[rec.SKU])
	}
	return out, nil
}
