package push

import (
	"reflect"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

func TestParseOutcome(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body    string
		want    Result
		invalid bool
	}{
		{`{"ok":true}`, Result{OK: true}, false},
		{`{"ok":false,"error":"no such item"}`, Result{Error: text("no such item")}, false},
		{`{"ok":"true","error":null}`, Result{OK: true}, false},
		{`{"error":"x"}`, Result{}, true},
		{`{"ok":null}`, Result{}, true},
		{`{"ok":false,"error":[1]}`, Result{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.body, func(t *testing.T) {
			t.Parallel()
			obj, err := lenient.DecodeObject(tc.body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseOutcome(obj)
			if gotInvalid := errs.KindOf(err) == errs.KindInvalid; gotInvalid != tc.invalid || (err != nil && !gotInvalid) {
				t.Fatalf("err = %v, want invalid %v", err, tc.invalid)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}
