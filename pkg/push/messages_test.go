package push

import (
	"encoding/json"
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

// TestHeaderFirst: a message embedding Header starts with its four fields,
// in the documented order.
func TestHeaderFirst(t *testing.T) {
	t.Parallel()
	b, err := json.Marshal(struct {
		Header
		Rest int `json:"rest"`
	}{Header{Type: "x.y", AccountID: "a", ChannelUUID: "c", ChannelType: "T"}, 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), `{"type":"x.y","account_id":"a","channel_uuid":"c","channel_type":"T","rest":1}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
