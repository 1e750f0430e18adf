package catalog

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/multisell/multisell/pkg/lenient"
)

func TestSnakeCase(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"color", "color"},
		{"Color", "color"},
		{"Shoe Size", "shoe_size"},
		{"shoe-size", "shoe_size"},
		{"shoeSize", "shoe_size"},
		{"ShoeSize", "shoe_size"},
		{"HTMLColor", "html_color"},
		{"already_snake_case", "already_snake_case"},
		{"  __Size__  ", "size"},
		{"Size (US)", "size_us"},
		{"size2", "size2"},
		{"Größe", "größe"},
		{"颜色", "颜色"},
		{"A/B C+#?", "a_b_c"},
		{"!!!", ""},
		{"", ""},
	} {
		if got := SnakeCase(tc.in); got != tc.want {
			t.Errorf("SnakeCase(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzSnakeCase(f *testing.F) {
	for _, s := range []string{"Shoe Size", "HTMLColor", "a_b", "Größe", "ǅemal", "ϒϒa", "\x00x", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SnakeCase(s)
		if !utf8.ValidString(got) || strings.HasPrefix(got, "_") || strings.HasSuffix(got, "_") || strings.Contains(got, "__") {
			t.Fatalf("SnakeCase(%q) = %q: not snake_case", s, got)
		}
		if again := SnakeCase(got); again != got {
			t.Fatalf("SnakeCase is not idempotent: %q -> %q -> %q", s, got, again)
		}
	})
}

func TestParseCustomAttributes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		body    string
		want    map[string]any
		wantErr string
	}{
		{body: `{"Color":"red","Shoe Size":10,"gift":true}`, want: map[string]any{"color": "red", "shoe_size": 10.0, "gift": true}},
		{body: `{"color":null,"size":"M"}`, want: map[string]any{"size": "M"}},
		{body: `{}`, want: map[string]any{}},
		{body: `{"Color":"red","color":"blue"}`, wantErr: `both "color"`},
		{body: `{"!!":"x"}`, wantErr: "must contain a letter or digit"},
		{body: `{"size":["S","M"]}`, wantErr: "custom_attributes.size must be a string, number or boolean"},
		{body: `{"size":{"eu":40}}`, wantErr: "custom_attributes.size must be a string, number or boolean"},
		{body: `{"size":1e300}`, wantErr: "custom_attributes.size must be between"},
		{body: `{"note":"` + strings.Repeat("x", maxAttributeValue+1) + `"}`, wantErr: "custom_attributes.note is too long"},
		{body: `{"Care Note":"line\nline\ttab"}`, want: map[string]any{"care_note": "line\nline\ttab"}},
		{body: `{"Care Note":"a\u0000b"}`, wantErr: "custom_attributes.care_note must not contain control characters"},
		{body: `{"note":"\u001b[31m"}`, wantErr: "custom_attributes.note must not contain control characters"},
		{body: `{"` + strings.Repeat("k", maxAttributeName+1) + `":1}`, wantErr: "is too long"},
	} {
		got, err := parseCustomAttributes(lenient.Field{Name: "custom_attributes", Raw: []byte(tc.body), Present: true})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: error %v, want %q", tc.body, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.body, err)
			continue
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.body, got, tc.want)
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: %s = %#v, want %#v", tc.body, k, got[k], v)
			}
		}
	}
}

func TestCombo(t *testing.T) {
	t.Parallel()
	keys := []string{"size", "color"}
	a, _ := combo(map[string]any{"size": "10", "color": "red", "x": 1.0}, keys)
	b, _ := combo(map[string]any{"size": 10.0, "color": "red"}, keys)
	c, _ := combo(map[string]any{"size": "10", "color": "Red"}, keys)
	d, _ := combo(map[string]any{"size": "10red", "color": ""}, keys)
	if a != b {
		t.Errorf("10 and \"10\" differ: %q %q", a, b)
	}
	if a == c {
		t.Error("red and Red are the same value")
	}
	if a == d {
		t.Error("values are not delimited")
	}
	if id, missing := combo(map[string]any{"size": "M"}, keys); id != "" || missing != "color" {
		t.Errorf("combo without color = %q, missing %q", id, missing)
	}
}
