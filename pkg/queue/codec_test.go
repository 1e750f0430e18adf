package queue

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestEncodeDecode(t *testing.T) {
	t.Parallel()
	in := map[string]string{"sku": "A/B C+#? 😀 ü", "big": strings.Repeat("x", 100_000)}
	body, err := Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range body {
		if r > 127 {
			t.Fatalf("body is not ASCII: %q", r)
		}
	}
	if len(body) > 10_000 {
		t.Errorf("body of %d bytes: not compressed", len(body))
	}
	var out map[string]string
	if err := Decode(body, &out); err != nil || out["sku"] != in["sku"] || out["big"] != in["big"] {
		t.Fatalf("round trip: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	good, _ := Encode(map[string]int{"a": 1})
	for _, s := range []string{good, "", "not base64", "H4sIAAAAAAAA/w==", good[:len(good)/2]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		var v any
		if err := Decode(body, &v); err != nil {
			return
		}
		// Whatever decodes survives a round trip of its own.
		again, err := Encode(v)
		if err != nil {
			t.Fatalf("re-encode %#v: %v", v, err)
		}
		var w any
		if err := Decode(again, &w); err != nil || !reflect.DeepEqual(v, w) {
			t.Fatalf("round trip of %#v gave %#v, %v", v, w, err)
		}
	})
}

func TestPlain(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in   any
		want string
	}{
		{map[string]string{"sku": "A"}, `{"sku":"A"}`},
		{"é", `"\u00e9"`},
		{"𝄞", `"\ud834\udd1e"`},
		{"<&>", `"\u003c\u0026\u003e"`},
	}
	for _, tc := range cases {
		got, err := Plain(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("Plain(%v) = %s, %v; want %s", tc.in, got, err, tc.want)
		}
		var back any
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("Plain(%v) = %s is not JSON: %v", tc.in, got, err)
		}
	}
}
