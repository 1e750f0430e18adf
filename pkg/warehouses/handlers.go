package warehouses

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Handlers serves the warehouse endpoints over the Service.
type Handlers struct{ Service }

// List serves GET /warehouses: a page in creation order with Total-Pages.
func (h Handlers) List(ctx context.Context, r *api.Request) (*api.Response, error) {
	return api.ListAll(ctx, r, func(ctx context.Context) ([]Warehouse, error) { return h.Service.List(ctx, r.Account.ID) })
}

// Create serves POST /warehouses. Without a priority the warehouse comes
// last: its priority is the number of warehouses the account then has.
func (h Handlers) Create(ctx context.Context, r *api.Request) (*api.Response, error) {
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	c, err := parseBody(body, true)
	if err != nil {
		return nil, err
	}
	if c.set["priority"] == nil {
		existing, err := h.Service.List(ctx, r.Account.ID)
		if err != nil {
			return nil, err
		}
		c.set["priority"] = &types.AttributeValueMemberN{Value: strconv.Itoa(len(existing) + 1)}
	}
	id := store.NewID()
	item := store.Key(pk(r.Account.ID), id)
	item["uuid"] = store.S(id)
	item["inventory_master"] = store.S(MasterMultisell)
	item["created_at"] = store.S(isotime.Format(time.Now()))
	for _, b := range []string{"enable_shipping_software", "archived"} {
		item[b] = &types.AttributeValueMemberBOOL{}
	}
	for k, v := range c.set {
		item[k] = v
	}
	_, err = h.Table.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: h.Table.TableName(), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)"),
	})
	if err != nil {
		return nil, fmt.Errorf("put warehouse: %w", err)
	}
	return api.OK(map[string]string{"message": "Warehouse created", "warehouse_uuid": id}), nil
}

// Update serves PUT /warehouses/{uuid}: it changes only the fields sent (an
// explicit null clears one) with one conditional write; 404 for a uuid the
// account does not have.
func (h Handlers) Update(ctx context.Context, r *api.Request) (*api.Response, error) {
	id := r.PathParam("uuid")
	body, err := r.Decode()
	if err != nil {
		return nil, err
	}
	c, err := parseBody(body, false)
	if err != nil {
		return nil, err
	}
	if !store.ValidID(id) {
		return nil, errs.NotFound(NotFoundMessage)
	}
	names := map[string]string{}
	values := map[string]types.AttributeValue{}
	var sets, removes []string
	for attr, v := range c.set {
		n, val := "#"+attr, ":"+attr
		names[n], values[val] = attr, v
		sets = append(sets, n+" = "+val)
	}
	for _, attr := range c.remove {
		names["#"+attr] = attr
		removes = append(removes, "#"+attr)
	}
	expr := ""
	if len(sets) > 0 {
		expr = "SET " + strings.Join(sets, ", ")
	}
	if len(removes) > 0 {
		expr += " REMOVE " + strings.Join(removes, ", ")
	}
	in := &dynamodb.UpdateItemInput{
		TableName: h.Table.TableName(), Key: Key(r.Account.ID, id),
		ConditionExpression: aws.String("attribute_exists(PK)"),
		ReturnValues:        types.ReturnValueUpdatedOld,
	}
	if expr == "" {
		// Nothing to change: still answer 404 for an unknown warehouse.
		if _, err := h.Service.Get(ctx, r.Account.ID, id); err != nil {
			return nil, notFound(err)
		}
		return api.Message("Warehouse updated"), nil
	}
	in.UpdateExpression = aws.String(strings.TrimSpace(expr))
	in.ExpressionAttributeNames = names
	if len(values) > 0 {
		in.ExpressionAttributeValues = values
	}
	out, err := h.Table.DB.UpdateItem(ctx, in)
	if store.ConditionFailed(err) {
		return nil, errs.NotFound(NotFoundMessage)
	}
	if err != nil {
		return nil, fmt.Errorf("update warehouse: %w", err)
	}
	if h.OnArchive != nil && archiving(c, out.Attributes) {
		if err := h.OnArchive(ctx, r.Account.ID, id); err != nil {
			return nil, fmt.Errorf("re-allocate archived warehouse: %w", err)
		}
	}
	return api.Message("Warehouse updated"), nil
}

// archiving reports whether the update turned archived from false to true.
func archiving(c changes, old map[string]types.AttributeValue) bool {
	now, ok := c.set["archived"].(*types.AttributeValueMemberBOOL)
	if !ok || !now.Value {
		return false
	}
	was, _ := old["archived"].(*types.AttributeValueMemberBOOL)
	return was == nil || !was.Value
}

func notFound(err error) error {
	if errors.Is(err, ErrNotFound) {
		return errs.NotFound(NotFoundMessage)
	}
	return err
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
