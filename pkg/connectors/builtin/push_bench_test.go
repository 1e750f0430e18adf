package builtin_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors/builtin"
	amazonsb "github.com/multisell/multisell/pkg/local/sandbox/amazon"
	ebaysb "github.com/multisell/multisell/pkg/local/sandbox/ebay"
	shopifysb "github.com/multisell/multisell/pkg/local/sandbox/shopify"
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
	"github.com/multisell/multisell/pkg/store"
	"github.com/multisell/multisell/pkg/testenv"
	"github.com/multisell/multisell/pkg/wire"
)

// fairness is what one run of the push fairness load measured (BenchmarkPushFairness).
type fairness struct {
	shopifyAlone, ebayAlone, shopifyWith, ebayWith, secondFirst time.Duration
	// shopifyNoSlow, ebayNoSlow: the same load but the Amazon channel's, which tells the
	// slow channel's share of the slowdown from the machine's (the stack's work grows
	// with the load on the same cores).
	shopifyNoSlow, ebayNoSlow time.Duration
	amazonDone                int
}

var (
	fairnessOnce sync.Once
	fairnessRun  fairness
)

// BenchmarkPushFairness measures, on the local stack through the connector-push function,
// the pushes of one account's Amazon, Shopify and eBay channels (their sandboxes, the
// published limits) and a second account's Shopify channel, PUSH_SKUS listings changed on
// each (500 in make bench): the time the first account's Shopify and eBay channels take to
// show every quantity alone (shopify_alone_s, ebay_alone_s) and together with the others
// (shopify_with_s, ebay_with_s; the ratios shopify_ratio, ebay_ratio), and how long after
// its change the second account's first push reached its shop (second_first_push_s): its
// changes are sent once the first account's are all queued ahead of them. The same load
// without the Amazon channel (shopify_no_amazon_s, ebay_no_amazon_s) is run first: what
// the local stack's shared cores make of three channels' work. amazon_done is
// how many of the Amazon channel's listings were pushed by the time the others were done
// (its published 5 patches a second make it the slow channel). docs/scale.md has the
// figures and docs/connectors.md, "Pushes and fairness", the bound.
func BenchmarkPushFairness(b *testing.B) {
	fairnessOnce.Do(func() { fairnessRun = pushFairness(b) })
	r := fairnessRun
	b.ReportMetric(r.shopifyAlone.Seconds(), "shopify_alone_s")
	b.ReportMetric(r.ebayAlone.Seconds(), "ebay_alone_s")
	b.ReportMetric(r.shopifyWith.Seconds(), "shopify_with_s")
	b.ReportMetric(r.ebayWith.Seconds(), "ebay_with_s")
	b.ReportMetric(r.shopifyWith.Seconds()/r.shopifyAlone.Seconds(), "shopify_ratio")
	b.ReportMetric(r.ebayWith.Seconds()/r.ebayAlone.Seconds(), "ebay_ratio")
	b.ReportMetric(r.secondFirst.Seconds(), "second_first_push_s")
	b.ReportMetric(r.shopifyNoSlow.Seconds(), "shopify_no_amazon_s")
	b.ReportMetric(r.ebayNoSlow.Seconds(), "ebay_no_amazon_s")
	b.ReportMetric(float64(r.amazonDone), "amazon_done")
}

// pushSKUs is how many listings each channel has changed: PUSH_SKUS, else 500.
func pushSKUs(b *testing.B) int {
	n := 500
	if v := os.Getenv("PUSH_SKUS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			b.Fatalf("PUSH_SKUS=%q: want a positive number", v)
		}
	}
	return n
}

// pushFairness runs the load once.
func pushFairness(b *testing.B) fairness {
	env := testenv.Get(b)
	builtin.Register()
	n := pushSKUs(b)
	first := env.NewAccount(b, testenv.AccountOptions{}).ID
	second := env.NewAccount(b, testenv.AccountOptions{}).ID
	shops, err := shopifysb.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = shops.Close() })
	amazon := newAmazonChannel(b, env, first, n)
	shopify := newShopifyChannel(b, env, shops, first, n)
	ebay := newEBayChannel(b, env, first, n)
	other := newShopifyChannel(b, env, shops, second, n)
	q := push.Queues{Connectors: queue.Sender{Client: env.Deps.SQS, URL: env.Config.ConnectorQueueURL, Plain: true}, Router: toConnector{}}

	var r fairness
	r.shopifyAlone = run(b, q, 1, nil, shopify)[0].done
	r.ebayAlone = run(b, q, 1, nil, ebay)[0].done
	noSlow := run(b, q, 2, nil, shopify, ebay, other)
	r.shopifyNoSlow, r.ebayNoSlow = noSlow[0].done, noSlow[1].done
	with := run(b, q, 3, amazon, shopify, ebay, other)
	r.shopifyWith, r.ebayWith, r.secondFirst = with[0].done, with[1].done, with[2].first
	r.amazonDone = amazon.shown(3)
	b.Logf("%d listings a channel: Shopify %v alone, %v with the others but Amazon, %v with all; "+
		"eBay %v alone, %v with the others but Amazon, %v with all; "+
		"the second account's first push %v after its change (%v without Amazon); Amazon had %d pushed by then",
		n, r.shopifyAlone, r.shopifyNoSlow, r.shopifyWith, r.ebayAlone, r.ebayNoSlow, r.ebayWith, r.secondFirst, noSlow[2].first, r.amazonDone)
	return r
}

// toConnector routes every channel's pushes to the connector queue.
type toConnector struct{}

func (toConnector) Route(context.Context, string, string) (push.Route, error) {
	return push.ToConnector, nil
}

// benchChannel is a connected channel of the benchmark and its listings in its sandbox.
type benchChannel struct {
	account, uuid, typ string
	skus               []string
	refs               map[string]string
	// shows is the quantity the sandbox shows of a listing.
	shows func(sku string) int64
}

// progress is how one channel's pushes went in a run: when its first listing and its
// last showed their new quantity, from the moment its changes were sent, and how many did
// by the end of the run.
type progress struct {
	first, done time.Duration
	shown       int
}

// run sends version v of every listing of slow (nil: none) and of the first channels at
// once and, once those are all queued, of the last channel (when more than one), each
// listing's quantity 1000*v+i, and waits until every channel but slow shows all its
// quantities (slow may go on after the run). It returns the progress of chs.
func run(b *testing.B, q push.Queues, v int64, slow *benchChannel, chs ...*benchChannel) []progress {
	b.Helper()
	out := make([]progress, len(chs))
	starts := make([]atomic.Int64, len(chs))
	send := func(i int) {
		starts[i].Store(time.Now().UnixNano())
		chs[i].send(b, q, v)
	}
	var wg sync.WaitGroup
	if slow != nil {
		wg.Go(func() { slow.send(b, q, v) })
	}
	for i := range len(chs) - min(len(chs)-1, 1) {
		wg.Go(func() { send(i) })
	}
	go func() {
		wg.Wait()
		if len(chs) > 1 {
			send(len(chs) - 1)
		}
	}()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		waiting := false
		for i, c := range chs {
			start := starts[i].Load()
			if start == 0 {
				waiting = true
				continue
			}
			p := &out[i]
			p.shown = c.shown(v)
			since := time.Since(time.Unix(0, start))
			if p.first == 0 && p.shown > 0 {
				p.first = since
			}
			if p.done == 0 && p.shown == len(c.skus) {
				p.done = since
			}
			if p.done == 0 {
				waiting = true
			}
		}
		if !waiting {
			return out
		}
		if time.Now().After(deadline) {
			b.Fatalf("pushes not done after 10 minutes: %+v", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// quantity is listing i's quantity in version v.
func quantity(v int64, i int) int64 { return 1000*v + int64(i) }

// send sends version v of the channel's listings to the connector queue as channel sync
// does (push.Queues.Send, the listing's outbox group), 8 at a time.
func (c *benchChannel) send(b *testing.B, q push.Queues, v int64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(c.skus); i = int(next.Add(1)) - 1 {
				sku := c.skus[i]
				m := wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: c.account, ChannelUUID: c.uuid, ChannelType: c.typ},
					ChannelSKU: sku, SKU: &sku, Quantity: quantity(v, i), Version: v, At: time.Now().UTC().Format(time.RFC3339)}
				if ref, ok := c.refs[sku]; ok {
					was := quantity(v-1, i)
					if v == 1 {
						was = 0
					}
					m.ListingRef, m.ChannelQuantity = &ref, &was
				}
				g := queue.Group("listing", c.account, c.uuid, sku)
				if err := q.Send(context.Background(), c.account, g, fmt.Sprintf("%s-%d", g, v), m); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// shown is how many of the channel's listings show their quantity of version v.
func (c *benchChannel) shown(v int64) int {
	n := 0
	for i, sku := range c.skus {
		if c.shows(sku) == quantity(v, i) {
			n++
		}
	}
	return n
}

// skus are n SKUs of a channel.
func skus(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%04d", prefix, i)
	}
	return out
}

// connect connects a channel of the connector conn to its sandbox through the channels
// service, as POST /v1/channels does (the connector verifies the credentials).
func connect(b *testing.B, env *testenv.Env, account, name, conn string, creds map[string]string, ep channels.Endpoints) string {
	b.Helper()
	raw, err := json.Marshal(creds)
	if err != nil {
		b.Fatal(err)
	}
	ch, err := env.Deps.Channels().Connect(context.Background(), account, channels.ConnectInput{Name: name, Type: conn, Credentials: raw, Endpoints: ep})
	if err != nil {
		b.Fatalf("connect %s: %v", name, err)
	}
	return ch.UUID
}

// newAmazonChannel connects an Amazon channel of the account to a sandbox of its own with
// n listings.
func newAmazonChannel(b *testing.B, env *testenv.Env, account string, n int) *benchChannel {
	sb, err := amazonsb.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sb.Close() })
	const seller, marketplace = "A2BENCHSELLER", "ATVPDKIKX0DER"
	secret, refresh := store.NewID(), "Atzr|"+store.NewID()
	sb.AddSeller(seller, marketplace, "client-bench", secret, refresh)
	c := &benchChannel{account: account, typ: "Amazon", skus: skus("AMZ", n),
		shows: func(sku string) int64 { q, _ := sb.Quantity(seller, sku); return q }}
	for _, sku := range c.skus {
		sb.PutListing(seller, amazonsb.Listing{SKU: sku})
	}
	c.uuid = connect(b, env, account, "Amazon", "amazon", map[string]string{"refresh_token": refresh, "client_id": "client-bench",
		"client_secret": secret, "seller_id": seller, "marketplace_id": marketplace},
		channels.Endpoints{API: sb.URL, Auth: sb.URL + amazonsb.TokenPath})
	return c
}

// newShopifyChannel connects a Shopify channel of the account to a shop of its own in
// shops with n variants, whose inventory items the listings keep as their refs.
func newShopifyChannel(b *testing.B, env *testenv.Env, shops *shopifysb.Shop, account string, n int) *benchChannel {
	token := "shpat_" + store.NewID()
	domain := "bench-" + store.NewID() + ".myshopify.com"
	location := shops.AddShop(token, domain)
	c := &benchChannel{account: account, typ: "Shopify", skus: skus("SHOP", n), refs: map[string]string{}}
	for _, sku := range c.skus {
		c.refs[sku] = shops.AddVariant(token, sku, 0)
	}
	c.shows = func(sku string) int64 { q, _ := shops.Available(token, c.refs[sku]); return q }
	c.uuid = connect(b, env, account, "Shopify", "shopify", map[string]string{"shop_domain": domain, "access_token": token, "location_id": location},
		channels.Endpoints{API: shops.URL})
	return c
}

// newEBayChannel connects an eBay channel of the account to a sandbox of its own with n
// listings through the Inventory API (found by SKU on their first push).
func newEBayChannel(b *testing.B, env *testenv.Env, account string, n int) *benchChannel {
	sb, err := ebaysb.New()
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = sb.Close() })
	client, secret, refresh := "bench-"+store.NewID(), store.NewID(), store.NewID()
	sb.AddSeller(client, secret, refresh, "EBAY_US")
	c := &benchChannel{account: account, typ: "eBay", skus: skus("EBAY", n),
		shows: func(sku string) int64 { q, _ := sb.Quantity(client, sku); return q }}
	for _, sku := range c.skus {
		sb.AddListing(client, sku, 0)
	}
	c.uuid = connect(b, env, account, "eBay", "ebay", map[string]string{"client_id": client, "client_secret": secret,
		"refresh_token": refresh, "marketplace_id": "EBAY_US"}, channels.Endpoints{API: sb.URL, Auth: sb.URL + ebaysb.TokenPath})
	return c
}
