// Package demo fills an account with realistic data: the demo account of
// `make run` and the CLI's `seed`. Each domain contributes a step in a file
// of its own (channels_warehouses.go, catalog.go, ...), run in order.
// The sandboxes the local stack runs register their kinds here (kinds.go),
// each with its demo connection; ConnectSandbox is the generic sandbox's
// (sandbox.go).
package demo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/store"
)

// Sizes says how much to create.
type Sizes struct {
	Warehouses int `json:"warehouses"`
	Products   int `json:"products"`
	Orders     int `json:"orders"`
}

// DemoSizes are the sizes of the demo account `make run` creates.
var DemoSizes = Sizes{Warehouses: 3, Products: 40, Orders: 120}

// Env is what a step gets: the clients, the account to fill, a seeded
// random source (so the data is reproducible) and a progress callback.
type Env struct {
	Deps     *app.Deps
	Account  string
	Rand     *rand.Rand
	Progress func(step string, done, total int)
	// Run tells this seed's orders from an earlier seed's in their display
	// refs, so seeding an account again adds orders.
	Run string
}

// step is one domain's part of the seed.
type step struct {
	order int
	name  string
	run   func(ctx context.Context, e *Env, s Sizes) error
}

var steps []step

// register adds a step; lower order runs first (channels and warehouses 10,
// catalog 20, inventory 30, orders 40).
func register(order int, name string, run func(ctx context.Context, e *Env, s Sizes) error) {
	steps = append(steps, step{order, name, run})
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].order < steps[j].order })
}

// Seed runs every step for the account.
func Seed(ctx context.Context, d *app.Deps, account string, s Sizes, progress func(step string, done, total int)) error {
	if progress == nil {
		progress = func(string, int, int) {}
	}
	e := &Env{Deps: d, Account: account, Rand: rand.New(rand.NewPCG(42, uint64(len(account)))), Progress: progress,
		Run: store.NewID()[30:]}
	for _, st := range steps {
		if err := st.run(ctx, e, s); err != nil {
			return fmt.Errorf("seed %s: %w", st.name, err)
		}
	}
	return nil
}
