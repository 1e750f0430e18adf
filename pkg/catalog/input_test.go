package catalog

import (
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/lenient"
)

// mustObject decodes a JSON object body or fails the test.
func mustObject(t *testing.T, body string) lenient.Object {
	t.Helper()
	o, err := lenient.DecodeObject(body)
	if err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	return o
}

func TestParseProduct(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body string
		check      func(p Product) bool
		hasName    bool
		wantErr    string
	}{
		{name: "numeric strings", body: `{"name":"Tee","price":"9.5","quantity":"3","package_weight":2}`, hasName: true,
			check: func(p Product) bool { return *p.Price == 9.5 && *p.Quantity == 7 && *p.PackageWeight == 2 }},
		{name: "text from number", body: `{"upc":123456789012}`,
			check: func(p Product) bool { return *p.UPC == "123456789012" }},
		{name: "null clears", body: `{"brand":null,"features":null,"custom_attributes":null}`,
			check: func(p Product) bool { return p.Brand == nil && p.Features == nil && p.CustomAttributes == nil }},
		{name: "blank clears", body: `{"brand":"  "}`, check: func(p Product) bool { return p.Brand == nil }},
		{name: "trimmed", body: `{"brand":" Acme "}`, check: func(p Product) bool { return *p.Brand == "Acme" }},
		{name: "condition any case", body: `{"condition":"Used"}`, check: func(p Product) bool { return *p.Condition == "used" }},
		{name: "single feature", body: `{"features":"Soft"}`, check: func(p Product) bool { return len(p.Features) == 1 && p.Features[0] == "Soft" }},
		{name: "image list", body: `{"image_list":["a.jpg",""," b.jpg"]}`,
			check: func(p Product) bool { return strings.Join(p.ImageList, ",") == "a.jpg,b.jpg" }},
		{name: "rounded", body: `{"price":1.23456789}`, check: func(p Product) bool { return *p.Price == 1.234568 }},
		{name: "unknown ignored", body: `{"colour":"red","parent_sku":"X","id":9}`,
			check: func(p Product) bool { return p.ParentSKU == nil && p.ID == 0 }},
		{name: "bad condition", body: `{"condition":"mint"}`, wantErr: "condition must be one of new, used, reconditioned"},
		{name: "condition type", body: `{"condition":true}`, wantErr: "condition must be a string"},
		{name: "price type", body: `{"price":"cheap"}`, wantErr: "price must be a number"},
		{name: "price object", body: `{"price":{"amount":1}}`, wantErr: "price must be a number"},
		{name: "negative", body: `{"cost":-1}`, wantErr: "cost must be between 0 and"},
		{name: "huge", body: `{"msrp":1e13}`, wantErr: "msrp must be between 0 and"},
		// quantity is derived from inventory: a written one, valid or not, is ignored.
		{name: "quantity ignored", body: `{"quantity":5}`, check: func(p Product) bool { return *p.Quantity == 7 }},
		{name: "fraction quantity ignored", body: `{"quantity":1.5}`, check: func(p Product) bool { return *p.Quantity == 7 }},
		{name: "negative quantity ignored", body: `{"quantity":-1}`, check: func(p Product) bool { return *p.Quantity == 7 }},
		{name: "text quantity ignored", body: `{"quantity":"abc"}`, check: func(p Product) bool { return *p.Quantity == 7 }},
		{name: "null quantity ignored", body: `{"quantity":null}`, check: func(p Product) bool { return *p.Quantity == 7 }},
		{name: "huge quantity ignored", body: `{"quantity":3000000000,"brand":"B"}`,
			check: func(p Product) bool { return *p.Quantity == 7 && *p.Brand == "B" }},
		{name: "features type", body: `{"features":[1,{}]}`, wantErr: "features[1] must be a string"},
		{name: "features null element", body: `{"features":[null]}`, wantErr: "features[0] must be a string"},
		{name: "custom attributes array", body: `{"custom_attributes":["color:red"]}`, wantErr: "custom_attributes must be an object"},
		{name: "name null", body: `{"name":null}`, wantErr: "name can't be blank"},
		{name: "name blank", body: `{"name":" "}`, wantErr: "name can't be blank"},
		{name: "name long", body: `{"name":"` + strings.Repeat("n", maxName+1) + `"}`, wantErr: "name is too long"},
		{name: "too many images", body: `{"image_list":[` + strings.TrimSuffix(strings.Repeat(`"x",`, maxListItems+1), ",") + `]}`,
			wantErr: "image_list has 101 elements"},
	} {
		in, err := ParseProduct(mustObject(t, tc.body))
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
		if in.hasName != tc.hasName {
			t.Errorf("%s: hasName %v", tc.name, in.hasName)
		}
		start := Product{Brand: ptr("Old"), Features: []string{"old"}, CustomAttributes: map[string]any{"a": "b"}, Quantity: ptrI(7)}
		if p := in.apply(start); !tc.check(p) {
			t.Errorf("%s: applied %+v", tc.name, p)
		}
	}
}

func TestParseProductLeavesAbsentFields(t *testing.T) {
	t.Parallel()
	in, err := ParseProduct(mustObject(t, `{"price":5}`))
	if err != nil {
		t.Fatal(err)
	}
	p := in.apply(Product{Name: ptr("Tee"), Brand: ptr("Acme"), Price: ptrF(1)})
	if *p.Name != "Tee" || *p.Brand != "Acme" || *p.Price != 5 {
		t.Errorf("applied %+v", p)
	}
}

func TestCheckSize(t *testing.T) {
	t.Parallel()
	small := Product{Description: ptr(strings.Repeat("d", 1000))}
	if err := checkSize(small); err != nil {
		t.Errorf("small product: %v", err)
	}
	big := Product{Description: ptr(strings.Repeat("d", maxProductBytes))}
	if err := checkSize(big); err == nil || !strings.Contains(err.Error(), "product is too large") {
		t.Errorf("big product: %v", err)
	}
}

// FuzzParseProduct checks that no body makes the upsert parser panic or
// answer anything but a 4xx, and that what it accepts fits a product item.
func FuzzParseProduct(f *testing.F) {
	for _, s := range []string{
		`{"name":"Tee","price":"9.5","features":"x","custom_attributes":{"Shoe Size":10}}`,
		`{"condition":"NEW","quantity":"7","image_list":["a",""]}`,
		`{"name":null}`, `{"price":1e400}`, `{"custom_attributes":{"a":[1]}}`, `[]`, `"x"`, `{`, ``,
		`{"features":[null]}`, `{"upc":12.5e3}`, `{"name":"\u0000"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		o, err := lenient.DecodeObject(body)
		if err != nil {
			assertClientError(t, err)
			return
		}
		in, err := ParseProduct(o)
		if err != nil {
			assertClientError(t, err)
			return
		}
		p := in.apply(Product{SKU: "S"})
		if err := checkSize(p); err != nil {
			assertClientError(t, err)
		}
	})
}

// assertClientError fails unless err is an errs.Error of a kind the
// client caused.
func assertClientError(t *testing.T, err error) {
	t.Helper()
	if k := errs.KindOf(err); err == nil || k == errs.KindInternal {
		t.Fatalf("error %v is not the client's", err)
	}
}

func ptr(s string) *string { return &s }

func ptrF(f float64) *float64 { return &f }

func ptrI(i int64) *int64 { return &i }
