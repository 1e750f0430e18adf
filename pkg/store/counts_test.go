package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/store"
)

// TestSetCounts: SetCounts puts a count that is off, one that was never
// written and more counts than one transaction holds to the wanted values
// (twice: the second run writes nothing), leaves alone a count it is not
// given, and the list's pages read the count it set.
func TestSetCounts(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, d *app.Deps) {
		ctx := context.Background()
		account, pk := pagedList(t, d, 9)
		things := store.CountName{List: "things", Value: store.CountAll}
		other := store.CountName{List: "things", Value: "other"}
		broken := store.Counts{things: -4, other: 7}
		if err := d.Table.Commit(ctx, broken.Writes(account)); err != nil {
			t.Fatal(err)
		}
		want := store.Counts{things: 9, {List: "things", Value: store.CountAll, Attr: "odd"}: 4}
		items := 2                               // things' (n and odd) and other's
		for i := range store.MaxWrites * 3 / 2 { // one more item than a transaction takes
			want[store.CountName{List: "wide", Value: fmt.Sprintf("%03d", i)}] = int64(i % 3)
			if i%3 != 0 {
				items++
			}
		}
		for run := 1; run <= 2; run++ {
			if err := d.Table.SetCounts(ctx, account, want); err != nil {
				t.Fatalf("run %d: %v", run, err)
			}
		}
		got := store.Counts{other: 0}
		for name := range want {
			got[name] = 0
		}
		for name := range got {
			n, err := d.Table.Count(ctx, account, name)
			if err != nil {
				t.Fatal(err)
			}
			got[name] = n
		}
		want[other] = 7
		for name, n := range want {
			if got[name] != n {
				t.Errorf("count %+v = %d, want %d", name, got[name], n)
			}
		}
		stored, err := d.Table.QueryAll(ctx, store.PK(account, "CNT"))
		if got, want := len(stored), items; err != nil || got != want {
			t.Errorf("%d count items (%v), want %d: none for a count that stays 0", got, err, want)
		}
		q := store.PageQuery{Account: account, List: "recounted", Count: &things, Input: dynamodb.QueryInput{
			KeyConditionExpression:    aws.String("PK = :pk"),
			ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk)},
		}}
		page, err := d.Table.Page(ctx, q, 3, 4)
		if got := sks(page.Items); err != nil || fmt.Sprint(got) != "[008]" || page.Total != 9 {
			t.Errorf("page 3 of 4: %v of %d (%v), want [008] of 9", got, page.Total, err)
		}
	})
}
