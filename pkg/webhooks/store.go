package webhooks

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// Item kinds of webhooks (docs/data-model.md).
const (
	// kindHook is the partition of an account's webhooks, SK the id (uuid
	// v7: creation order).
	kindHook = "WHK"
	// kindDelivery is the partition of an account's deliveries, SK
	// <webhook id>␟<delivery id>.
	kindDelivery = "DLV"
	// kindCount holds how many webhooks the account has (SK countSK, attr
	// n), kept in the transactions that create and delete them.
	kindCount = "WHKN"
	countSK   = "COUNT"
)

// countKey is the key of the account's webhook count.
func countKey(account string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindCount), countSK)
}

// errTooMany is a creation past MaxWebhooks.
var errTooMany = fmt.Errorf("the account has %d webhooks", MaxWebhooks)

// createHook writes the new webhook h and counts it, in one transaction
// that fails (errTooMany) when the account has MaxWebhooks already.
func createHook(ctx context.Context, t store.Table, account string, h *hook) error {
	h.Rev = 1
	item, err := store.Marshal(h, hookKey(account, h.ID))
	if err != nil {
		return err
	}
	count := store.Update{Add: []string{"#n :one"}, Condition: "attribute_not_exists(#n) OR #n < :max",
		Values: map[string]types.AttributeValue{":one": store.N(1), ":max": store.N(MaxWebhooks)}}
	err = t.Commit(ctx, []store.Write{count.Write(countKey(account)), store.Put(item, "attribute_not_exists(PK)", nil)})
	if i, ok := store.FailedWrite(err); ok && i == 0 {
		return errTooMany
	}
	if err != nil {
		return fmt.Errorf("create webhook: %w", err)
	}
	return nil
}

// hookKey is the primary key of a webhook.
func hookKey(account, id string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindHook), id)
}

// decodeHook reads a webhook item.
func decodeHook(img store.Image) (*hook, error) {
	var h hook
	if err := img.Decode(&h); err != nil {
		return nil, fmt.Errorf("decode webhook: %w", err)
	}
	if h.Events == nil {
		h.Events = []string{}
	}
	return &h, nil
}

// getHook reads one webhook (strongly consistent); nil when there is none.
func getHook(ctx context.Context, t store.Table, account, id string) (*hook, error) {
	img, err := t.Item(ctx, hookKey(account, id), true)
	if err != nil || !img.Exists() {
		return nil, err
	}
	return decodeHook(img)
}

// listHooks reads the account's webhooks in creation order: one Query (an
// account has at most MaxWebhooks).
func listHooks(ctx context.Context, t store.Table, account string) ([]*hook, error) {
	items, err := t.QueryAll(ctx, store.PK(account, kindHook))
	if err != nil {
		return nil, fmt.Errorf("list webhooks: %w", err)
	}
	out := make([]*hook, 0, len(items))
	for _, it := range items {
		h, err := decodeHook(store.ImageOf(it))
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// errRaced is a write that lost to another write of the same item.
var errRaced = fmt.Errorf("changed meanwhile")

// saveHook writes h (one PutItem) if it is still at the revision it was
// read at; it moves h.Rev on.
func saveHook(ctx context.Context, t store.Table, account string, h *hook) error {
	cond, values := "rev = :rev", map[string]types.AttributeValue{":rev": store.N(h.Rev)}
	h.Rev++
	item, err := store.Marshal(h, hookKey(account, h.ID))
	if err != nil {
		return err
	}
	err = t.Commit(ctx, []store.Write{store.Put(item, cond, values)})
	if store.ConditionFailed(err) {
		return errRaced
	}
	if err != nil {
		return fmt.Errorf("save webhook %s: %w", h.ID, err)
	}
	return nil
}

// removeHook deletes the webhook id and uncounts it, in one transaction;
// false when there was none.
func removeHook(ctx context.Context, t store.Table, account, id string) (bool, error) {
	uncount := store.Update{Add: []string{"#n :minus"}, Values: map[string]types.AttributeValue{":minus": store.N(-1)}}
	err := t.Commit(ctx, []store.Write{store.Delete(hookKey(account, id), "attribute_exists(PK)", nil), uncount.Write(countKey(account))})
	if _, ok := store.FailedWrite(err); ok {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete webhook %s: %w", id, err)
	}
	return true, nil
}
