package catalog_test

import (
	"context"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/multisell/multisell/pkg/store"
)

func TestChildWriteMovesGroupOnlyForVariationValues(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("W", "S", "M")
	c.putGroup("W", groupBody("W", kids...))
	for _, tc := range []struct {
		name       string
		body       map[string]any
		groupMoves bool
	}{
		{"price", map[string]any{"price": 4}, false},
		{"another attribute", map[string]any{"custom_attributes": map[string]any{"size": "S", "color": "red"}}, false},
		{"variation value", map[string]any{"custom_attributes": map[string]any{"size": "XS"}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := c.get("W")
			p := c.put(kids[0], tc.body)
			after := c.get("W")
			if got := after.ModifiedAt != before.ModifiedAt; got != tc.groupMoves {
				t.Errorf("group modified_at %s -> %s: moved %v, want %v", before.ModifiedAt, after.ModifiedAt, got, tc.groupMoves)
			}
			if got := after.Variations[0]; got.ModifiedAt != p.ModifiedAt || got.VariationFields["size"] != p.VariationFields["size"] {
				t.Errorf("the group shows its child at %s %v, want %s %v", got.ModifiedAt, got.VariationFields, p.ModifiedAt, p.VariationFields)
			}
		})
	}
	c.expect422("same values of size as W-M", "PATCH", productPath(kids[0]), map[string]any{"custom_attributes": map[string]any{"size": "M"}})
}

// TestGroupChildrenOutsideIndex reads a group whose child the children's
// index does not hold (an item written before the index, or one the index
// has not caught up with): the child is read from the table.
func TestGroupChildrenOutsideIndex(t *testing.T) {
	t.Parallel()
	c := newClient(t)
	kids := c.makeChildren("X", "S", "M", "L")
	c.putGroup("X", groupBody("X", kids...))
	_, err := c.env.Deps.Table.DB.UpdateItem(context.Background(), &dynamodb.UpdateItemInput{
		TableName:        aws.String(c.env.Deps.Table.Name),
		Key:              store.Key(store.PK(c.acct.ID, "P"), kids[1]),
		UpdateExpression: aws.String("REMOVE " + store.AttrGSI1PK + ", " + store.AttrGSI1SK),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := skusOf(c.get("X").Variations); !slices.Equal(got, kids) {
		t.Errorf("variations %v, want %v", got, kids)
	}
}
