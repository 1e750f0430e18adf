package inventory

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Adjustment statuses and per-item results (GET /inventory/adjustments/{id}).
const (
	StatusQueued  = "queued"
	StatusApplied = "applied"

	ResultApplied = "applied"
	ResultCreated = "created"
	ResultSkipped = "skipped_not_found"
)

// statusRetention is how long an applied adjustment's status is kept (the
// status item's ttl), and how long a request id not yet applied is
// reported as queued.
const statusRetention = 30 * 24 * time.Hour

// AdjustmentNotFoundMessage is the 404 of an unknown request id.
const AdjustmentNotFoundMessage = "Adjustment not found"

// Result is what applying one item did and the record's quantities right
// after; the quantities are null for a skipped item.
type Result struct {
	SKU       string `json:"sku" dynamodbav:"sku"`
	Warehouse string `json:"warehouse_uuid" dynamodbav:"warehouse_uuid"`
	Result    string `json:"result" dynamodbav:"result"`
	OnHand    *int64 `json:"on_hand" dynamodbav:"on_hand"`
	Reserved  *int64 `json:"reserved" dynamodbav:"reserved"`
	Available *int64 `json:"available" dynamodbav:"available"`
}

// Status is an adjustment request as GET /inventory/adjustments/{id}
// returns it; once applied it is stored at (<acct>#ADJ, request id).
type Status struct {
	RequestID string   `json:"request_id" dynamodbav:"request_id"`
	Status    string   `json:"status" dynamodbav:"status"`
	Items     []Result `json:"items" dynamodbav:"items"`
}

// statusPK is the partition of an account's applied adjustments.
func statusPK(account string) string { return store.PK(account, "ADJ") }

// getStatus reads the stored status of an applied request; found is false
// while it is not applied.
func getStatus(ctx context.Context, t store.Table, account, id string) (st Status, found bool, err error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: store.Key(statusPK(account), id), ConsistentRead: aws.Bool(true),
	})
	if err != nil {
		return st, false, fmt.Errorf("get adjustment %s: %w", id, err)
	}
	if out.Item == nil {
		return st, false, nil
	}
	if err := attributevalue.UnmarshalMap(out.Item, &st); err != nil {
		return st, false, fmt.Errorf("unmarshal adjustment %s: %w", id, err)
	}
	return st, true, nil
}

// putStatus stores the status of an applied request, kept statusRetention.
func putStatus(ctx context.Context, t store.Table, account string, st Status, now time.Time) error {
	item, err := attributevalue.MarshalMap(st)
	if err != nil {
		return fmt.Errorf("marshal adjustment %s: %w", st.RequestID, err)
	}
	for k, v := range store.Key(statusPK(account), st.RequestID) {
		item[k] = v
	}
	item["applied_at"] = store.S(isotime.Format(now))
	item[store.AttrTTL] = n(now.Add(statusRetention).Unix())
	if _, err := t.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: t.TableName(), Item: item}); err != nil {
		return fmt.Errorf("put adjustment %s: %w", st.RequestID, err)
	}
	return nil
}

// GetAdjustment serves GET /inventory/adjustments/{request_id}: an applied
// request with its per-item results, or a recent request of the account
// that is still queued (with no items yet); anything else is 404.
func (h Handlers) GetAdjustment(ctx context.Context, r *api.Request) (*api.Response, error) {
	id, at, ok := parseRequestID(r.Account.ID, r.PathParam("request_id"))
	if !ok {
		return nil, errs.NotFound(AdjustmentNotFoundMessage)
	}
	st, found, err := getStatus(ctx, h.Table, r.Account.ID, id)
	if err != nil {
		return nil, err
	}
	if found {
		return api.OK(st), nil
	}
	if time.Since(at) > statusRetention {
		return nil, errs.NotFound(AdjustmentNotFoundMessage)
	}
	return api.OK(Status{RequestID: id, Status: StatusQueued, Items: []Result{}}), nil
}
