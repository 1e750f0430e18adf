package orders

import (
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// SeedItems returns the items the import of o (a new order: Seq set, its
// lines and allocations filled) stores, built by the functions the import
// uses: the order (statuses derived, version 1), its idempotency key and
// its listing items. The tests write them in bulk to seed large accounts.
func SeedItems(account string, o *Order) ([]map[string]types.AttributeValue, error) {
	o.derive()
	o.Version = 1
	item, err := attributevalue.MarshalMap(o)
	if err != nil {
		return nil, fmt.Errorf("marshal order: %w", err)
	}
	for k, v := range orderKey(account, o.Seq) {
		item[k] = v
	}
	ref := refKey(account, o.ChannelUUID, o.DisplayRef)
	ref["seq"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(o.Seq, 10)}
	ref["channel_uuid"], ref["display_ref"] = store.S(o.ChannelUUID), store.S(o.DisplayRef)
	out := []map[string]types.AttributeValue{item, ref}
	idx := indexItems(account, o)
	for _, pk := range sortedKeys(idx) {
		out = append(out, idx[pk])
	}
	return out, nil
}

// SeqCounterItem is the account's order sequence counter holding seq.
func SeqCounterItem(account string, seq int64) map[string]types.AttributeValue {
	item := seqKey(account)
	item["seq"] = &types.AttributeValueMemberN{Value: strconv.FormatInt(seq, 10)}
	return item
}

// ForgetCursors drops the account's remembered page starts, so the next
// listing of any page is a fresh one (a jump, for a page past the first).
func ForgetCursors(account string) { cursors.forget(account) }
