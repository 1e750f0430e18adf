package listings_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/listings"
	"github.com/multisell/multisell/pkg/testenv"
)

// TestBadInput: every listing and channel-rule endpoint answers bad input
// with a clear 4xx naming what is wrong, and changes nothing.
func TestBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	other := w.Env.NewAccount(t, testenv.AccountOptions{})
	otherCh, err := w.Env.Deps.Channels().Create(context.Background(), other.ID, channels.Input{Name: "x", Type: "Amazon"})
	if err != nil {
		t.Fatal(err)
	}
	w.waitSynced(wanted(15))
	before := w.C.Do(http.MethodGet, "/listings", nil).String()
	channelsBefore := w.C.Do(http.MethodGet, "/channels", nil).String()
	listing := func(fields map[string]any) map[string]any {
		l := map[string]any{"channel_uuid": w.Amazon, "channel_sku": "P"}
		for k, v := range fields {
			if v == "<absent>" {
				delete(l, k)
				continue
			}
			l[k] = v
		}
		return map[string]any{"listing": l}
	}
	rules := func(r any) map[string]any { return map[string]any{"channel": map[string]any{"inventory_rules": r}} }
	type req struct {
		name, method, path string
		body               any
		status             int
		contains           string
	}
	unknownWarehouse := "01a20a0a-6645-73de-87f0-333b52416f8c"
	cases := []req{
		{"PUT not JSON", http.MethodPut, "/listings", `{"listing":`, 400, "JSON"},
		{"PUT an array", http.MethodPut, "/listings", `[]`, 400, "object"},
		{"PUT oversize", http.MethodPut, "/listings", `{"x":"` + strings.Repeat("a", 1<<20) + `"}`, 413, "large"},
		{"PUT without listing", http.MethodPut, "/listings", map[string]any{"channel_uuid": w.Amazon}, 422, "listing"},
		{"PUT listing a string", http.MethodPut, "/listings", map[string]any{"listing": "P"}, 422, "listing"},
		{"PUT without channel", http.MethodPut, "/listings", listing(map[string]any{"channel_uuid": "<absent>"}), 422, "channel_uuid"},
		{"PUT without channel SKU", http.MethodPut, "/listings", listing(map[string]any{"channel_sku": "<absent>"}), 422, "channel_sku"},
		{"PUT channel SKU an object", http.MethodPut, "/listings", listing(map[string]any{"channel_sku": map[string]any{}}), 422, "channel_sku"},
		{"PUT channel SKU too long", http.MethodPut, "/listings", listing(map[string]any{"channel_sku": strings.Repeat("x", 256)}), 422, "channel_sku"},
		{"PUT channel SKU with a control character", http.MethodPut, "/listings", listing(map[string]any{"channel_sku": "A\tB"}), 422, "channel_sku"},
		{"PUT sku with a newline", http.MethodPut, "/listings", listing(map[string]any{"sku": "P\n"}), 422, "sku"},
		{"PUT sku a list", http.MethodPut, "/listings", listing(map[string]any{"sku": []string{"P"}}), 422, "sku"},
		{"PUT listing_ref an object", http.MethodPut, "/listings", listing(map[string]any{"listing_ref": map[string]any{}}), 422, "listing_ref"},
		{"PUT unknown channel", http.MethodPut, "/listings", listing(map[string]any{"channel_uuid": unknownWarehouse}), 404, "Channel not found"},
		{"PUT another account's channel", http.MethodPut, "/listings", listing(map[string]any{"channel_uuid": otherCh.UUID}), 404, "Channel not found"},
		{"PUT channel not a uuid", http.MethodPut, "/listings", listing(map[string]any{"channel_uuid": "amazon"}), 404, "Channel not found"},
		{"PUT unknown product", http.MethodPut, "/listings", listing(map[string]any{"sku": "NOPE"}), 404, "Product not found"},
		{"PUT rules percent 101", http.MethodPut, "/listings", listing(map[string]any{"inventory_rules": map[string]any{"percent": 101}}), 422, "inventory_rules.percent"},
		{"PUT rules min above max", http.MethodPut, "/listings", listing(map[string]any{"inventory_rules": map[string]any{"min": 5, "max": 2}}), 422, "inventory_rules.min"},
		{"PUT rules unknown warehouse", http.MethodPut, "/listings", listing(map[string]any{"inventory_rules": map[string]any{"warehouses": []string{unknownWarehouse}}}), 422, "inventory_rules.warehouses"},
		{"PUT rules a list", http.MethodPut, "/listings", listing(map[string]any{"inventory_rules": []int{1}}), 422, "inventory_rules"},

		{"channel rules not JSON", http.MethodPut, "/channels/" + w.EBay, `{`, 400, "JSON"},
		{"channel without channel", http.MethodPut, "/channels/" + w.EBay, map[string]any{"inventory_rules": map[string]any{}}, 422, "channel"},
		{"channel without rules", http.MethodPut, "/channels/" + w.EBay, map[string]any{"channel": map[string]any{"name": "x"}}, 422, "inventory_rules"},
		{"channel percent a string", http.MethodPut, "/channels/" + w.EBay, rules(map[string]any{"percent": "half"}), 422, "inventory_rules.percent"},
		{"channel max negative", http.MethodPut, "/channels/" + w.EBay, rules(map[string]any{"max": -1}), 422, "inventory_rules.max"},
		{"channel safety fractional", http.MethodPut, "/channels/" + w.EBay, rules(map[string]any{"safety": 1.5}), 422, "inventory_rules.safety"},
		{"channel sync a number", http.MethodPut, "/channels/" + w.EBay, rules(map[string]any{"sync": 3}), 422, "inventory_rules.sync"},
		{"channel warehouses of another account", http.MethodPut, "/channels/" + w.EBay, rules(map[string]any{"warehouses": []string{unknownWarehouse}}), 422, "inventory_rules.warehouses"},
		{"channel unknown", http.MethodPut, "/channels/" + unknownWarehouse, rules(map[string]any{}), 404, "Channel not found"},
		{"channel of another account", http.MethodPut, "/channels/" + otherCh.UUID, rules(map[string]any{}), 404, "Channel not found"},
		{"channel not a uuid", http.MethodPut, "/channels/abc", rules(map[string]any{}), 404, "Channel not found"},

		{"DELETE without parameters", http.MethodDelete, "/listings", nil, 422, "channel_uuid"},
		{"DELETE without channel SKU", http.MethodDelete, "/listings?channel_uuid=" + w.Amazon, nil, 422, "channel_sku"},
		{"DELETE control character", http.MethodDelete, "/listings?channel_uuid=" + w.Amazon + "&channel_sku=" + url.QueryEscape("A\x01"), nil, 422, "channel_sku"},
		{"DELETE unknown listing", http.MethodDelete, "/listings?channel_uuid=" + w.Amazon + "&channel_sku=NOPE", nil, 404, "Listing not found"},
		{"DELETE another account's channel", http.MethodDelete, "/listings?channel_uuid=" + otherCh.UUID + "&channel_sku=P", nil, 404, "Listing not found"},

		{"GET bad status", http.MethodGet, "/listings?sync_status=done", nil, 422, "sync_status"},
		{"GET bad sku", http.MethodGet, "/listings?sku=" + url.QueryEscape("a\x02"), nil, 422, "sku"},
		{"GET unknown channel", http.MethodGet, "/listings?channel_uuid=" + unknownWarehouse, nil, 404, "Channel not found"},
		{"GET bad page", http.MethodGet, "/listings?page=0", nil, 422, "page"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := w.C.Do(tc.method, tc.path, tc.body)
			if r.Status != tc.status || !strings.Contains(r.String(), tc.contains) {
				t.Errorf("%s %s: %d %s, want %d naming %q", tc.method, tc.path, r.Status, r, tc.status, tc.contains)
			}
		})
	}
	w.Env.Drain(t)
	if after := w.C.Do(http.MethodGet, "/listings", nil).String(); after != before {
		t.Errorf("bad input changed the listings:\n%s\n%s", before, after)
	}
	if after := w.C.Do(http.MethodGet, "/channels", nil).String(); after != channelsBefore {
		t.Errorf("bad input changed the channels:\n%s\n%s", channelsBefore, after)
	}
}

// TestIsolation: one account can neither see, link, delete nor change the
// rules of another's listings and channels.
func TestIsolation(t *testing.T) {
	t.Parallel()
	a := newWorld(t)
	a.waitSynced(wanted(15))
	before := a.C.Do(http.MethodGet, "/listings", nil).String()
	chBefore := a.C.Do(http.MethodGet, "/channels", nil).String()
	bAcct := a.Env.NewAccount(t, testenv.AccountOptions{})
	b := a.Env.Client(t, bAcct)
	if _, err := a.Env.Deps.Channels().Create(context.Background(), bAcct.ID, channels.Input{Name: "B", Type: "Amazon"}); err != nil {
		t.Fatal(err)
	}
	b.Do(http.MethodPut, "/products/P", map[string]any{"name": "B's P"})
	cases := []struct {
		name, method, path string
		body               any
		status             int
		want               string
	}{
		{"list", http.MethodGet, "/listings", nil, 200, "[]"},
		{"list by A's SKU", http.MethodGet, "/listings?sku=P", nil, 200, "[]"},
		{"list A's channel", http.MethodGet, "/listings?channel_uuid=" + a.Amazon, nil, 404, "Channel not found"},
		{"list A's channel by status", http.MethodGet, "/listings?sync_status=synced&channel_uuid=" + a.EBay, nil, 404, "Channel not found"},
		{"link on A's channel", http.MethodPut, "/listings", map[string]any{"listing": map[string]any{"channel_uuid": a.Amazon, "channel_sku": "P", "sku": "P"}}, 404, "Channel not found"},
		{"delete A's listing", http.MethodDelete, "/listings?channel_uuid=" + a.Amazon + "&channel_sku=P", nil, 404, "Listing not found"},
		{"rules of A's channel", http.MethodPut, "/channels/" + a.EBay, map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{"percent": 1}}}, 404, "Channel not found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := b.Do(tc.method, tc.path, tc.body)
			if r.Status != tc.status || !strings.Contains(r.String(), tc.want) {
				t.Errorf("B %s %s: %d %s, want %d %s", tc.method, tc.path, r.Status, r, tc.status, tc.want)
			}
		})
	}
	// B's channel rules cannot name A's warehouses.
	var bChannels []channels.Channel
	b.Do(http.MethodGet, "/channels", nil).JSON(t, &bChannels)
	if r := b.Do(http.MethodPut, "/channels/"+bChannels[0].UUID, map[string]any{"channel": map[string]any{"inventory_rules": map[string]any{"warehouses": []string{a.A}}}}); r.Status != 422 {
		t.Errorf("B's rules naming A's warehouse: %d %s", r.Status, r)
	}
	a.Env.Drain(t)
	if after := a.C.Do(http.MethodGet, "/listings", nil).String(); after != before {
		t.Errorf("B changed A's listings:\n%s\n%s", before, after)
	}
	if after := a.C.Do(http.MethodGet, "/channels", nil).String(); after != chBefore {
		t.Errorf("B changed A's channels:\n%s\n%s", chBefore, after)
	}
	var got []listings.Listing
	b.Do(http.MethodGet, "/listings", nil).JSON(t, &got)
	if len(got) != 0 {
		t.Errorf("B sees listings %v", render(got))
	}
}
