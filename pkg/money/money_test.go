package money

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
)

func TestParseString(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"0.6", "0.6"}, {"0.60", "0.6"}, {"12.50", "12.5"}, {"3", "3"}, {"-1.25", "-1.25"},
		{"1e2", "100"}, {"0.000001", "0.000001"}, {" 7.125 ", "7.125"}, {"1000000000000", "1000000000000"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			a, err := Parse(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := a.String(); got != tc.want {
				t.Errorf("Parse(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"", "abc", "1/3", "0.0000001", "1000000000001", "Inf", "0x10", "1_0", "NaN"} {
		t.Run(in, func(t *testing.T) {
			if _, err := Parse(in); !errors.Is(err, ErrNotAmount) {
				t.Errorf("Parse(%q) error = %v, want ErrNotAmount", in, err)
			}
		})
	}
}

// TestSumExact: 0.10 + 0.20 + 0.30 is 0.6 exactly, which float64 misses.
func TestSumExact(t *testing.T) {
	t.Parallel()
	var sum Amount
	for _, s := range []string{"0.10", "0.20", "0.30"} {
		a, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		sum += a
	}
	if got, want := sum, Cents(60); got != want {
		t.Errorf("sum = %s, want %s", got, want)
	}
}

func TestRoundTrips(t *testing.T) {
	t.Parallel()
	type doc struct {
		A *Amount `json:"a" dynamodbav:"a"`
		B *Amount `json:"b" dynamodbav:"b"`
	}
	a := Amount(600_000)
	in := doc{A: &a}
	t.Run("json", func(t *testing.T) {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(b), `{"a":0.6,"b":null}`; got != want {
			t.Errorf("json = %s, want %s", got, want)
		}
		var out doc
		if err := json.Unmarshal([]byte(`{"a":"0.60","b":null}`), &out); err != nil {
			t.Fatal(err)
		}
		if out.A == nil || *out.A != a || out.B != nil {
			t.Errorf("decoded %+v, want a 0.6 and b nil", out)
		}
	})
	t.Run("dynamodb", func(t *testing.T) {
		m, err := attributevalue.MarshalMap(in)
		if err != nil {
			t.Fatal(err)
		}
		var out doc
		if err := attributevalue.UnmarshalMap(m, &out); err != nil {
			t.Fatal(err)
		}
		if out.A == nil || *out.A != a || out.B != nil {
			t.Errorf("decoded %+v, want a 0.6 and b nil", out)
		}
	})
}
