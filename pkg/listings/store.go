package listings

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// Item kinds and attributes of listings (docs/data-model.md).
const (
	kind       = "LST"   // every listing: SK channel + channel SKU
	kindBySKU  = "LSKU"  // GSI1: linked listings by inventory SKU
	kindAuto   = "LAUTO" // GSI2: listings linked (or waiting to be) by equal SKU
	attrRules  = "inventory_rules"
	attrRev    = "rev"
	attrStatus = "sync_status"
)

// pk is the partition of an account's listings, in (channel, channel SKU)
// order.
func pk(account string) string { return store.PK(account, kind) }

// sortKey is a listing's sort key.
func sortKey(channel, channelSKU string) string {
	return store.Join(channel, store.KeyText(channelSKU))
}

// key is the primary key of a listing.
func key(account, channel, channelSKU string) map[string]types.AttributeValue {
	return store.Key(pk(account), sortKey(channel, channelSKU))
}

// item is the stored form of r: its fields, its overrides as JSON text, and
// the index keys it belongs to.
func item(account string, r *record) (map[string]types.AttributeValue, error) {
	it, err := store.Marshal(r, key(account, r.ChannelUUID, r.ChannelSKU))
	if err != nil {
		return nil, err
	}
	if !r.InventoryRules.Empty() {
		b, err := json.Marshal(r.InventoryRules)
		if err != nil {
			return nil, fmt.Errorf("marshal listing rules: %w", err)
		}
		it[attrRules] = store.S(string(b))
	}
	if r.SKU != nil {
		it[store.AttrGSI1PK] = store.S(store.PK(account, kindBySKU))
		it[store.AttrGSI1SK] = store.S(store.Join(store.KeyText(*r.SKU), r.ChannelUUID, store.KeyText(r.ChannelSKU)))
	}
	if !r.Explicit {
		it[store.AttrGSI2PK] = store.S(store.PK(account, kindAuto))
		it[store.AttrGSI2SK] = store.S(store.Join(store.KeyText(r.ChannelSKU), r.ChannelUUID))
	}
	return it, nil
}

// decode reads a listing item (or stream image).
func decode(img store.Image) (*record, error) {
	var r record
	if err := img.Decode(&r); err != nil {
		return nil, err
	}
	if text := img.Text(attrRules); text != "" {
		if err := json.Unmarshal([]byte(text), &r.InventoryRules); err != nil {
			return nil, fmt.Errorf("listing %s: rules: %w", r.ChannelSKU, err)
		}
	}
	return &r, nil
}

// decodeAll reads listing items.
func decodeAll(items []map[string]types.AttributeValue) ([]*record, error) {
	out := make([]*record, len(items))
	for i, it := range items {
		r, err := decode(store.ImageOf(it))
		if err != nil {
			return nil, err
		}
		out[i] = r
	}
	return out, nil
}

// get reads one listing with a strongly consistent read; nil when there is
// none.
func get(ctx context.Context, t store.Table, account, channel, channelSKU string) (*record, error) {
	img, err := t.Item(ctx, key(account, channel, channelSKU), true)
	if err != nil || !img.Exists() {
		return nil, err
	}
	return decode(img)
}

// Counts of the listing lists (store.Counts), in one item, so that a
// listing's creation or deletion is one write of it: all listings, and
// each channel's. A listing's sync status changes on every push, so the
// status filter has no count (a bounded one).
var allCount = store.CountName{List: "listings", Value: store.CountAll}

// channelCount is the count of the listings of the channel.
func channelCount(channel string) store.CountName { return store.CountPer("listings", "ch", channel) }

// listingCounts is what adding (delta 1) or removing (-1) a listing of
// the channel does to the counts.
func listingCounts(channel string, delta int64) store.Counts {
	return store.Counts{allCount: delta, channelCount(channel): delta}
}

// errRaced is a save that lost to another write of the listing.
var errRaced = fmt.Errorf("listing: %w", store.ErrRaced)

// save writes r (one PutItem) if the listing is still at the revision it
// was read at (rev 0: it must not exist yet, and the counts of the lists
// it joins go with it in one transaction), and moves r.Rev on.
func save(ctx context.Context, t store.Table, account string, r *record) error {
	read := r.Rev
	r.Rev++
	it, err := item(account, r)
	if err != nil {
		return err
	}
	cond, values := "attribute_not_exists(#PK)", map[string]types.AttributeValue(nil)
	if read > 0 {
		cond, values = "#rev = :rev", map[string]types.AttributeValue{":rev": store.N(read)}
	}
	writes := []store.Write{store.Put(it, cond, values)}
	if read == 0 {
		writes = append(writes, listingCounts(r.ChannelUUID, 1).Writes(account)...)
	}
	err = t.Commit(ctx, writes)
	if _, failed := store.FailedWrite(err); failed || store.TransactionConflict(err) {
		r.Rev = read
		return errRaced
	}
	if err != nil {
		return fmt.Errorf("save listing %s: %w", r.ChannelSKU, err)
	}
	return nil
}

// remove deletes a listing with the counts of the lists it leaves (one
// transaction, again when it met another on the count item); false when
// there was none.
func remove(ctx context.Context, t store.Table, account, channel, channelSKU string) (bool, error) {
	del := store.Delete(key(account, channel, channelSKU), "attribute_exists(#PK)", nil)
	err := store.Retry(ctx, store.Attempts, store.TransactionConflict, func() error {
		return t.Commit(ctx, append([]store.Write{del}, listingCounts(channel, -1).Writes(account)...))
	})
	if _, failed := store.FailedWrite(err); failed {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("delete listing: %w", err)
	}
	return true, nil
}

// query is the Query of the listings a filter selects, in their order:
// the account's partition (or one channel's range of it), or GSI1 for one
// inventory SKU; a status filter is a FilterExpression.
func query(account string, f Filter) dynamodb.QueryInput {
	in := dynamodb.QueryInput{
		KeyConditionExpression:    aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk(account))},
	}
	switch {
	case f.SKU != "":
		in.IndexName = aws.String(store.GSI1)
		in.KeyConditionExpression = aws.String("GSI1PK = :pk AND begins_with(GSI1SK, :prefix)")
		in.ExpressionAttributeValues[":pk"] = store.S(store.PK(account, kindBySKU))
		prefix := store.KeyText(f.SKU) + store.Sep
		if f.Channel != "" {
			prefix += f.Channel + store.Sep
		}
		in.ExpressionAttributeValues[":prefix"] = store.S(prefix)
	case f.Channel != "":
		in.KeyConditionExpression = aws.String("PK = :pk AND begins_with(SK, :prefix)")
		in.ExpressionAttributeValues[":prefix"] = store.S(f.Channel + store.Sep)
	}
	var filters []string
	if f.SKU != "" {
		// The key prefix is the SKU's; the filter keeps exact matches only
		// (a local emulator compares key prefixes without case).
		filters = append(filters, "#sku = :sku")
		in.ExpressionAttributeValues[":sku"] = store.S(f.SKU)
	}
	if f.Status != "" {
		filters = append(filters, "#"+attrStatus+" = :status")
		in.ExpressionAttributeValues[":status"] = store.S(f.Status)
	}
	if len(filters) > 0 {
		in.FilterExpression = aws.String(strings.Join(filters, " AND "))
		in.ExpressionAttributeNames = store.Names(*in.FilterExpression)
	}
	return in
}

// listPage reads page p of the listings the filter selects, in order
// (store.Table.PageOf), their number: the exact count of all listings or
// of one channel's, else a bounded count (-1 when its bound came first),
// and the next page's cursor.
func listPage(ctx context.Context, t store.Table, account string, f Filter, p paging.Page) ([]*record, int, *paging.Cursor, error) {
	q := store.PageQuery{Account: account, List: fmt.Sprintf("listings|%q|%q|%q", f.Channel, f.SKU, f.Status), Input: query(account, f), Bounded: true}
	if f.SKU == "" && f.Status == "" {
		name := allCount
		if f.Channel != "" {
			name = channelCount(f.Channel)
		}
		q.Count = &name
	}
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return nil, 0, nil, fmt.Errorf("list listings: %w", err)
	}
	recs, err := decodeAll(page.Items)
	return recs, int(page.Total), page.Next, err
}

// listAll reads every listing the filter selects.
func listAll(ctx context.Context, t store.Table, account string, f Filter) ([]*record, error) {
	items, err := t.QueryUpTo(ctx, query(account, f), math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("list listings: %w", err)
	}
	return decodeAll(items)
}

// hasListings reports whether the account has any listing: one Query of at
// most one key.
func hasListings(ctx context.Context, t store.Table, account string) (bool, error) {
	out, err := t.DB.Query(ctx, &dynamodb.QueryInput{
		TableName: t.TableName(), KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{":pk": store.S(pk(account))},
		ProjectionExpression:      aws.String("PK"), Limit: aws.Int32(1),
	})
	if err != nil {
		return false, fmt.Errorf("any listing: %w", err)
	}
	return len(out.Items) > 0, nil
}

// autoLinked reads the listings that link by equal SKU whose channel SKU
// is sku: one Query of GSI2.
func autoLinked(ctx context.Context, t store.Table, account, sku string) ([]*record, error) {
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		IndexName:              aws.String(store.GSI2),
		KeyConditionExpression: aws.String("GSI2PK = :pk AND begins_with(GSI2SK, :prefix)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(store.PK(account, kindAuto)), ":prefix": store.S(store.KeyText(sku) + store.Sep),
		},
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("listings of channel SKU %q: %w", sku, err)
	}
	recs, err := decodeAll(items)
	return slices.DeleteFunc(recs, func(r *record) bool { return r.ChannelSKU != sku }), err
}

// getMany reads the listings of one channel with the given channel SKUs
// (one BatchGetItem per 100).
func getMany(ctx context.Context, t store.Table, account, channel string, channelSKUs []string) ([]*record, error) {
	keys := make([]map[string]types.AttributeValue, 0, len(channelSKUs))
	seen := map[string]bool{}
	for _, s := range channelSKUs {
		if !seen[s] {
			seen[s] = true
			keys = append(keys, key(account, channel, s))
		}
	}
	items, err := t.BatchGet(ctx, keys, false)
	if err != nil {
		return nil, fmt.Errorf("read listings: %w", err)
	}
	return decodeAll(items)
}
