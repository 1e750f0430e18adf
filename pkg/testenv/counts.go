package testenv

import (
	"context"
	"maps"
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
	breaks := []struct {
		name   string
		writes func(t *testing.T) []store.Write
	}{
		{"no count items", func(t *testing.T) []store.Write {
			var ws []store.Write
			for _, c := range e.countItems(t, account) {
				sk := c[store.AttrSK].(*types.AttributeValueMemberS).Value
				if slices.ContainsFunc(slices.Collect(maps.Keys(skew)), func(n store.CountName) bool { return strings.HasPrefix(sk, n.List+store.Sep) }) {
					ws = append(ws, store.Delete(map[string]types.AttributeValue{store.AttrPK: c[store.AttrPK], store.AttrSK: c[store.AttrSK]}, "", nil))
				}
			}
			return ws
		}},
		{"counts off", func(*testing.T) []store.Write { return skew.Writes(account) }},
	}
	for _, b := range breaks {
		t.Run(b.name, func(t *testing.T) {
			for _, w := range b.writes(t) {
				if err := e.Deps.Table.Commit(ctx, []store.Write{w}); err != nil {
					t.Fatal(err)
				}
			}
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

// countItems reads the count items of the account (store.Counts).
func (e *Env) countItems(t *testing.T, account string) []map[string]types.AttributeValue {
	t.Helper()
	items, err := e.Deps.Table.QueryAll(context.Background(), store.PK(account, "CNT"))
	if err != nil {
		t.Fatal(err)
	}
	return items
}
