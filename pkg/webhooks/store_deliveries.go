package webhooks

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/paging"
	"github.com/multisell/multisell/pkg/store"
)

// deliveryRetention is how long a delivery and its log are kept.
const deliveryRetention = 30 * 24 * time.Hour

// deliveryKey is the primary key of a delivery.
func deliveryKey(account, webhook, id string) map[string]types.AttributeValue {
	return store.Key(store.PK(account, kindDelivery), store.Join(webhook, id))
}

// decodeDelivery reads a delivery item (or stream image).
func decodeDelivery(img store.Image) (*delivery, error) {
	var d delivery
	if err := img.Decode(&d); err != nil {
		return nil, fmt.Errorf("decode delivery: %w", err)
	}
	if d.Attempts == nil {
		d.Attempts = []Attempt{}
	}
	return &d, nil
}

// getDelivery reads one delivery (strongly consistent); nil when there is
// none.
func getDelivery(ctx context.Context, t store.Table, account, webhook, id string) (*delivery, error) {
	img, err := t.Item(ctx, deliveryKey(account, webhook, id), true)
	if err != nil || !img.Exists() {
		return nil, err
	}
	return decodeDelivery(img)
}

// saveDelivery writes d: new (false when it exists already: the delivery
// of a replayed event), or still at the revision it was read at (errRaced
// otherwise). It moves d.Rev on.
func saveDelivery(ctx context.Context, t store.Table, account string, d *delivery, now time.Time) (bool, error) {
	cond, values := "attribute_not_exists(PK)", map[string]types.AttributeValue(nil)
	if d.Rev > 0 {
		cond, values = "rev = :rev", map[string]types.AttributeValue{":rev": store.N(d.Rev)}
	}
	d.Rev++
	item, err := store.Marshal(d, deliveryKey(account, d.WebhookID, d.ID))
	if err != nil {
		return false, err
	}
	created, err := time.Parse(time.RFC3339, d.CreatedAt)
	if err != nil {
		created = now
	}
	item[store.AttrTTL] = store.N(created.Add(deliveryRetention).Unix())
	if d.Status == StatusPending { // in the index of pending deliveries, by when due
		item[store.AttrGSI1PK] = store.S(duePK(dueShard(account)))
		item[store.AttrGSI1SK] = store.S(store.Join(d.dueAt(), account, d.WebhookID, d.ID))
	}
	err = t.Commit(ctx, []store.Write{store.Put(item, cond, values)})
	switch {
	case store.ConditionFailed(err) && d.Rev == 1:
		return false, nil
	case store.ConditionFailed(err):
		return false, errRaced
	case err != nil:
		return false, fmt.Errorf("save delivery %s: %w", d.ID, err)
	}
	return true, nil
}

// dueShards is how many partitions the index of pending deliveries has
// (GSI1 DLVP#<shard>, <due time>␟<account>␟<webhook>␟<id>), so the sweep
// finds the overdue ones with a Query per shard; a delivery that is no
// longer pending is written without them and leaves the index.
const dueShards = 8

// duePK is the GSI1 partition of the pending deliveries of shard n.
func duePK(n int) string { return "DLVP#" + strconv.Itoa(n) }

// dueShard is the shard of an account's pending deliveries.
func dueShard(account string) int {
	h := fnv.New32a()
	h.Write([]byte(account))
	return int(h.Sum32() % dueShards)
}

// overdueIn returns the pending deliveries of shard n that were due before
// the time, each with its account.
func overdueIn(ctx context.Context, t store.Table, n int, before time.Time) ([]accountDelivery, error) {
	items, err := t.QueryUpTo(ctx, dynamodb.QueryInput{
		IndexName:                aws.String("GSI1"),
		KeyConditionExpression:   aws.String("#GSI1PK = :pk AND #GSI1SK < :before"),
		ExpressionAttributeNames: store.Names("#GSI1PK", "#GSI1SK"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(duePK(n)), ":before": store.S(isotime.Format(before)),
		},
	}, math.MaxInt)
	if err != nil {
		return nil, fmt.Errorf("query overdue deliveries: %w", err)
	}
	out := make([]accountDelivery, 0, len(items))
	for _, it := range items {
		img := store.ImageOf(it)
		d, err := decodeDelivery(img)
		if err != nil {
			return nil, err
		}
		out = append(out, accountDelivery{account: strings.TrimSuffix(img.Text("PK"), "#"+kindDelivery), d: d})
	}
	return out, nil
}

// accountDelivery is a delivery with its account.
type accountDelivery struct {
	account string
	d       *delivery
}

// listDeliveries reads page p of the webhook's deliveries, newest first
// (store.Table.PageOf, with a bounded count), their number and the next
// page's cursor.
func listDeliveries(ctx context.Context, t store.Table, account, webhook string, p paging.Page) (paging.Listing[Delivery], error) {
	q := store.PageQuery{Account: account, List: "deliveries|" + webhook, Bounded: true, Input: dynamodb.QueryInput{
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :webhook)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": store.S(store.PK(account, kindDelivery)), ":webhook": store.S(webhook + store.Sep),
		},
		ScanIndexForward: aws.Bool(false),
	}}
	page, err := t.PageOf(ctx, q, p)
	if err != nil {
		return paging.Listing[Delivery]{}, fmt.Errorf("list deliveries: %w", err)
	}
	out := paging.Listing[Delivery]{Items: make([]Delivery, 0, len(page.Items)), Total: int(page.Total), Next: page.Next}
	for _, it := range page.Items {
		d, err := decodeDelivery(store.ImageOf(it))
		if err != nil {
			return paging.Listing[Delivery]{}, err
		}
		out.Items = append(out.Items, d.Delivery)
	}
	return out, nil
}

// toSend decodes a stream record of a delivery: ok when the delivery is to
// be sent to the queue (it is new, or a manual retry moved its push) and
// is pending.
func toSend(c store.Change) (*delivery, bool, error) {
	if c.Kind != kindDelivery || !c.New.Exists() || c.New.Text("status") != StatusPending {
		return nil, false, nil
	}
	if c.Old.Exists() && store.Same(c.Old, c.New, "push") {
		return nil, false, nil
	}
	d, err := decodeDelivery(c.New)
	return d, err == nil, err
}
