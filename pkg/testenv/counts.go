package testenv

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// CheckRecount checks that recount (a domain's Recount) puts the
// account's counts of the lists skew names back, for each way a count goes
// wrong: every count item of those lists deleted (data written before the
// counts existed), and skew added to the counts (a count off). After each
// it runs recount twice, checks that the second run wrote no count, and
// then runs check, which reads the lists (their Total-Pages).
func (e *Env) CheckRecount(t *testing.T, account string, skew store.Counts, recount func(context.Context, string) error, check func(t *testing.T)) {
	t.Helper()
	ctx := context.Background()
	var lists []string
	for name := range skew {
		lists = append(lists, name.List)
	}
	breaks := []struct {
		name  string
		apply func(t *testing.T)
	}{
		{"no count items", func(t *testing.T) { e.DeleteCounts(t, account, lists...) }},
		{"counts off", func(t *testing.T) {
			if err := e.Deps.Table.Commit(ctx, skew.Writes(account)); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, b := range breaks {
		t.Run(b.name, func(t *testing.T) {
			b.apply(t)
			if err := recount(ctx, account); err != nil {
				t.Fatalf("recount: %v", err)
			}
			before := e.countItems(t, account)
			if err := recount(ctx, account); err != nil {
				t.Fatalf("recount again: %v", err)
			}
			if after := e.countItems(t, account); !reflect.DeepEqual(after, before) {
				t.Errorf("the second recount wrote counts: %v, then %v", before, after)
			}
			check(t)
		})
	}
}

// DeleteCounts deletes the account's count items (store.Counts) of the
// lists, or all of them when none is named: the account then looks as if
// its data had been written before the counts existed.
func (e *Env) DeleteCounts(t testing.TB, account string, lists ...string) {
	t.Helper()
	for _, c := range e.countItems(t, account) {
		sk := c[store.AttrSK].(*types.AttributeValueMemberS).Value
		if len(lists) > 0 && !slices.ContainsFunc(lists, func(l string) bool { return strings.HasPrefix(sk, l+store.Sep) }) {
			continue
		}
		key := map[string]types.AttributeValue{store.AttrPK: c[store.AttrPK], store.AttrSK: c[store.AttrSK]}
		if err := e.Deps.Table.Commit(context.Background(), []store.Write{store.Delete(key, "", nil)}); err != nil {
			t.Fatal(err)
		}
	}
}

// countItems reads the count items of the account (store.Counts).
func (e *Env) countItems(t testing.TB, account string) []map[string]types.AttributeValue {
	t.Helper()
	items, err := e.Deps.Table.QueryAll(context.Background(), store.PK(account, "CNT"))
	if err != nil {
		t.Fatal(err)
	}
	return items
}
