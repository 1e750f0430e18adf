package warehouses_test

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/warehouses"
)

// TestCached: a process's copy of an account's warehouses is read once per
// CacheTTL; a warehouse another process created is seen as soon as the
// caller names it, else after the TTL; this process's creations and
// archives drop the copy; other accounts are apart. The warehouses listed
// are those allocation may use (Allocatable).
func TestCached(t *testing.T) {
	t.Parallel()
	env := testenv.Get(t)
	acct, other := env.NewAccount(t, testenv.AccountOptions{}), env.NewAccount(t, testenv.AccountOptions{})
	c := env.Client(t, acct)
	ctx := context.Background()
	svc := env.Deps.Warehouses()
	a := create(t, c, `{"warehouse":{"name":"A"}}`)
	var elsewhere, b string
	query := map[string]int{"Query": 1}
	steps := []struct {
		name    string
		before  func()
		account string
		seen    func() []string
		want    func() []string
		reads   map[string]int
	}{
		{name: "first call reads the list", want: func() []string { return []string{a} }, reads: query},
		{name: "second call reads nothing", want: func() []string { return []string{a} }, reads: map[string]int{}},
		{name: "another account is apart", account: other.ID, want: func() []string { return nil }, reads: query},
		{name: "a warehouse created elsewhere is not seen yet", before: func() {
			var err error
			if elsewhere, err = warehouses.CreateElsewhere(ctx, env.Deps.Table, acct.ID, "Elsewhere"); err != nil {
				t.Fatal(err)
			}
		}, want: func() []string { return []string{a} }, reads: map[string]int{}},
		{name: "naming it reads the list again", seen: func() []string { return []string{a, elsewhere} },
			want: func() []string { return []string{a, elsewhere} }, reads: query},
		{name: "archiving here drops the copy", before: func() {
			if r := c.Do(http.MethodPut, "/warehouses/"+a, `{"warehouse":{"archived":true}}`); r.Status != http.StatusOK {
				t.Fatalf("archive: %d %s", r.Status, r)
			}
		}, want: func() []string { return []string{elsewhere} }, reads: query},
		{name: "creating here drops the copy", before: func() { b = create(t, c, `{"warehouse":{"name":"B"}}`) },
			want: func() []string { return []string{elsewhere, b} }, reads: query},
		{name: "the copy expires", before: func() { time.Sleep(warehouses.CacheTTL) },
			want: func() []string { return []string{elsewhere, b} }, reads: query},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if s.before != nil {
				s.before()
			}
			account, seen := acct.ID, []string(nil)
			if s.account != "" {
				account = s.account
			}
			if s.seen != nil {
				seen = s.seen()
			}
			mctx, meter := store.WithMeter(ctx)
			all, err := svc.Cached(mctx, account, seen)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range warehouses.Allocatable(all) {
				got = append(got, w.UUID)
			}
			if want := s.want(); !slices.Equal(got, want) {
				t.Errorf("warehouses = %v, want %v", got, want)
			}
			if got := meter.Ops(); !maps.Equal(got, s.reads) {
				t.Errorf("DynamoDB calls %v, want %v", got, s.reads)
			}
		})
	}
}
