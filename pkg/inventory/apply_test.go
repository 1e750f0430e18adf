package inventory

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/multisell/multisell/pkg/store"
)

// TestItemUpdate checks the update of each kind of item: the invariant is
// kept in the expression, PATCH never creates, and every name and value
// sent is used (DynamoDB refuses unused ones).
func TestItemUpdate(t *testing.T) {
	t.Parallel()
	one, minus, cost, bin, reason := int64(1), int64(-3), 2.5, "B-1", "returned"
	tests := []struct {
		name   string
		method string
		item   Item
		late   bool
		want   []string
	}{
		{"patch delta", MethodPatch, Item{SKU: "A", Warehouse: wh, OnHandDelta: &minus, Reason: &reason}, false,
			[]string{"#on_hand = #on_hand + :d", "#available = #available + :d", "#chg_after = #on_hand + :d", "#on_hand >= :lim", "#chg_reason = :chg_reason", "REMOVE #chg_ref", "#last_request = :req", "#last_request < :req"}},
		{"patch delta, late", MethodPatch, Item{SKU: "A", Warehouse: wh, OnHandDelta: &one}, true,
			[]string{"#on_hand = #on_hand + :d", "#on_hand <= :lim", "#last_request > :req", "#chg_req <> :req"}},
		{"compare and set", MethodPatch, Item{SKU: "A", Warehouse: wh, OnHand: &one, IfOnHand: &one}, false,
			[]string{"#on_hand = :if", "#chg_before = if_not_exists(#on_hand, :zero)"}},
		{"put on_hand", MethodPut, Item{SKU: "A", Warehouse: wh, OnHand: &one}, false,
			[]string{"#on_hand = :x", "#available = :x - if_not_exists(#reserved, :zero)", "#created_by = if_not_exists(#created_by, :req)"}},
		{"put available", MethodPut, Item{SKU: "A", Warehouse: wh, Available: &one}, false,
			[]string{"#on_hand = :x + if_not_exists(#reserved, :zero)", "#available = :x", "#GSI1PK = :GSI1PK"}},
		{"patch with fields", MethodPatch, Item{SKU: "A", Warehouse: wh, OnHand: &one, Cost: &cost, BinLocation: &bin, Clear: []string{attrDescription}}, false,
			[]string{"#cost = :cost", "#bin_location = :bin_location", "REMOVE #description", "attribute_exists(#PK)"}},
	}
	placeholder := regexp.MustCompile(`[:#][A-Za-z0-9_]+`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			adj := Adjustment{RequestID: "r", Account: "acct", Method: tt.method, Items: []Item{tt.item}}
			in := itemUpdate(store.Table{Name: "T"}, adj, tt.item, "2024-01-01T00:00:00Z", tt.late)
			exprs := aws.ToString(in.UpdateExpression) + " " + aws.ToString(in.ConditionExpression)
			for _, w := range tt.want {
				if !strings.Contains(exprs, w) {
					t.Errorf("%q lacks %q", exprs, w)
				}
			}
			if tt.method == MethodPatch && strings.Contains(exprs, "created_by") {
				t.Errorf("PATCH sets created_by: %q", exprs)
			}
			if tt.late && strings.Contains(exprs, "#last_request = :req") {
				t.Errorf("a late delta sets the last request: %q", exprs)
			}
			used := map[string]bool{}
			for _, p := range placeholder.FindAllString(exprs, -1) {
				used[p] = true
			}
			for name := range in.ExpressionAttributeNames {
				if !used[name] {
					t.Errorf("unused name %s", name)
				}
			}
			for v := range in.ExpressionAttributeValues {
				if !used[v] {
					t.Errorf("unused value %s", v)
				}
			}
			for p := range used {
				_, isName := in.ExpressionAttributeNames[p]
				_, isValue := in.ExpressionAttributeValues[p]
				if !isName && !isValue {
					t.Errorf("undefined placeholder %s", p)
				}
			}
		})
	}
}

func TestReasonOf(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxReason) // two bytes each: the cut falls inside one at an odd length
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"short", errors.New("no items"), "no items"},
		{"long, cut between characters", errors.New(long), strings.Repeat("é", maxReason/2)},
		{"long, cut inside a character", errors.New("x" + long), "x" + strings.Repeat("é", (maxReason-1)/2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := reasonOf(tt.err)
			if got != tt.want || !utf8.ValidString(got) || len(got) > maxReason {
				t.Errorf("reasonOf = %q (%d bytes), want %q", got, len(got), tt.want)
			}
		})
	}
}
