package channels

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// The items of a connected channel besides the channel item:
//
//   - its connection status, in the channels' partition right after the channel
//     (<acct>#CH / <uuid>#CONN), so GET /channels reads both with its one Query; the
//     stream filters of template.yaml leave these items out, so the runtime's frequent
//     status writes make no channel sync;
//   - its sealed credentials, in a partition of their own (<acct>#CHCRED / <uuid>), so
//     nothing that reads channels ever carries them.
//
// A connected active channel's item also carries the sparse GSI1 key CHCONN /
// <acct>␟<uuid>, which connect, disconnect and state changes set or remove in the same
// write: the poll scheduler's one Query (Connected).
const (
	statusSuffix    = "#CONN"
	kindCredentials = "CHCRED"
	kindMarketplace = "CHMKT"
	connectedPK     = "CHCONN"
	attrCredentials = "credentials"
	attrConnector   = "connector"
	attrLastPoll    = "last_order_poll_at"
	attrLastPush    = "last_push_at"
	attrLastError   = "last_error"
	attrLastErrorAt = "last_error_at"
)

// isStatusSK reports whether a sort key of the channels' partition is a
// connection status item's.
func isStatusSK(sk string) bool { return strings.HasSuffix(sk, statusSuffix) }

// statusKey is the key of the channel's connection status item.
func statusKey(account, uuid string) map[string]types.AttributeValue {
	return store.Key(pk(account), uuid+statusSuffix)
}

// credentialsKey is the key of the channel's sealed credentials item.
func credentialsKey(account, uuid string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindCredentials), uuid)
}

// setConnectedIndex sets (connected active channel) or removes the channel
// item's GSI1 key in u.
func setConnectedIndex(u *store.Update, account string, c Channel) {
	if c.connected() {
		u.SetValue(store.AttrGSI1PK, store.S(connectedPK))
		u.SetValue(store.AttrGSI1SK, store.S(store.Join(account, c.UUID)))
		return
	}
	u.Remove = append(u.Remove, store.AttrGSI1PK, store.AttrGSI1SK)
}

// putCredentials is the write of the channel's sealed credentials.
func putCredentials(account, uuid string, sealed []byte) store.Write {
	item := credentialsKey(account, uuid)
	item[attrCredentials] = &types.AttributeValueMemberB{Value: sealed}
	return store.Put(item, "", nil)
}

// connect stores the new connected channel c with its sealed credentials and
// its status, and claims its marketplace account (when its connector names
// one): one TransactWriteItems. A claimed account fails its write
// (connectMarketplaceWrite), as store.FailedWrite tells.
func connect(ctx context.Context, t store.Table, account string, c Channel, sealed []byte) error {
	item, err := store.Marshal(c, key(account, c.UUID))
	if err != nil {
		return err
	}
	if item[attrRules], err = rulesValue(c.InventoryRules); err != nil {
		return err
	}
	if c.connected() {
		item[store.AttrGSI1PK] = store.S(connectedPK)
		item[store.AttrGSI1SK] = store.S(store.Join(account, c.UUID))
	}
	status := statusKey(account, c.UUID)
	ws := []store.Write{
		store.Put(item, "attribute_not_exists(PK)", nil),
		store.Put(status, "", nil),
		putCredentials(account, c.UUID, sealed),
	}
	if c.MarketplaceAccount != "" {
		claim := marketplaceKey(account, c)
		claim[attrChannel] = store.S(c.UUID)
		ws = append(ws, store.Put(claim, "attribute_not_exists(PK)", nil))
	}
	err = t.Commit(ctx, ws)
	if _, failed := store.FailedWrite(err); failed {
		return err
	}
	if err != nil {
		return fmt.Errorf("connect channel %s: %w", c.UUID, err)
	}
	return nil
}

// setState writes the channel's new state c.State (and its connected index),
// with new sealed credentials when given, if the stored state is still
// wasState: one UpdateItem, or a transaction with the credentials. A
// channel changed meanwhile is store.ErrRaced.
func setState(ctx context.Context, t store.Table, account string, c Channel, wasState string, sealed []byte) error {
	u := store.Update{Condition: "#state = :was"}
	u.SetValue(attrState, store.S(c.State))
	u.Value(":was", store.S(wasState))
	setConnectedIndex(&u, account, c)
	ws := []store.Write{u.Write(key(account, c.UUID))}
	if sealed != nil {
		ws = append(ws, putCredentials(account, c.UUID, sealed))
	}
	err := t.Commit(ctx, ws)
	if _, failed := store.FailedWrite(err); failed {
		return store.ErrRaced
	}
	if err != nil {
		return fmt.Errorf("set the state of channel %s: %w", c.UUID, err)
	}
	return nil
}

// disconnect makes the channel disconnected, drops it from the connected
// index, deletes its credentials and records reason as its last error at
// `at`, if its stored state is still wasState: one TransactWriteItems.
func disconnect(ctx context.Context, t store.Table, account, uuid, wasState, reason, at string) error {
	u := store.Update{Condition: "#state = :was"}
	u.SetValue(attrState, store.S(StateDisconnected))
	u.Value(":was", store.S(wasState))
	u.Remove = append(u.Remove, store.AttrGSI1PK, store.AttrGSI1SK)
	var st store.Update
	st.SetValue(attrLastError, store.S(reason))
	st.SetValue(attrLastErrorAt, store.S(at))
	err := t.Commit(ctx, []store.Write{
		u.Write(key(account, uuid)),
		st.Write(statusKey(account, uuid)),
		store.Delete(credentialsKey(account, uuid), "", nil),
	})
	if _, failed := store.FailedWrite(err); failed {
		return store.ErrRaced
	}
	if err != nil {
		return fmt.Errorf("disconnect channel %s: %w", uuid, err)
	}
	return nil
}

// setStatus sets attributes of the channel's connection status item: one
// UpdateItem, ErrNotFound when the channel has none (it is not connected).
func setStatus(ctx context.Context, t store.Table, account, uuid string, attrs map[string]string) error {
	u := store.Update{Condition: "attribute_exists(PK)"}
	for _, a := range []string{attrLastPoll, attrLastPush, attrLastError, attrLastErrorAt} {
		if v, ok := attrs[a]; ok {
			u.SetValue(a, store.S(v))
		}
	}
	err := t.Commit(ctx, []store.Write{u.Write(statusKey(account, uuid))})
	if store.ConditionFailed(err) {
		return ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("record the status of channel %s: %w", uuid, err)
	}
	return nil
}

// getWithStatus reads one channel of the account with its connection
// status: one Query of the channel's item and the status item after it.
func getWithStatus(ctx context.Context, t store.Table, account, uuid string) (Channel, error) {
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :uuid)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(pk(account)), ":uuid": store.S(uuid),
		},
		ConsistentRead: aws.Bool(true),
	}, 2)
	if err != nil {
		return Channel{}, fmt.Errorf("read channel %s: %w", uuid, err)
	}
	chs, err := decodeAll(items)
	if err != nil {
		return Channel{}, err
	}
	if len(chs) == 0 {
		return Channel{}, ErrNotFound
	}
	return chs[0], nil
}

// getCredentials reads the channel and its sealed credentials (nil when it
// has none): one BatchGetItem.
func getCredentials(ctx context.Context, t store.Table, account, uuid string) (Channel, []byte, error) {
	items, err := t.BatchGet(ctx, []map[string]types.AttributeValue{key(account, uuid), credentialsKey(account, uuid)}, true)
	if err != nil {
		return Channel{}, nil, fmt.Errorf("read the connection of channel %s: %w", uuid, err)
	}
	var (
		c      Channel
		found  bool
		sealed []byte
	)
	for _, item := range items {
		if b, ok := item[attrCredentials].(*types.AttributeValueMemberB); ok {
			sealed = b.Value
			continue
		}
		if err := decode(store.ImageOf(item), &c); err != nil {
			return Channel{}, nil, err
		}
		found = true
	}
	if !found {
		return Channel{}, nil, ErrNotFound
	}
	return c, sealed, nil
}

// walkConnected hands visit each page of the connected index: one Query of
// GSI1 per page.
func walkConnected(ctx context.Context, t store.Table, visit func([]Ref) error) error {
	in := &dynamodb.QueryInput{
		TableName:                 t.TableName(),
		IndexName:                 aws.String(store.GSI1),
		KeyConditionExpression:    aws.String("GSI1PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(connectedPK)},
	}
	for {
		out, err := t.DB.Query(ctx, in)
		if err != nil {
			return fmt.Errorf("query the connected channels: %w", err)
		}
		refs := make([]Ref, 0, len(out.Items))
		for _, item := range out.Items {
			img := store.ImageOf(item)
			account, uuid, _ := strings.Cut(img.Text(store.AttrGSI1SK), store.Sep)
			refs = append(refs, Ref{Account: account, UUID: uuid, Connector: img.Text(attrConnector)})
		}
		if err := visit(refs); err != nil {
			return err
		}
		if len(out.LastEvaluatedKey) == 0 {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

// connectMarketplaceWrite is the index of the marketplace account's claim in
// connect's transaction.
const connectMarketplaceWrite = 3

// attrChannel is the channel uuid a marketplace account's claim names.
const attrChannel = "channel_uuid"

// marketplaceKey is the key of the claim of c's marketplace account on the
// account: <acct>#CHMKT / <connector>␟<marketplace account>. It is kept while
// the channel exists (a disconnected channel is connected again by PATCH).
func marketplaceKey(account string, c Channel) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindMarketplace), store.Join(c.Connector, c.MarketplaceAccount))
}

// marketplaceChannel is the uuid of the channel of the account that claimed
// c's marketplace account, if one did.
func marketplaceChannel(ctx context.Context, t store.Table, account string, c Channel) (string, bool, error) {
	var claim struct {
		Channel string `dynamodbav:"channel_uuid"`
	}
	found, err := t.Get(ctx, marketplaceKey(account, c), &claim, true)
	if err != nil {
		return "", false, fmt.Errorf("read the claim of %s: %w", c.MarketplaceAccount, err)
	}
	return claim.Channel, found, nil
}
