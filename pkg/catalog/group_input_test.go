package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
	"github.com/multisell/multisell/pkg/sku"
)

func TestParseGroup(t *testing.T) {
	t.Parallel()
	many := make([]string, MaxChildren+1)
	for i := range many {
		many[i] = fmt.Sprintf(`"C%d"`, i)
	}
	for _, tc := range []struct {
		name, body string
		want       GroupInput
		wantErr    string
	}{
		{name: "full", body: `{"name":" Tee ","child_skus":["A","B","A"],"variation_attributes":["Shoe Size","color","shoe_size"],"description":"d","images":"i.jpg"}`,
			want: GroupInput{name: "Tee", children: []string{"A", "B"}, keys: []string{"shoe_size", "color"}, description: ptr("d"), images: []string{"i.jpg"}}},
		{name: "single child string", body: `{"name":"T","child_skus":"A","variation_attributes":"size"}`,
			want: GroupInput{name: "T", children: []string{"A"}, keys: []string{"size"}}},
		{name: "no name", body: `{"child_skus":["A"],"variation_attributes":["size"]}`, wantErr: "name is required"},
		{name: "null name", body: `{"name":null,"child_skus":["A"],"variation_attributes":["size"]}`, wantErr: "name is required"},
		{name: "blank name", body: `{"name":"","child_skus":["A"],"variation_attributes":["size"]}`, wantErr: "name can't be blank"},
		{name: "no children", body: `{"name":"T","variation_attributes":["size"]}`, wantErr: "child_skus is required"},
		{name: "empty children", body: `{"name":"T","child_skus":[],"variation_attributes":["size"]}`, wantErr: "child_skus must list 1 to 99 products"},
		{name: "too many children", body: `{"name":"T","child_skus":[` + strings.Join(many, ",") + `],"variation_attributes":["size"]}`, wantErr: "child_skus must list 1 to 99"},
		{name: "child type", body: `{"name":"T","child_skus":[{}],"variation_attributes":["size"]}`, wantErr: "child_skus must be an array of strings"},
		{name: "bad child sku", body: `{"name":"T","child_skus":["a\tb"],"variation_attributes":["size"]}`, wantErr: "child_skus[0] must be 1 to 255 characters"},
		{name: "child sku control", body: `{"name":"T","child_skus":["a\u0007"],"variation_attributes":["size"]}`, wantErr: "child_skus[0] must not contain control characters"},
		{name: "own child", body: `{"name":"T","child_skus":["G"],"variation_attributes":["size"]}`, wantErr: "can't be its own child"},
		{name: "no attributes", body: `{"name":"T","child_skus":["A"],"variation_attributes":[]}`, wantErr: "variation_attributes must list 1 to"},
		{name: "bad attribute", body: `{"name":"T","child_skus":["A"],"variation_attributes":["--"]}`, wantErr: "must contain a letter or digit"},
		{name: "images type", body: `{"name":"T","child_skus":["A"],"variation_attributes":["s"],"images":[1,{}]}`, wantErr: "images[1] must be a string"},
	} {
		got, err := ParseGroup("G", mustObject(t, tc.body))
		if tc.wantErr != "" {
			if e, ok := errs.As(err); !ok || e.Kind != errs.KindInvalid || !strings.Contains(e.Message, tc.wantErr) {
				t.Errorf("%s: error %v, want invalid %q", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got.name != tc.want.name || !slices.Equal(got.children, tc.want.children) || !slices.Equal(got.keys, tc.want.keys) ||
			!slices.Equal(got.images, tc.want.images) || (got.description == nil) != (tc.want.description == nil) {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// FuzzParseGroup checks that no body makes the group parser panic or
// answer anything but a 4xx, and that what it accepts obeys the limits.
func FuzzParseGroup(f *testing.F) {
	for _, s := range []string{
		`{"name":"Tee","child_skus":["A","B"],"variation_attributes":["Size"]}`,
		`{"name":"T","child_skus":"A","variation_attributes":"size","images":"x"}`,
		`{"name":1,"child_skus":[1,2],"variation_attributes":[true]}`, `{"child_skus":null}`, `[]`, `{`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		o, err := lenient.DecodeObject(body)
		if err != nil {
			assertClientError(t, err)
			return
		}
		in, err := ParseGroup("G", o)
		if err != nil {
			assertClientError(t, err)
			return
		}
		if in.name == "" || len(in.children) == 0 || len(in.children) > MaxChildren || len(in.keys) == 0 {
			t.Fatalf("accepted %+v", in)
		}
		for _, c := range in.children {
			if !sku.Valid(c) || c == "G" {
				t.Fatalf("accepted child %q", c)
			}
		}
	})
}
