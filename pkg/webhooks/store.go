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
	attrRev      = "rev"
)

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

// saveHook writes h (one PutItem): new, or still at the revision it was
// read at; it moves h.Rev on.
func saveHook(ctx context.Context, t store.Table, account string, h *hook) error {
	cond, values := "attribute_not_exists(PK)", map[string]types.AttributeValue(nil)
	if h.Rev > 0 {
		cond, values = "rev = :rev", map[string]types.AttributeValue{":rev": store.N(h.Rev)}
	}
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

// removeHook deletes the webhook id; false when there was none.
func removeHook(ctx context.Context, t store.Table, account, id string) (bool, error) {
	err := t.Commit(ctx, []store.Write{store.Delete(hookKey(account, id), "attribute_exists(PK)", nil)})
	if store.ConditionFailed(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete webhook %s: %w", id, err)
	}
	return true, nil
}
