package channels

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// kind is the partition kind of channels; attrRules holds a channel's
// inventory rules as JSON text (absent: the defaults).
const (
	kind      = "CH"
	attrRules = "inventory_rules"
	attrState = "state"
)

// pk is the partition of an account's channels, sorted by creation.
func pk(account string) string { return store.PK(account, kind) }

// key is the primary key of a channel.
func key(account, uuid string) map[string]types.AttributeValue { return store.Key(pk(account), uuid) }

// rulesValue is the stored form of rules.
func rulesValue(r Rules) (types.AttributeValue, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("marshal inventory rules: %w", err)
	}
	return store.S(string(b)), nil
}

// decode reads a channel item (or stream image) into c, rules included.
func decode(item store.Image, c *Channel) error {
	if err := item.Decode(c); err != nil {
		return err
	}
	c.InventoryRules = DefaultRules()
	c.Connection = Connection{Connector: cmp.Or(c.Connector, ConnectorExternal)}
	if text := item.Text(attrRules); text != "" {
		if err := json.Unmarshal([]byte(text), &c.InventoryRules); err != nil {
			return fmt.Errorf("channel %s: inventory rules: %w", c.UUID, err)
		}
	}
	return nil
}

// put stores the new channel c: one PutItem.
func put(ctx context.Context, t store.Table, account string, c Channel) error {
	item, err := store.Marshal(c, key(account, c.UUID))
	if err != nil {
		return err
	}
	if item[attrRules], err = rulesValue(c.InventoryRules); err != nil {
		return err
	}
	if err := t.Commit(ctx, []store.Write{store.Put(item, "", nil)}); err != nil {
		return fmt.Errorf("put channel: %w", err)
	}
	return nil
}

// setRules replaces the channel's rules: one UpdateItem, ErrNotFound when
// the account has no such channel.
func setRules(ctx context.Context, t store.Table, account, uuid string, r Rules) error {
	v, err := rulesValue(r)
	if err != nil {
		return err
	}
	u := store.Update{Condition: "attribute_exists(PK)"}
	u.SetValue(attrRules, v)
	err = t.Commit(ctx, []store.Write{u.Write(key(account, uuid))})
	if store.ConditionFailed(err) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("set inventory rules of channel %s: %w", uuid, err)
	}
	return nil
}

// get reads one channel of the account: one GetItem.
func get(ctx context.Context, t store.Table, account, uuid string) (Channel, error) {
	item, err := t.Item(ctx, key(account, uuid), false)
	if err != nil {
		return Channel{}, err
	}
	if !item.Exists() {
		return Channel{}, ErrNotFound
	}
	var c Channel
	return c, decode(item, &c)
}

// list reads every channel of the account in creation order, each with its
// connection status: one Query.
func list(ctx context.Context, t store.Table, account string) ([]Channel, error) {
	items, err := t.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, err
	}
	return decodeAll(items)
}

// decodeAll decodes the items of the channels' partition in key order: each
// channel, and its connection status item (which follows it) into its
// Connection.
func decodeAll(items []map[string]types.AttributeValue) ([]Channel, error) {
	out := make([]Channel, 0, len(items))
	for _, item := range items {
		img := store.ImageOf(item)
		if !isStatusSK(img.Text(store.AttrSK)) {
			var c Channel
			if err := decode(img, &c); err != nil {
				return nil, err
			}
			out = append(out, c)
			continue
		}
		if n := len(out); n > 0 && img.Text(store.AttrSK) == out[n-1].UUID+statusSuffix {
			connector := out[n-1].Connection.Connector
			if err := img.Decode(&out[n-1].Connection); err != nil {
				return nil, err
			}
			out[n-1].Connection.Connector = connector
		}
	}
	return out, nil
}
