package orders

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/warehouses"
)

// NotFoundMessage is the API error of an unknown order.
const NotFoundMessage = "Order not found"

// Handlers serves the order endpoints and consumes the order import queue
// over the Service.
type Handlers struct{ Service }

// Service serves the order and fulfillment endpoints, imports orders, and
// keeps allocations right when stock or warehouses change.
type Service struct {
	Table store.Table
}

// List serves GET /orders: a page of the account's orders in (ordered_at,
// sb_order_seq) order, with the filters of spec 4.1. Cost: one Query and
// one BatchGetItem.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	p, l, err := parseListing(r, r.Account.ID)
	if err != nil {
		return nil, err
	}
	if l == nil {
		return api.OK([]Order{}), nil
	}
	seqs, err := l.page(ctx, h.Table, p)
	if err != nil {
		return nil, err
	}
	list, err := getMany(ctx, h.Table, r.Account.ID, seqs)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].forOutput()
	}
	return api.OK(list), nil
}

// GetOne serves GET /orders/{sb_order_seq}: one GetItem.
func (h Handlers) GetOne(ctx context.Context, r *api.Request) (*api.Response, error) {
	seq, ok := ParseSeq(r.PathParam("sb_order_seq"))
	if !ok {
		return nil, errs.NotFound(NotFoundMessage)
	}
	o, err := h.Service.Get(ctx, r.Account.ID, seq)
	if errors.Is(err, ErrNotFound) {
		return nil, errs.NotFound(NotFoundMessage)
	}
	if err != nil {
		return nil, err
	}
	o.forOutput()
	return api.OK(o), nil
}

// Fulfillments serves GET /warehouses/{uuid}/fulfillments (and
// /warehouses/fulfillments/{uuid}): the open orders allocated at the
// warehouse, with only the items allocated there, each with its
// fulfillment_quantity. Cost: one Query and one BatchGetItem; an empty page
// also reads the warehouse, to tell an unknown one (404).
func (h Handlers) Fulfillments(ctx context.Context, r *api.Request) (*api.Response, error) {
	wh := r.PathParam("uuid")
	if !store.ValidID(wh) {
		return nil, errs.NotFound(warehouses.NotFoundMessage)
	}
	p, l, err := parseListing(r, r.Account.ID)
	if err != nil {
		return nil, err
	}
	var list []Order
	if l != nil && (r.Query("sb_status") == "" || strings.EqualFold(r.Query("sb_status"), StatusOpen)) {
		l.pk = fulfillPK(r.Account.ID, wh)
		l.filter = and(optionalEquals(r, "sb_payment_status", dimPayment), optionalEquals(r, "shipment_status", dimShipment))
		seqs, err := l.page(ctx, h.Table, p)
		if err != nil {
			return nil, err
		}
		if list, err = getMany(ctx, h.Table, r.Account.ID, seqs); err != nil {
			return nil, err
		}
	}
	out := make([]Order, 0, len(list))
	for _, o := range list {
		if f, ok := fulfillment(o, wh); ok {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		if _, err := (warehouses.Service{Table: h.Table}).Get(ctx, r.Account.ID, wh); errors.Is(err, warehouses.ErrNotFound) {
			return nil, errs.NotFound(warehouses.NotFoundMessage)
		} else if err != nil {
			return nil, err
		}
	}
	return api.OK(out), nil
}

// fulfillment is o as a fulfillment at wh: only its lines allocated there.
func fulfillment(o Order, wh string) (Order, bool) {
	if !o.open() {
		return o, false
	}
	o.forOutput()
	items := make([]Item, 0, len(o.Items))
	for _, it := range o.Items {
		if q := it.AllocatedAt(wh); q > 0 {
			it.FulfillmentQuantity = &q
			items = append(items, it)
		}
	}
	o.Items = items
	return o, len(items) > 0
}

// ParseSeq reads an sb_order_seq: a positive integer (a JSON number or
// string).
func ParseSeq(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || n < 1 || n > 999_999_999_999 {
		return 0, false
	}
	return n, true
}

// Filter values of the listings.
var (
	statusFilter = map[string]string{
		"open": StatusOpen, "completed": StatusCompleted, "canceled": StatusCancelled, "cancelled": StatusCancelled,
	}
	progressFilter = map[string]string{"all": All, "partial": Partial, "none": None}
)

// filterValue reads a status filter; "" when absent.
func filterValue(r *api.Request, name string, allowed map[string]string, list string) (string, error) {
	if !r.HasQuery(name) {
		return "", nil
	}
	v, ok := allowed[strings.ToLower(strings.TrimSpace(r.Query(name)))]
	if !ok {
		return "", errs.Invalid("%s must be one of %s", name, list)
	}
	return v, nil
}

// optionalEquals is the filter dim = the request's value of name, nil when
// it has none (the values were validated by parseListing).
func optionalEquals(r *api.Request, name, dim string) *filter {
	allowed := progressFilter
	if dim == dimStatus {
		allowed = statusFilter
	}
	v := allowed[strings.ToLower(strings.TrimSpace(r.Query(name)))]
	if v == "" {
		return nil
	}
	return equals(dim, v)
}

// parseListing validates the page and the filters of spec 4.1 and picks
// the listing partition: the one of the first status filter given (so page
// 1 costs the same whatever the account's size), the others applied as
// filters. A nil listing is an empty result (an empty time range).
func parseListing(r *api.Request, account string) (paging.Page, *listing, error) {
	p, err := api.ParsePage(r)
	if err != nil {
		return p, nil, err
	}
	st, err := filterValue(r, "sb_status", statusFilter, "open, completed, canceled")
	if err != nil {
		return p, nil, err
	}
	pay, err := filterValue(r, "sb_payment_status", progressFilter, "all, partial, none")
	if err != nil {
		return p, nil, err
	}
	ship, err := filterValue(r, "shipment_status", progressFilter, "all, partial, none")
	if err != nil {
		return p, nil, err
	}
	tf, err := api.ParseTimeRange(r, []string{"min_ordered_at", "ordered_at_min"}, []string{"max_ordered_at", "ordered_at_max"})
	if err != nil {
		return p, nil, err
	}
	l := &listing{account: account, lo: skMin, hi: skMax}
	if tf.Min != nil {
		l.lo = isotime.Format(*tf.Min)
	}
	if tf.Max != nil {
		l.hi = isotime.Format(*tf.Max) + store.Sep + "999999999999"
	}
	if l.lo > l.hi {
		return p, nil, nil
	}
	dims := []struct{ dim, value string }{{dimShipment, ship}, {dimPayment, pay}, {dimStatus, st}}
	var rest []*filter
	for _, d := range dims {
		switch {
		case d.value == "":
		case l.pk == "":
			l.pk = listPK(account, d.dim, d.value)
		default:
			rest = append(rest, equals(d.dim, d.value))
		}
	}
	if l.pk == "" {
		l.pk = listPK(account, dimAll, "")
	}
	l.filter = and(rest...)
	return p, l, nil
}
