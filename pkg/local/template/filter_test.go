package template

import (
	"strings"
	"testing"
)

// record is a DynamoDB stream record as Lambda's filter sees it.
const record = `{
  "eventID": "1",
  "eventName": "MODIFY",
  "eventVersion": "1.1",
  "eventSource": "aws:dynamodb",
  "awsRegion": "us-east-1",
  "dynamodb": {
    "ApproximateCreationDateTime": 1700000000,
    "Keys": {"PK": {"S": "acct#INV"}, "SK": {"S": "SKU-1"}},
    "NewImage": {
      "PK": {"S": "acct#INV"}, "SK": {"S": "SKU-1"},
      "qty": {"N": "5"}, "active": {"BOOL": true}, "note": {"NULL": true},
      "tags": {"SS": ["red", "blue"]},
      "lines": {"L": [{"M": {"sku": {"S": "A"}}}, {"M": {"sku": {"S": "B"}}}]}
    },
    "OldImage": {"PK": {"S": "acct#INV"}, "SK": {"S": "SKU-1"}, "qty": {"N": "4"}},
    "SequenceNumber": "100",
    "SizeBytes": 120,
    "StreamViewType": "NEW_AND_OLD_IMAGES"
  },
  "eventSourceARN": "arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/x",
  "extra": {"n": 7.5, "b": false, "z": null, "list": [1, 2, 3], "text": "Hello World"}
}`

func TestFilterMatch(t *testing.T) {
	t.Parallel()
	event, err := DecodeFilterEvent([]byte(record))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		pattern string
		want    bool
	}{
		{"exact string", `{"eventName": ["MODIFY"]}`, true},
		{"exact string, other value", `{"eventName": ["INSERT"]}`, false},
		{"list is OR", `{"eventName": ["INSERT", "MODIFY"]}`, true},
		{"nested objects are AND", `{"eventName": ["MODIFY"], "dynamodb": {"Keys": {"SK": {"S": ["SKU-1"]}}}}`, true},
		{"AND with one failing field", `{"eventName": ["MODIFY"], "dynamodb": {"Keys": {"SK": {"S": ["SKU-2"]}}}}`, false},
		{"suffix, the template's key filter", `{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#INV"},{"suffix":"#WH"}]}}}}`, true},
		{"suffix no match", `{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#WH"},{"suffix":"#CH"}]}}}}`, false},
		{"prefix", `{"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"acct#"}]}}}}`, true},
		{"prefix no match", `{"dynamodb":{"Keys":{"PK":{"S":[{"prefix":"other#"}]}}}}`, false},
		{"prefix on a number field", `{"dynamodb":{"SizeBytes":[{"prefix":"1"}]}}`, false},
		{"equals-ignore-case", `{"eventName":[{"equals-ignore-case":"modify"}]}`, true},
		{"equals-ignore-case no match", `{"eventName":[{"equals-ignore-case":"insert"}]}`, false},
		{"exact number", `{"dynamodb":{"SizeBytes":[120]}}`, true},
		{"exact number, other spelling", `{"dynamodb":{"SizeBytes":[1.2e2]}}`, true},
		{"exact number is not a string", `{"dynamodb":{"SizeBytes":["120"]}}`, false},
		{"a string is not a number", `{"dynamodb":{"NewImage":{"qty":{"N":[5]}}}}`, false},
		{"exact bool", `{"extra":{"b":[false]}}`, true},
		{"exact bool no match", `{"extra":{"b":[true]}}`, false},
		{"DynamoDB BOOL", `{"dynamodb":{"NewImage":{"active":{"BOOL":[true]}}}}`, true},
		{"exact null", `{"extra":{"z":[null]}}`, true},
		{"null does not match a value", `{"extra":{"b":[null]}}`, false},
		{"null does not match an absent field", `{"extra":{"absent":[null]}}`, false},
		{"anything-but value", `{"eventName":[{"anything-but":"REMOVE"}]}`, true},
		{"anything-but the value", `{"eventName":[{"anything-but":"MODIFY"}]}`, false},
		{"anything-but list", `{"eventName":[{"anything-but":["REMOVE","INSERT"]}]}`, true},
		{"anything-but list with the value", `{"eventName":[{"anything-but":["REMOVE","MODIFY"]}]}`, false},
		{"anything-but number", `{"dynamodb":{"SizeBytes":[{"anything-but":[120]}]}}`, false},
		{"anything-but other number", `{"dynamodb":{"SizeBytes":[{"anything-but":[121]}]}}`, true},
		{"anything-but absent field", `{"nothing":[{"anything-but":"x"}]}`, false},
		{"anything-but prefix", `{"eventName":[{"anything-but":{"prefix":"INS"}}]}`, true},
		{"anything-but prefix matching", `{"eventName":[{"anything-but":{"prefix":"MOD"}}]}`, false},
		{"anything-but suffix", `{"eventName":[{"anything-but":{"suffix":"IFY"}}]}`, false},
		{"anything-but equals-ignore-case", `{"eventName":[{"anything-but":{"equals-ignore-case":"modify"}}]}`, false},
		{"exists true", `{"dynamodb":{"OldImage":{"qty":{"N":[{"exists":true}]}}}}`, true},
		{"exists true, absent", `{"dynamodb":{"OldImage":{"price":{"N":[{"exists":true}]}}}}`, false},
		{"exists false, absent", `{"dynamodb":{"OldImage":{"price":{"N":[{"exists":false}]}}}}`, true},
		{"exists false, present", `{"dynamodb":{"OldImage":{"qty":{"N":[{"exists":false}]}}}}`, false},
		{"exists only sees leaves", `{"dynamodb":{"OldImage":{"qty":[{"exists":true}]}}}`, false},
		{"exists true on null", `{"extra":{"z":[{"exists":true}]}}`, true},
		{"exists false OR a value", `{"extra":{"absent":[{"exists":false},"x"]}}`, true},
		{"numeric =", `{"dynamodb":{"SizeBytes":[{"numeric":["=",120]}]}}`, true},
		{"numeric >", `{"dynamodb":{"SizeBytes":[{"numeric":[">",120]}]}}`, false},
		{"numeric >=", `{"dynamodb":{"SizeBytes":[{"numeric":[">=",120]}]}}`, true},
		{"numeric <", `{"extra":{"n":[{"numeric":["<",8]}]}}`, true},
		{"numeric <=", `{"extra":{"n":[{"numeric":["<=",7.4]}]}}`, false},
		{"numeric range", `{"extra":{"n":[{"numeric":[">",7,"<=",7.5]}]}}`, true},
		{"numeric range outside", `{"extra":{"n":[{"numeric":[">=",0,"<",7.5]}]}}`, false},
		{"numeric on a DynamoDB N (a string)", `{"dynamodb":{"NewImage":{"qty":{"N":[{"numeric":[">",0]}]}}}}`, false},
		{"list in the event: any element", `{"extra":{"list":[2]}}`, true},
		{"list in the event: no element", `{"extra":{"list":[4]}}`, false},
		{"string set", `{"dynamodb":{"NewImage":{"tags":{"SS":["blue"]}}}}`, true},
		{"list of maps", `{"dynamodb":{"NewImage":{"lines":{"L":{"M":{"sku":{"S":["B"]}}}}}}}`, true},
		{"absent field", `{"nothing":["x"]}`, false},
		{"path through a leaf", `{"eventName":{"x":["MODIFY"]}}`, false},
		{"object is not a value", `{"dynamodb":{"Keys":["x"]}}`, false},
		{"exact value with spaces", `{"extra":{"text":["Hello World"]}}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFilterPattern(tc.pattern)
			if err != nil {
				t.Fatalf("ParseFilterPattern(%s): %v", tc.pattern, err)
			}
			if got := p.Match(event); got != tc.want {
				t.Errorf("Match(%s) = %v, want %v", tc.pattern, got, tc.want)
			}
		})
	}
}

func TestFilterMatchAny(t *testing.T) {
	t.Parallel()
	event, err := DecodeFilterEvent([]byte(`{"eventName":"INSERT","dynamodb":{"Keys":{"PK":{"S":"a#P"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	parse := func(srcs ...string) []*FilterPattern {
		var out []*FilterPattern
		for _, s := range srcs {
			p, err := ParseFilterPattern(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
		return out
	}
	tests := []struct {
		name     string
		patterns []*FilterPattern
		want     bool
	}{
		{"no filters: everything", nil, true},
		{"one matching", parse(`{"eventName":["INSERT"]}`), true},
		{"one not matching", parse(`{"eventName":["REMOVE"]}`), false},
		{"filters are OR", parse(`{"eventName":["REMOVE"]}`, `{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#P"}]}}}}`), true},
		{"none of several", parse(`{"eventName":["REMOVE"]}`, `{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#X"}]}}}}`), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := MatchAny(tc.patterns, event); got != tc.want {
				t.Errorf("MatchAny = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestParseFilterPatternErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		pattern string
		want    string // part of the error
	}{
		{"not JSON", `{"a":`, "not valid JSON"},
		{"trailing data", `{"a":["x"]} {}`, "data after"},
		{"not an object", `["a"]`, "must be a JSON object"},
		{"empty", `{}`, "empty"},
		{"empty nested object", `{"a":{}}`, "a is an empty object"},
		{"scalar leaf", `{"a":"x"}`, "must be a list"},
		{"number leaf", `{"a":{"b":5}}`, "a.b must be a list"},
		{"empty list", `{"a":[]}`, "empty list"},
		{"list in list", `{"a":[["x"]]}`, "list inside a list"},
		{"unknown operator", `{"a":[{"wildcard":"x*"}]}`, `operator "wildcard" is not supported`},
		{"cidr", `{"a":[{"cidr":"10.0.0.0/24"}]}`, `"cidr" is not supported`},
		{"two keys", `{"a":[{"prefix":"x","suffix":"y"}]}`, "exactly one key"},
		{"prefix of a number", `{"a":[{"prefix":5}]}`, "prefix takes a string"},
		{"prefix with nested operator", `{"a":[{"prefix":{"equals-ignore-case":"x"}}]}`, "prefix takes a string"},
		{"suffix of null", `{"a":[{"suffix":null}]}`, "suffix takes a string"},
		{"equals-ignore-case of a list", `{"a":[{"equals-ignore-case":["x"]}]}`, "equals-ignore-case takes a string"},
		{"exists of a string", `{"a":[{"exists":"true"}]}`, "exists takes true or false"},
		{"anything-but of a bool", `{"a":[{"anything-but":true}]}`, "anything-but takes strings or numbers"},
		{"anything-but empty list", `{"a":[{"anything-but":[]}]}`, "non-empty list"},
		{"anything-but list with null", `{"a":[{"anything-but":["x",null]}]}`, "anything-but takes strings or numbers"},
		{"anything-but wildcard", `{"a":[{"anything-but":{"wildcard":"x"}}]}`, `anything-but operator "wildcard"`},
		{"anything-but prefix of a number", `{"a":[{"anything-but":{"prefix":1}}]}`, "takes a string"},
		{"numeric not a list", `{"a":[{"numeric":5}]}`, "numeric takes"},
		{"numeric three items", `{"a":[{"numeric":[">",1,"<"]}]}`, "numeric takes"},
		{"numeric bad operator", `{"a":[{"numeric":["!=",1]}]}`, `operator "!=" is not supported`},
		{"numeric string value", `{"a":[{"numeric":[">","1"]}]}`, "is not a number"},
		{"numeric range upside down", `{"a":[{"numeric":["<",5,">",1]}]}`, "lower bound"},
		{"numeric empty range", `{"a":[{"numeric":[">",5,"<",1]}]}`, "empty"},
		{"numeric out of range", `{"a":[{"numeric":[">",1e999]}]}`, "not a usable number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFilterPattern(tc.pattern)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseFilterPattern(%s) = %v, want an error containing %q", tc.pattern, err, tc.want)
			}
		})
	}
}

// FuzzParseFilterPattern: the parser never panics, and a pattern it accepts can be matched
// against any event without panicking.
func FuzzParseFilterPattern(f *testing.F) {
	for _, seed := range []string{
		`{"dynamodb":{"Keys":{"PK":{"S":[{"suffix":"#INV"},{"suffix":"#WH"}]}}}}`,
		`{"eventName":["INSERT","MODIFY"],"dynamodb":{"NewImage":{"x":{"N":[{"exists":false}]}}}}`,
		`{"a":[{"numeric":[">",0,"<=",5]},{"anything-but":["x",1]},null,true,1.5,"s"]}`,
		`{"a":[{"anything-but":{"prefix":"p"}},{"equals-ignore-case":"E"},{"prefix":""}]}`,
		`{"a":[]}`, `{}`, `[]`, `{"a":[{"numeric":["<",1,">",0]}]}`,
	} {
		f.Add(seed, record)
	}
	f.Fuzz(func(t *testing.T, pattern, event string) {
		p, err := ParseFilterPattern(pattern)
		if err != nil {
			return
		}
		if p.Source != pattern {
			t.Fatalf("Source = %q, want %q", p.Source, pattern)
		}
		if v, err := DecodeFilterEvent([]byte(event)); err == nil {
			p.Match(v)
		}
		p.Match(nil)
	})
}
