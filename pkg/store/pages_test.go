package store_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/store"
)

// pagedList writes n items (SK "000".."n-1", attribute odd on every other
// one) in a partition of a new account, counted in the list "things", and
// returns the account and the partition.
func pagedList(t *testing.T, d *app.Deps, n int) (account, pk string) {
	t.Helper()
	ctx := context.Background()
	account = "acct_page_" + strconv.FormatInt(time.Now().UnixNano(), 36)
	pk = store.PK(account, "T")
	for i := range n {
		item := store.Key(pk, fmt.Sprintf("%03d", i))
		item["odd"] = &types.AttributeValueMemberBOOL{Value: i%2 == 1}
		counts := store.Counts{}
		counts.Add(store.CountName{List: "things", Value: store.CountAll}, 1)
		if err := d.Table.Commit(ctx, append(counts.Writes(account), store.Put(item, "", nil))); err != nil {
			t.Fatal(err)
		}
	}
	return account, pk
}

// sks are the sort keys of items.
func sks(items []map[string]types.AttributeValue) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it[store.AttrSK].(*types.AttributeValueMemberS).Value
	}
	return out
}

// wantSKs are the sort keys of the items i of 0..n-1 that keep holds, from
// the from-th of them, at most limit.
func wantSKs(n, from, limit int, keep func(int) bool) []string {
	out := []string{}
	for i := range n {
		if keep(i) {
			out = append(out, fmt.Sprintf("%03d", i))
		}
	}
	if from >= len(out) {
		return []string{}
	}
	return out[from:min(from+limit, len(out))]
}

func TestPage(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		const n, limit = 23, 5
		account, pk := pagedList(t, d, n)
		all := func(int) bool { return true }
		odd := func(i int) bool { return i%2 == 1 }
		query := func(list string, filter bool) store.PageQuery {
			q := store.PageQuery{Account: account, List: list, Input: dynamodb.QueryInput{
				KeyConditionExpression:    aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
			}}
			if filter {
				q.Input.FilterExpression = aws.String("#odd = :t")
				q.Input.ExpressionAttributeNames = map[string]string{"#odd": "odd"}
				q.Input.ExpressionAttributeValues[":t"] = &types.AttributeValueMemberBOOL{Value: true}
			}
			return q
		}
		counted := query("all", false)
		counted.Count = &store.CountName{List: "things", Value: store.CountAll}
		bounded := query("odd", true)
		bounded.Bounded = true
		cases := []struct {
			name      string
			q         store.PageQuery
			keep      func(int) bool
			pages     []int // the pages asked for, in turn
			wantTotal int64
		}{
			{"walk with a count", counted, all, []int{1, 2, 3, 4, 5, 6, 7}, n},
			{"walk of a filter with a bounded count", bounded, odd, []int{1, 2, 3, 4}, 11},
			{"jumps without a count", query("jumps", false), all, []int{4, 2, 5, 3, 9, 1}, -1},
			{"jumps of a filter", query("odd jumps", true), odd, []int{3, 1, 2, 4}, -1},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				for _, p := range c.pages {
					page, err := d.Table.Page(context.Background(), c.q, p, limit)
					if err != nil {
						t.Fatalf("page %d: %v", p, err)
					}
					if got, want := sks(page.Items), wantSKs(n, (p-1)*limit, limit, c.keep); !slices.Equal(got, want) {
						t.Errorf("page %d: %v, want %v", p, got, want)
					}
					if got, want := page.Total, c.wantTotal; got != want {
						t.Errorf("page %d: total %d, want %d", p, got, want)
					}
				}
			})
		}
	})
}

// TestPageCost: in a sequential walk, every page costs one BatchGetItem of
// its cursor and the count, and one Query of its items;
// the read capacity of the items is what reading each once costs.
func TestPageCost(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		const n, limit = 40, 10
		account, pk := pagedList(t, d, n)
		q := store.PageQuery{Account: account, List: "cost", Count: &store.CountName{List: "things", Value: store.CountAll},
			Input: dynamodb.QueryInput{
				KeyConditionExpression:    aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
			}}
		for p := 1; p <= n/limit; p++ {
			ctx, meter := store.WithMeter(context.Background())
			if _, err := d.Table.Page(ctx, q, p, limit); err != nil {
				t.Fatal(err)
			}
			want := map[string]int{"BatchGetItem": 1, "Query": 1, "PutItem": 1}
			if p == n/limit {
				delete(want, "PutItem") // the last page: no page follows
			}
			if got := meter.Ops(); !maps.Equal(got, want) {
				t.Errorf("page %d: calls %v, want %v", p, got, want)
			}
		}
	})
}

// TestPageCursorNotYetRead: a page's start is read eventually
// consistent, and a cursor written a moment before may not show in that
// read. The read is made to miss it here (the client drops cursor items
// from BatchGetItem answers, as a read of a replica behind would); the
// page is then found by the strongly consistent Query of the cursors, not
// by walking the pages before it.
func TestPageCursorNotYetRead(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		const n, limit = 40, 10
		account, pk := pagedList(t, d, n)
		q := store.PageQuery{Account: account, List: "lagging", Count: &store.CountName{List: "things", Value: store.CountAll},
			Input: dynamodb.QueryInput{
				KeyConditionExpression:    aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
			}}
		for p := 1; p <= 2; p++ { // leaves the cursor of page 3
			if _, err := d.Table.Page(context.Background(), q, p, limit); err != nil {
				t.Fatal(err)
			}
		}
		lagging := store.Table{DB: dynamodb.New(d.Table.DB.Options(), func(o *dynamodb.Options) {
			o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
				return s.Deserialize.Add(dropCursors, middleware.Before)
			})
		}), Name: d.Table.Name}
		ctx, meter := store.WithMeter(context.Background())
		page, err := lagging.Page(ctx, q, 3, limit)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sks(page.Items), wantSKs(n, 20, limit, func(int) bool { return true }); !slices.Equal(got, want) {
			t.Errorf("page 3: %v, want %v", got, want)
		}
		// The start and count, the cursors' Query, the page, the next cursor.
		if got, want := meter.Ops(), map[string]int{"BatchGetItem": 1, "Query": 2, "PutItem": 1}; !maps.Equal(got, want) {
			t.Errorf("page 3 whose cursor the read missed: calls %v, want %v", got, want)
		}
	})
}

// dropCursors removes the pager's cursor items (<acct>#CUR) from the answer
// of an eventually consistent BatchGetItem.
var dropCursors = middleware.DeserializeMiddlewareFunc("DropCursors", func(ctx context.Context, in middleware.DeserializeInput, next middleware.DeserializeHandler) (middleware.DeserializeOutput, middleware.Metadata, error) {
	out, md, err := next.HandleDeserialize(ctx, in)
	if res, ok := out.Result.(*dynamodb.BatchGetItemOutput); ok && err == nil {
		for table, items := range res.Responses {
			res.Responses[table] = slices.DeleteFunc(items, func(it map[string]types.AttributeValue) bool {
				pk, _ := it[store.AttrPK].(*types.AttributeValueMemberS)
				return pk != nil && strings.HasSuffix(pk.Value, "#CUR")
			})
		}
	}
	return out, md, err
})

// TestPageAfterChange: once a counted list changes, a cursor written before
// is not used: the page is at its offset in the list as it is now.
func TestPageAfterChange(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		account, pk := pagedList(t, d, 9)
		q := store.PageQuery{Account: account, List: "changing", Count: &store.CountName{List: "things", Value: store.CountAll},
			Input: dynamodb.QueryInput{
				KeyConditionExpression:    aws.String("PK = :pk"),
				ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
			}}
		for p := 1; p <= 2; p++ { // leaves the cursor of page 3, after "005"
			if _, err := d.Table.Page(ctx, q, p, 3); err != nil {
				t.Fatal(err)
			}
		}
		counts := store.Counts{}
		counts.Add(store.CountName{List: "things", Value: store.CountAll}, 1)
		if err := d.Table.Commit(ctx, append(counts.Writes(account), store.Put(store.Key(pk, "!first"), "", nil))); err != nil {
			t.Fatal(err)
		}
		page, err := d.Table.Page(ctx, q, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sks(page.Items), []string{"005", "006", "007"}; !slices.Equal(got, want) || page.Total != 10 {
			t.Errorf("page 3 after an item was added first: %v of %d, want %v of 10", got, page.Total, want)
		}
	})
}

// TestBoundedJumpAfterChange: a Bounded list's jump counts again and does
// not start from a cursor of a walk that counted differently: after an
// item is added first, a walk's page 1 and then a jump to its last page
// (whose start an older walk's cursor of page 3 would misplace) find the
// items at their offsets.
func TestBoundedJumpAfterChange(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		account, pk := pagedList(t, d, 9)
		q := store.PageQuery{Account: account, List: "bounded", Bounded: true, Input: dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
		}}
		for p := 1; p <= 2; p++ { // leaves the cursor of page 3, after "005"
			if _, err := d.Table.Page(ctx, q, p, 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := d.Table.Commit(ctx, []store.Write{store.Put(store.Key(pk, "!first"), "", nil)}); err != nil {
			t.Fatal(err)
		}
		for _, tt := range []struct {
			page int
			want []string
		}{{1, []string{"!first", "000", "001"}}, {4, []string{"008"}}} {
			page, err := d.Table.Page(ctx, q, tt.page, 3)
			if err != nil {
				t.Fatal(err)
			}
			if got := sks(page.Items); !slices.Equal(got, tt.want) || page.Total != 10 {
				t.Errorf("page %d after an item was added first: %v of %d, want %v of 10", tt.page, got, page.Total, tt.want)
			}
		}
	})
}

// TestCountQueryProjected: a Query whose projection uses names of its own
// counts (the names only the projection used are dropped).
func TestCountQueryProjected(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		_, pk := pagedList(t, d, 4)
		n, ok, err := d.Table.CountQuery(context.Background(), dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("#PK = :pk"),
			ProjectionExpression:      aws.String("#odd"),
			ExpressionAttributeNames:  map[string]string{"#PK": "PK", "#odd": "odd"},
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
		}, 1)
		if got, want := n, int64(4); err != nil || !ok || got != want {
			t.Errorf("count %d (%v, %v), want %d", got, ok, err, want)
		}
	})
}
