package store

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

func TestUpdateExpression(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		u    Update
		want string
	}{
		{"empty", Update{}, ""},
		{"set", Update{Set: []string{"#a = :a", "#b = if_not_exists(#b, :zero)"}}, "SET #a = :a, #b = if_not_exists(#b, :zero)"},
		{"remove", Update{Remove: []string{"cost", "bin_location"}}, "REMOVE #cost, #bin_location"},
		{"add", Update{Add: []string{"m :one"}}, "ADD m :one"},
		{"all", Update{Set: []string{"#a = :a"}, Remove: []string{"b"}, Add: []string{"#n :one"}}, "SET #a = :a REMOVE #b ADD #n :one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.u.Expression(); got != tt.want {
				t.Errorf("Expression() = %q, want %q", got, tt.want)
			}
			if got, want := tt.u.Empty(), tt.want == ""; got != want {
				t.Errorf("Empty() = %v, want %v", got, want)
			}
		})
	}
}

func TestUpdateInput(t *testing.T) {
	t.Parallel()
	var u Update
	u.SetValue("city", S("Oakland"))
	u.Remove = []string{"address_2"}
	u.Condition = "attribute_exists(#PK)"
	in := u.Input(Table{Name: "t"}, Key("a#WH", "w"))
	if got, want := aws.ToString(in.UpdateExpression), "SET #city = :city REMOVE #address_2"; got != want {
		t.Errorf("UpdateExpression = %q, want %q", got, want)
	}
	wantNames := map[string]string{"#city": "city", "#address_2": "address_2", "#PK": "PK"}
	if !reflect.DeepEqual(in.ExpressionAttributeNames, wantNames) {
		t.Errorf("names = %v, want %v", in.ExpressionAttributeNames, wantNames)
	}
	if got := in.ExpressionAttributeValues[":city"]; !reflect.DeepEqual(got, S("Oakland")) {
		t.Errorf(":city = %v", got)
	}
	var bare Update
	bare.Remove = []string{"x"}
	if in := bare.Input(Table{Name: "t"}, Key("p", "s")); in.ExpressionAttributeValues != nil || in.ConditionExpression != nil {
		t.Errorf("an update without values or condition sends %v, %v", in.ExpressionAttributeValues, in.ConditionExpression)
	}
}

func TestWriteWithTable(t *testing.T) {
	t.Parallel()
	name := aws.String("table")
	writes := []Write{
		Put(Key("p", "1"), "attribute_not_exists(#PK)", nil),
		Delete(Key("p", "2"), "", nil),
		Check(Key("p", "3"), "attribute_exists(#PK)", nil),
		Update{Set: []string{"#a = :a"}, Values: map[string]types.AttributeValue{":a": S("x")}}.Write(Key("p", "4")),
	}
	for i, w := range writes {
		tw := w.withTable(name)
		var got *string
		switch {
		case tw.Put != nil:
			got = tw.Put.TableName
		case tw.Delete != nil:
			got = tw.Delete.TableName
		case tw.ConditionCheck != nil:
			got = tw.ConditionCheck.TableName
		case tw.Update != nil:
			got = tw.Update.TableName
		}
		if got != name {
			t.Errorf("write %d: table %v, want %q", i, got, *name)
		}
		if w.tw.Put != nil && w.tw.Put.TableName != nil {
			t.Errorf("write %d: withTable changed the write itself", i)
		}
	}
}
