package usageplans

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// fakeGateway is an in-memory Gateway that records what was asked of it.
type fakeGateway struct {
	plans   []Plan
	keys    map[string]string   // id -> value
	members map[string][]string // plan id -> key ids
	failOn  string              // the call that fails
}

var errFake = errors.New("fake failure")

func (f *fakeGateway) Plans(context.Context) ([]Plan, error) {
	if f.failOn == "Plans" {
		return nil, errFake
	}
	return f.plans, nil
}

func (f *fakeGateway) CreatePlan(_ context.Context, name string, rate float64, burst int) (Plan, error) {
	if f.failOn == "CreatePlan" {
		return Plan{}, errFake
	}
	p := Plan{ID: fmt.Sprintf("plan%d", len(f.plans)+1), Name: name, Rate: rate, Burst: burst}
	f.plans = append(f.plans, p)
	return p, nil
}

func (f *fakeGateway) CreateKey(_ context.Context, _, value string) (string, error) {
	if f.failOn == "CreateKey" {
		return "", errFake
	}
	id := fmt.Sprintf("key%d", len(f.keys)+1)
	f.keys[id] = value
	return id, nil
}

func (f *fakeGateway) AddKey(_ context.Context, planID, keyID string) error {
	if f.failOn == "AddKey" {
		return errFake
	}
	f.members[planID] = append(f.members[planID], keyID)
	return nil
}

func TestRegister(t *testing.T) {
	t.Parallel()
	defaultPlan := Plan{ID: "tmpl", Name: "stack-rps-2", Rate: 2, Burst: 2}
	cases := []struct {
		name      string
		plans     []Plan
		rps       int
		wantPlan  string // the plan the key ends on
		wantPlans int    // plans afterwards
	}{
		{"the template's plan for the default rate", []Plan{defaultPlan}, 2, "tmpl", 1},
		{"a new plan for a new rate", []Plan{defaultPlan}, 5, "plan2", 2},
		{"an existing plan of that rate", []Plan{defaultPlan, {ID: "p5", Rate: 5, Burst: 5}}, 5, "p5", 2},
		{"not a plan of another burst", []Plan{{ID: "p5", Rate: 5, Burst: 10}}, 5, "plan2", 2},
		{"the first by id of two", []Plan{{ID: "b", Rate: 3, Burst: 3}, {ID: "a", Rate: 3, Burst: 3}}, 3, "a", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeGateway{plans: slices.Clone(c.plans), keys: map[string]string{}, members: map[string][]string{}}
			r := Registrar{Gateway: f, Prefix: "multisell-api"}
			if err := r.Register(context.Background(), "acct_0123456789abcdef0123", c.rps); err != nil {
				t.Fatal(err)
			}
			if got := f.members[c.wantPlan]; !slices.Equal(got, []string{"key1"}) {
				t.Errorf("plan %s has keys %v, want [key1] (members %v)", c.wantPlan, got, f.members)
			}
			if got := f.keys["key1"]; got != "acct_0123456789abcdef0123" {
				t.Errorf("key value %q, want the account id", got)
			}
			if len(f.plans) != c.wantPlans {
				t.Errorf("%d plans, want %d", len(f.plans), c.wantPlans)
			}
			if c.wantPlan == "plan2" {
				if got, want := f.plans[len(f.plans)-1], (Plan{ID: "plan2", Name: "multisell-api-rps-5", Rate: 5, Burst: 5}); got != want {
					t.Errorf("created %+v, want %+v", got, want)
				}
			}
		})
	}
}

// TestRegisterFailures: a failing call stops the registration there, with
// its error; a failure before the key leaves no key.
func TestRegisterFailures(t *testing.T) {
	t.Parallel()
	for _, call := range []string{"Plans", "CreatePlan", "CreateKey", "AddKey"} {
		t.Run(call, func(t *testing.T) {
			t.Parallel()
			f := &fakeGateway{keys: map[string]string{}, members: map[string][]string{}, failOn: call}
			err := Registrar{Gateway: f, Prefix: "p"}.Register(context.Background(), "acct_x", 4)
			if !errors.Is(err, errFake) {
				t.Fatalf("got %v, want the fake's error", err)
			}
			if got, want := len(f.keys) > 0, call == "AddKey"; got != want {
				t.Errorf("key created: %v, want %v", got, want)
			}
		})
	}
	if err := (Registrar{Gateway: &fakeGateway{}}).Register(context.Background(), "acct_x", 0); err == nil {
		t.Error("rps 0 accepted")
	}
}
