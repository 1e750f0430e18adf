package warehouses

import (
	"context"
	"slices"
	"sort"
	"sync"
	"time"
)

// CacheTTL is how long a process (one Lambda instance) keeps its copy of
// an account's warehouse list (Cached). Create and Update drop the copy of
// their account in the process that makes them; another process sees an
// archive or a new priority within CacheTTL, and a new warehouse as soon as
// it names it.
const CacheTTL = 5 * time.Second

// maxCached is how many accounts' lists a process keeps before it drops
// the expired ones.
const maxCached = 1000

// listCache is this process's copy of each account's warehouse list, by
// account.
var listCache = struct {
	sync.Mutex
	m map[string]cachedList
}{m: map[string]cachedList{}}

type cachedList struct {
	all []Warehouse
	at  time.Time
}

// Cached is List from this process's copy of the account's list, read
// again (one Query) when the copy is older than CacheTTL or lacks any
// warehouse of seen: those the caller names (found stock records at, or
// was asked about), so that one created since by another process is never
// missed. Warehouses are never deleted, so a warehouse of the copy exists.
// The result is shared: the caller must not change it.
func (s Service) Cached(ctx context.Context, account string, seen []string) ([]Warehouse, error) {
	now := time.Now()
	listCache.Lock()
	c, ok := listCache.m[account]
	listCache.Unlock()
	if ok && now.Sub(c.at) < CacheTTL && knowsAll(c.all, seen) {
		return c.all, nil
	}
	all, err := s.List(ctx, account)
	if err != nil {
		return nil, err
	}
	keep(account, cachedList{all: all, at: now})
	return all, nil
}

// keep stores c as the account's copy, first dropping the expired copies
// when the process holds many.
func keep(account string, c cachedList) {
	listCache.Lock()
	defer listCache.Unlock()
	if len(listCache.m) >= maxCached {
		for a, old := range listCache.m {
			if c.at.Sub(old.at) >= CacheTTL {
				delete(listCache.m, a)
			}
		}
	}
	listCache.m[account] = c
}

// forget drops this process's copy of the account's list: its warehouses
// changed.
func forget(account string) {
	listCache.Lock()
	defer listCache.Unlock()
	delete(listCache.m, account)
}

// knowsAll reports whether every uuid of seen is one of all.
func knowsAll(all []Warehouse, seen []string) bool {
	for _, id := range seen {
		if !slices.ContainsFunc(all, func(w Warehouse) bool { return w.UUID == id }) {
			return false
		}
	}
	return true
}

// Allocatable returns the warehouses of all that allocation may use, in
// its order: those not archived, priority 1 first, ties by creation (all's
// order). all is not changed.
func Allocatable(all []Warehouse) []Warehouse {
	active := make([]Warehouse, 0, len(all))
	for _, w := range all {
		if !w.Archived {
			active = append(active, w)
		}
	}
	sort.SliceStable(active, func(i, j int) bool { return active[i].Priority < active[j].Priority })
	return active
}
