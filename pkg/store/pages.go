package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/paging"
)

// PageQuery is one list as a DynamoDB Query, for Table.Page.
type PageQuery struct {
	// Account owns the list (and the cursors kept for it).
	Account string
	// List names the list and its filters, any text: cursors are kept per
	// account, List and limit, so two queries with the same List must be
	// the same query.
	List string
	// Input is the Query: key condition, index, FilterExpression, order and
	// projection. Its TableName, Limit and ExclusiveStartKey are the
	// pager's.
	Input dynamodb.QueryInput
	// Count, if set, is the exact count of the list (see Counts). Else, if
	// Bounded, the list is counted by reading it (CountQuery, at most
	// maxCountCalls calls) on a walk's first page and on a jump, and the
	// count goes along with the cursors; else its size is not known.
	Count   *CountName
	Bounded bool
}

// Page is one page of a list: its items in the Query's order, the
// number of items the whole list holds (-1 when not known), and the
// cursor of the page after it (nil when the list is known to be over).
type Page struct {
	Items []map[string]types.AttributeValue
	Total int64
	Next  *paging.Cursor
}

// cursorKind is the kind of the cursor items: <acct>#CUR /
// <hash of the list>␟<limit>␟<page>, holding the key where the page
// starts (attribute k), the page's number and the list's bounded count
// when it has one, until its ttl.
const cursorKind = "CUR"

// CursorTTL is how long a page's start is kept: a client walking a list
// reads each page with one Query as long as it asks for the next within
// this time (docs/api-conventions.md).
const CursorTTL = 15 * time.Minute

// cursor is where a page starts: its number, the position of the last
// item before it (nil: the list's start), the version of the list's count
// item when it was written (a cursor of a counted list is used only while
// the list has not changed since, so pages stay at their offsets) and, for
// a Bounded list, the count taken when the walk began (-1: none).
type cursor struct {
	page    int
	start   map[string]types.AttributeValue
	version int64
	total   int64
}

// listState is what the count item says of a list: its size (-1 when it
// has no count) and its version.
type listState struct {
	total, version int64
}

// Page reads page number (from 1) of limit items of the list q, on any
// instance at the cost of one Query of the page's items plus one small
// read of where the page starts and of the count: the request that read
// page N left the position of its last item in a cursor item, where page
// N+1 starts. A jump to a page no cursor knows starts at the nearest
// earlier page known (one Query of the cursors) and reads the keys of the
// pages in between. A counted list's cursors hold only while the list is
// unchanged (the count item's version): after a change, pages are found
// again from the list's start, so that page N is always the items from
// offset (N-1)*limit and agrees with the count. A Bounded list's walk goes
// on with the count its first page took, whatever changes meanwhile; a
// jump counts again and starts only from the cursors of a walk that
// counted the same (boundedStart).
func (t Table) Page(ctx context.Context, q PageQuery, number, limit int) (Page, error) {
	if number < 1 || limit < 1 {
		return Page{}, fmt.Errorf("page %d of %d: out of range", number, limit)
	}
	c, state, err := t.pageStart(ctx, q, number, limit)
	if err != nil {
		return Page{}, err
	}
	total := state.total
	page := Page{Total: total, Items: []map[string]types.AttributeValue{}}
	if total >= 0 && int64(number-1)*int64(limit) >= total {
		return page, nil // past the end: nothing to read
	}
	keys := positionKeys(q.Input.IndexName)
	start := c.start
	if c.page < number {
		var more bool
		start, more, err = t.walk(ctx, q.Input, keys, start, skipped(c.page, number, limit), nil)
		if err != nil || !more {
			return page, err
		}
		if err := t.putCursor(ctx, q, limit, cursor{page: number, start: start, version: state.version, total: total}); err != nil {
			return Page{}, err
		}
	}
	end, more, err := t.walk(ctx, q.Input, keys, start, limit, &page.Items)
	if err != nil {
		return Page{}, err
	}
	if more && (total < 0 || int64(number)*int64(limit) < total) {
		if err := t.putCursor(ctx, q, limit, cursor{page: number + 1, start: end, version: state.version, total: total}); err != nil {
			return Page{}, err
		}
		page.Next = nextCursor(q, end)
	}
	return page, nil
}

// skipped is the number of items between the start of page from and that
// of page number.
func skipped(from, number, limit int) int {
	return int(min(int64(number-from)*int64(limit), math.MaxInt32))
}

// pageStart finds where page number starts: the nearest page at or before
// it whose start a cursor holds (page 1, the list's start, when none
// does), and reads the list's exact count and version when it has a count.
// For a sequential walk this is one BatchGetItem of the page's cursor and
// the count.
func (t Table) pageStart(ctx context.Context, q PageQuery, number, limit int) (cursor, listState, error) {
	c, state := cursor{page: 1, total: -1}, listState{total: -1}
	var keys []map[string]types.AttributeValue
	if number > 1 {
		keys = append(keys, cursorKey(q, limit, number))
	}
	if q.Count != nil {
		keys = append(keys, q.Count.key(q.Account))
		state.total = 0 // never counted: nothing was ever in the list
	}
	// None when there are no keys (page 1 of a list without a count item).
	// Eventually consistent, as the page's Query: a cursor written a moment
	// ago by the previous page's request may not show yet, and is then
	// found by nearestCursor's strongly consistent Query.
	items, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return c, state, fmt.Errorf("page start of %s: %w", q.List, err)
	}
	var found []map[string]types.AttributeValue
	for _, it := range items {
		if img := (Image{it}); img.Text(AttrPK) == PK(q.Account, countKind) {
			state = listState{total: img.Int(q.Count.attr()), version: img.Int("v")}
		} else {
			found = append(found, it)
		}
	}
	if q.Count == nil && q.Bounded {
		return t.boundedStart(ctx, q, number, limit, found)
	}
	if live, ok := liveCursor(found, state.version); ok {
		return live, state, nil
	}
	if number > 1 {
		c, err = t.nearestCursor(ctx, q, limit, number, state.version)
	}
	return c, state, err
}

// boundedStart is pageStart of a Bounded list, given the page's cursor if
// it was found. The next page of a walk goes on with the count its first
// page took. A walk's first page, or a jump, counts the list (CountQuery),
// and the count is the version of the cursors it writes: a jump starts
// only from a cursor of a walk that counted the same, so items added or
// removed since an earlier walk do not shift the pages it finds.
func (t Table) boundedStart(ctx context.Context, q PageQuery, number, limit int, found []map[string]types.AttributeValue) (cursor, listState, error) {
	if live, ok := liveCursor(found, anyVersion); ok {
		return live, listState{total: live.total, version: live.version}, nil
	}
	n, ok, err := t.CountQuery(ctx, countInput(q), maxCountCalls)
	if err != nil {
		return cursor{}, listState{}, err
	}
	if !ok {
		n = -1 // beyond the bound: not known
	}
	state, c := listState{total: n, version: n}, cursor{page: 1, total: -1}
	if number > 1 {
		c, err = t.nearestCursor(ctx, q, limit, number, state.version)
	}
	return c, state, err
}

// nearestCursor is the live cursor of the highest page up to number
// (page 1 when none is) among the last few: one strongly consistent Query
// of the list's cursors, highest page first.
func (t Table) nearestCursor(ctx context.Context, q PageQuery, limit, number int, version int64) (cursor, error) {
	out, err := t.DB.Query(ctx, &dynamodb.QueryInput{
		TableName:              t.TableName(),
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": S(PK(q.Account, cursorKind)),
			":lo": S(cursorSK(q, limit, 2)), ":hi": S(cursorSK(q, limit, number)),
		},
		ScanIndexForward: aws.Bool(false),
		Limit:            aws.Int32(nearestCursors),
		ConsistentRead:   aws.Bool(true),
	})
	if err != nil {
		return cursor{}, fmt.Errorf("cursors of %s: %w", q.List, err)
	}
	if c, ok := liveCursor(out.Items, version); ok {
		return c, nil
	}
	return cursor{page: 1, total: -1}, nil
}

// nearestCursors is how many cursors a jump looks at.
const nearestCursors = 10

// anyVersion is the version liveCursor is given to take a cursor of any.
const anyVersion = math.MinInt64

// liveCursor is the first cursor of items that has not expired (DynamoDB
// deletes expired items only eventually) and is of the list's version.
func liveCursor(items []map[string]types.AttributeValue, version int64) (cursor, bool) {
	for _, it := range items {
		img := Image{it}
		k, ok := it["k"].(*types.AttributeValueMemberM)
		if !ok || img.Int(AttrTTL) <= time.Now().Unix() || img.Int("page") < 2 || version != anyVersion && img.Int("v") != version {
			continue
		}
		c := cursor{page: int(img.Int("page")), start: k.Value, version: img.Int("v"), total: -1}
		if _, ok := it["total"]; ok {
			c.total = img.Int("total")
		}
		return c, true
	}
	return cursor{}, false
}

// putCursor keeps where page c.page of q starts, for CursorTTL.
func (t Table) putCursor(ctx context.Context, q PageQuery, limit int, c cursor) error {
	item := cursorKey(q, limit, c.page)
	item["k"] = &types.AttributeValueMemberM{Value: c.start}
	item["page"] = N(int64(c.page))
	item["v"] = N(c.version)
	item[AttrTTL] = N(time.Now().Add(CursorTTL).Unix())
	if q.Count == nil && c.total >= 0 {
		item["total"] = N(c.total)
	}
	if _, err := t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: t.TableName(), Item: item}); err != nil {
		return fmt.Errorf("cursor of %s page %d: %w", q.List, c.page, err)
	}
	return nil
}

// cursorKey is the key of the cursor of page number of q at limit.
func cursorKey(q PageQuery, limit, number int) map[string]types.AttributeValue {
	return Key(PK(q.Account, cursorKind), cursorSK(q, limit, number))
}

// cursorSK is the cursor's sort key: the list's hash (a List may be long),
// the limit and the page, zero-padded so that pages sort by number.
func cursorSK(q PageQuery, limit, number int) string {
	h := sha256.Sum256([]byte(q.List))
	return Join(hex.EncodeToString(h[:12]), fmt.Sprintf("%03d", limit), fmt.Sprintf("%010d", number))
}

// positionKeys are the attributes of an item's position in a Query of
// the index (the table's keys, and the index's).
func positionKeys(index *string) []string {
	keys := []string{AttrPK, AttrSK}
	switch aws.ToString(index) {
	case GSI1:
		keys = append(keys, AttrGSI1PK, AttrGSI1SK)
	case GSI2:
		keys = append(keys, AttrGSI2PK, AttrGSI2SK)
	}
	return keys
}

// walk reads n items the Query selects after start (nil: from the
// beginning), appending them to items if given, else reading only their
// keys. It returns the position of the last item read, and whether n were
// found with the Query not known to be over.
func (t Table) walk(ctx context.Context, in dynamodb.QueryInput, keys []string, start map[string]types.AttributeValue, n int, items *[]map[string]types.AttributeValue) (map[string]types.AttributeValue, bool, error) {
	in.TableName = t.TableName()
	in.ExclusiveStartKey = start
	if items == nil {
		keysOnly(&in, keys)
	}
	last := start
	for got := 0; got < n; {
		in.Limit = aws.Int32(int32(n - got))
		out, err := t.DB.Query(ctx, &in)
		if err != nil {
			return nil, false, fmt.Errorf("page query: %w", err)
		}
		for _, it := range out.Items {
			if items != nil {
				*items = append(*items, it)
			}
			last = make(map[string]types.AttributeValue, len(keys))
			for _, k := range keys {
				last[k] = it[k]
			}
		}
		got += len(out.Items)
		if len(out.LastEvaluatedKey) == 0 {
			return last, false, nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
	return last, true, nil
}

// keysOnly makes the Query project only the keys, keeping the names its
// key condition and filter use.
func keysOnly(in *dynamodb.QueryInput, keys []string) {
	projection := "#" + strings.Join(keys, ", #")
	in.ProjectionExpression = aws.String(projection)
	in.ExpressionAttributeNames = withUsedNames(in, Names(projection))
}

// withUsedNames is names with those of the Query's names that its key
// condition, filter or projection use (DynamoDB refuses a name no
// expression uses), nil when there are none.
func withUsedNames(in *dynamodb.QueryInput, names map[string]string) map[string]string {
	exprs := []string{aws.ToString(in.KeyConditionExpression), aws.ToString(in.FilterExpression), aws.ToString(in.ProjectionExpression)}
	for k, v := range in.ExpressionAttributeNames {
		for _, e := range exprs {
			if regexp.MustCompile(regexp.QuoteMeta(k) + `\b`).MatchString(e) {
				if names == nil {
					names = map[string]string{}
				}
				names[k] = v
				break
			}
		}
	}
	return names
}
