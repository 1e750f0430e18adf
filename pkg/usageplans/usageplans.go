// Package usageplans gives each account its API key on the API Gateway usage
// plan of its per-second rate, so that API Gateway throttles every account
// on its own: the API's key source is the authorizer, which names the
// account's key (accounts.APIKey) as the request's usage identifier. There
// is one plan per distinct rate (rate and burst both the account's rps),
// found on the API's stage or created when none has that rate yet; the
// template creates the plan of the default rate. The decisions are in
// docs/decisions.md (Rate limits); the local gateway reads the account's
// rate instead (pkg/local/gateway).
package usageplans

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/accounts"
)

// Plan is a usage plan of the API's stage and its throttle.
type Plan struct {
	ID    string
	Name  string
	Rate  float64
	Burst int
}

// Gateway is what the Registrar asks of API Gateway (AWS implements it
// against the API Gateway API).
type Gateway interface {
	// Plans lists the usage plans that apply to the API's stage.
	Plans(ctx context.Context) ([]Plan, error)
	// CreatePlan creates a usage plan on the API's stage throttled to rate
	// requests per second with a burst of burst.
	CreatePlan(ctx context.Context, name string, rate float64, burst int) (Plan, error)
	// CreateKey creates an enabled API key and returns its id.
	CreateKey(ctx context.Context, name, value string) (string, error)
	// AddKey puts the API key keyID on the usage plan planID.
	AddKey(ctx context.Context, planID, keyID string) error
}

// Registrar implements accounts.KeyRegistrar on a Gateway.
type Registrar struct {
	Gateway Gateway
	// Prefix starts the names of the plans it creates: <Prefix>-rps-<N>.
	Prefix string
}

// Register creates the API key of account and puts it on the plan of rps:
// a plan of the stage throttled to exactly rps with a burst of rps, created
// when there is none.
func (r Registrar) Register(ctx context.Context, account string, rps int) error {
	if rps < 1 {
		return fmt.Errorf("usage plan for %d requests per second: must be at least 1", rps)
	}
	plan, err := r.plan(ctx, rps)
	if err != nil {
		return err
	}
	keyID, err := r.Gateway.CreateKey(ctx, account, accounts.APIKey(account))
	if err != nil {
		return fmt.Errorf("create API key: %w", err)
	}
	if err := r.Gateway.AddKey(ctx, plan.ID, keyID); err != nil {
		return fmt.Errorf("add API key %s to usage plan %s: %w", keyID, plan.Name, err)
	}
	return nil
}

// plan finds or creates the plan of rps.
func (r Registrar) plan(ctx context.Context, rps int) (Plan, error) {
	plans, err := r.Gateway.Plans(ctx)
	if err != nil {
		return Plan{}, fmt.Errorf("list usage plans: %w", err)
	}
	if p, ok := Choose(plans, rps); ok {
		return p, nil
	}
	p, err := r.Gateway.CreatePlan(ctx, PlanName(r.Prefix, rps), float64(rps), rps)
	if err != nil {
		return Plan{}, fmt.Errorf("create usage plan: %w", err)
	}
	return p, nil
}

// Choose returns the plan throttled to rps with a burst of rps; of several,
// the first by id, so that every run picks the same one.
func Choose(plans []Plan, rps int) (Plan, bool) {
	var best Plan
	found := false
	for _, p := range plans {
		if p.Rate == float64(rps) && p.Burst == rps && (!found || p.ID < best.ID) {
			best, found = p, true
		}
	}
	return best, found
}

// PlanName is the name of a plan the Registrar creates for rps.
func PlanName(prefix string, rps int) string { return fmt.Sprintf("%s-rps-%d", prefix, rps) }
