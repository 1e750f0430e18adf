package store

import (
	"encoding/json"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// record decodes a stream record written as Lambda sends it.
func record(t *testing.T, raw string) events.DynamoDBEventRecord {
	t.Helper()
	var r events.DynamoDBEventRecord
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChanges(t *testing.T) {
	t.Parallel()
	r := record(t, `{"eventName":"MODIFY","dynamodb":{"SequenceNumber":"42",
		"Keys":{"PK":{"S":"acct_1#INV"},"SK":{"S":"A\u001fW"}},
		"OldImage":{"PK":{"S":"acct_1#INV"},"SK":{"S":"A\u001fW"},"available":{"N":"3"},"tags":{"SS":["x","y"]},"m":{"M":{"k":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]}}}},
		"NewImage":{"PK":{"S":"acct_1#INV"},"SK":{"S":"A\u001fW"},"available":{"N":"5"},"tags":{"SS":["y","x"]},"m":{"M":{"k":{"L":[{"N":"1"},{"BOOL":true},{"NULL":true}]}}},"b":{"B":"AAE="}}}}`)
	got, err := Changes([]events.DynamoDBEventRecord{r})
	if err != nil || len(got) != 1 {
		t.Fatalf("Changes = %v, %v", got, err)
	}
	c := got[0]
	if c.Seq != "42" || c.Account != "acct_1" || c.Kind != "INV" || c.SK != "A\x1fW" || !c.Old.Exists() || !c.New.Exists() {
		t.Errorf("change = %+v", c)
	}
	cases := []struct {
		attr string
		same bool
	}{{"available", false}, {"m", true}, {"b", false}, {"missing", true}, {"PK", true}}
	for _, tc := range cases {
		if got := Same(c.Old, c.New, tc.attr); got != tc.same {
			t.Errorf("Same(%s) = %v, want %v", tc.attr, got, tc.same)
		}
	}
	var v struct {
		Available int64 `dynamodbav:"available"`
	}
	if err := c.New.Decode(&v); err != nil || v.Available != 5 {
		t.Errorf("Decode = %+v, %v", v, err)
	}
	if c.New.Text("SK") != "A\x1fW" || c.New.Text("available") != "" {
		t.Errorf("Text: %q %q", c.New.Text("SK"), c.New.Text("available"))
	}
}

func TestChangesInsertAndRemove(t *testing.T) {
	t.Parallel()
	ins := record(t, `{"eventName":"INSERT","dynamodb":{"SequenceNumber":"1","Keys":{"PK":{"S":"a#P"},"SK":{"S":"x"}},"NewImage":{"PK":{"S":"a#P"},"SK":{"S":"x"}}}}`)
	rem := record(t, `{"eventName":"REMOVE","dynamodb":{"SequenceNumber":"2","Keys":{"PK":{"S":"a#OX#all"},"SK":{"S":"x"}},"OldImage":{"PK":{"S":"a#OX#all"},"SK":{"S":"x"}}}}`)
	got, err := Changes([]events.DynamoDBEventRecord{ins, rem})
	if err != nil || len(got) != 2 {
		t.Fatalf("Changes = %v, %v", got, err)
	}
	if got[0].Old.Exists() || !got[0].New.Exists() || got[1].New.Exists() || !got[1].Old.Exists() {
		t.Errorf("images: %+v", got)
	}
	if got[1].Kind != "OX#all" {
		t.Errorf("kind = %q, want the whole rest of the partition key", got[1].Kind)
	}
}

func TestChangesRefusesForeignKeys(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"dynamodb":{"SequenceNumber":"1","Keys":{"PK":{"S":"nokind"},"SK":{"S":"x"}}}}`,
		`{"dynamodb":{"SequenceNumber":"1","Keys":{"PK":{"S":"a#P"}}}}`,
		`{"dynamodb":{"SequenceNumber":"1","Keys":{"PK":{"N":"1"},"SK":{"S":"x"}}}}`,
	} {
		if _, err := Changes([]events.DynamoDBEventRecord{record(t, raw)}); err == nil {
			t.Errorf("Changes(%s) accepted it", raw)
		}
	}
}
