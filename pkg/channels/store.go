package channels

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// pk is the partition of an account's channels, sorted by creation.
func pk(account string) string { return store.PK(account, "CH") }

// key is the primary key of a channel.
func key(account, uuid string) map[string]types.AttributeValue { return store.Key(pk(account), uuid) }

// put stores the new channel c: one PutItem.
func put(ctx context.Context, t store.Table, account string, c Channel) error {
	item, err := store.Marshal(c, key(account, c.UUID))
	if err != nil {
		return err
	}
	if err := t.Commit(ctx, []store.Write{store.Put(item, "", nil)}); err != nil {
		return fmt.Errorf("put channel: %w", err)
	}
	return nil
}

// get reads one channel of the account: one GetItem.
func get(ctx context.Context, t store.Table, account, uuid string) (Channel, error) {
	var c Channel
	found, err := t.Get(ctx, key(account, uuid), &c, false)
	if err != nil {
		return Channel{}, err
	}
	if !found {
		return Channel{}, ErrNotFound
	}
	return c, nil
}

// list reads every channel of the account in creation order: one Query.
func list(ctx context.Context, t store.Table, account string) ([]Channel, error) {
	items, err := t.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, err
	}
	out := make([]Channel, 0, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal channels: %w", err)
	}
	return out, nil
}
