package connectorsim

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/wire"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, body, attr string
		want             any    // *wire.QuantityMessage or *wire.TrackingMessage
		err              string // part of the error, when it fails
	}{
		{
			name: "quantity",
			body: `{"type":"listing.quantity","account_id":"acct_1","channel_uuid":"ch-1","channel_type":"eBay","channel_sku":"E-1","listing_ref":"L1","sku":"WIDGET","quantity":5,"version":3,"at":"2026-01-02T03:04:05Z"}`,
			want: &wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: "acct_1", ChannelUUID: "ch-1", ChannelType: "eBay"},
				ChannelSKU: "E-1", ListingRef: new("L1"), SKU: new("WIDGET"), Quantity: 5, Version: 3, At: "2026-01-02T03:04:05Z"},
		},
		{
			name: "quantity zero, version zero, account from the attribute, unknown fields ignored",
			body: ` {"type":"listing.quantity","channel_uuid":"ch-1","channel_sku":"E 1/é","quantity":0,"version":0,"extra":[1]} `, attr: "acct_2",
			want: &wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: "acct_2", ChannelUUID: "ch-1"}, ChannelSKU: "E 1/é"},
		},
		{
			name: "tracking",
			body: `{"type":"shipment.tracking","account_id":"acct_1","channel_uuid":"ch-1","display_ref":"111-1","shipment_id":"s1","carrier_name":"UPS","carrier_name_given":"ups","tracking_number":"1Z","tracking_url":null,"shipping_method":"Ground","items":[{"order_item_ref":"1","sku":"A","quantity":2}],"shipped_at":"2026-01-02"}`,
			want: &wire.TrackingMessage{Header: wire.Header{Type: wire.TypeShipmentTracking, AccountID: "acct_1", ChannelUUID: "ch-1"}, DisplayRef: "111-1", ShipmentID: "s1",
				CarrierName: "UPS", CarrierNameGiven: "ups", TrackingNumber: "1Z", ShippingMethod: new("Ground"),
				Items: []wire.TrackingItem{{OrderItemRef: "1", SKU: "A", Quantity: 2}}, ShippedAt: "2026-01-02"},
		},
		{name: "empty", body: ``, err: "not a JSON object"},
		{name: "not JSON", body: `hello`, err: "not a JSON object"},
		{name: "an array", body: `[1]`, err: "not a JSON object"},
		{name: "trailing data", body: `{"type":"listing.quantity"} {}`, err: "not a JSON object"},
		{name: "multisell's internal codec", body: `H4sIAAAAAAAA/6pWKqksSFWyUkrOzytJzSvRUSpKLS7NKQEAAAD//w==`, err: "gzip in base64"},
		{name: "no type", body: `{"channel_uuid":"ch-1"}`, err: `no "type"`},
		{name: "type not a string", body: `{"type":5}`, err: `no "type"`},
		{name: "unknown type", body: `{"type":"order.cancel"}`, err: `unknown type "order.cancel"`},
		{name: "no version", body: `{"type":"listing.quantity","account_id":"a","channel_uuid":"c","channel_sku":"s","quantity":1}`, err: `no "version"`},
		{name: "null quantity", body: `{"type":"listing.quantity","account_id":"a","channel_uuid":"c","channel_sku":"s","quantity":null,"version":1}`, err: `no "quantity"`},
		{name: "quantity not a number", body: `{"type":"listing.quantity","account_id":"a","channel_uuid":"c","channel_sku":"s","quantity":"5","version":1}`, err: "listing.quantity"},
		{name: "fractional version", body: `{"type":"listing.quantity","account_id":"a","channel_uuid":"c","channel_sku":"s","quantity":1,"version":1.5}`, err: "listing.quantity"},
		{name: "empty channel sku", body: `{"type":"listing.quantity","account_id":"a","channel_uuid":"c","channel_sku":"","quantity":1,"version":1}`, err: "empty channel_sku"},
		{name: "no account", body: `{"type":"listing.quantity","channel_uuid":"c","channel_sku":"s","quantity":1,"version":1}`, err: "account_id"},
		{name: "account leaving the folder", body: `{"type":"listing.quantity","account_id":"../x","channel_uuid":"c","channel_sku":"s","quantity":1,"version":1}`, err: "account_id"},
		{name: "channel leaving the folder", body: `{"type":"shipment.tracking","account_id":"a","channel_uuid":"../../etc/passwd","shipment_id":"s1"}`, err: "channel_uuid"},
		{name: "channel dot dot", body: `{"type":"shipment.tracking","account_id":"a","channel_uuid":"..","shipment_id":"s1"}`, err: "channel_uuid"},
		{name: "no shipment id", body: `{"type":"shipment.tracking","account_id":"a","channel_uuid":"c"}`, err: `no "shipment_id"`},
		{name: "items not a list", body: `{"type":"shipment.tracking","account_id":"a","channel_uuid":"c","shipment_id":"s","items":{}}`, err: "shipment.tracking"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := decode(tc.body, tc.attr)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("decode: got %#v, %v; want an error with %q", got, err, tc.err)
				}
			case err != nil:
				t.Fatalf("decode: %v", err)
			case !reflect.DeepEqual(got, tc.want):
				t.Errorf("decode:\n got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestEncodeIsASCIIJSON(t *testing.T) {
	t.Parallel()
	for _, sku := range []string{"plain", "café", "日本-1", "emoji-😀", `quote"and\back`, "<tag>&"} {
		t.Run(sku, func(t *testing.T) {
			want := wire.ListingResult{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: sku, Version: 2, OK: true, ChannelQuantity: new(int64(3))}
			body, err := encode(want)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range body {
				if r >= 0x80 {
					t.Fatalf("body %q has %q", body, r)
				}
			}
			var got wire.ListingResult
			if err := json.Unmarshal([]byte(body), &got); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("round trip of %q: got %+v, %v", body, got, err)
			}
			if strings.Contains(body, `"error"`) {
				t.Errorf("an ok result has an error field: %s", body)
			}
		})
	}
}

func TestDedupID(t *testing.T) {
	t.Parallel()
	a, b, c := dedupID("body", "m1"), dedupID("body", "m2"), dedupID("body2", "m1")
	if a == b || a == c || a != dedupID("body", "m1") || len(a) != 64 {
		t.Errorf("dedup ids %q %q %q: want distinct per body and nonce, stable, 64 characters", a, b, c)
	}
}

// never and always are fail functions.
func never() bool  { return false }
func always() bool { return true }

func TestApplyQuantity(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	earlier := now.Add(-time.Hour)
	have := Listing{ListingRef: "L1", Quantity: 4, Version: 5, UpdatedAt: earlier}
	for _, tc := range []struct {
		name        string
		listing     *Listing // on the channel before
		msg         wire.QuantityMessage
		fail        func() bool
		want        wire.ListingResult
		wantListing *Listing // after; nil: unchanged
		wantDraw    bool     // whether the fail function is asked
	}{
		{
			name: "new listing", msg: wire.QuantityMessage{Header: wire.Header{ChannelType: "eBay"}, ChannelSKU: "S", ListingRef: new("L9"), Quantity: 7, Version: 1}, fail: never,
			want:        wire.ListingResult{Version: 1, OK: true, ChannelQuantity: new(int64(7))},
			wantListing: &Listing{ListingRef: "L9", Quantity: 7, Version: 1, UpdatedAt: now}, wantDraw: true,
		},
		{
			name: "newer version", listing: &have, msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: 0, Version: 6}, fail: never,
			want:        wire.ListingResult{Version: 6, OK: true, ChannelQuantity: new(int64(0))},
			wantListing: &Listing{ListingRef: "L1", Quantity: 0, Version: 6, UpdatedAt: now}, wantDraw: true,
		},
		{
			name: "same version again", listing: &have, msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: 9, Version: 5}, fail: always,
			want: wire.ListingResult{Version: 5, OK: true, ChannelQuantity: new(int64(4))},
		},
		{
			name: "older version", listing: &have, msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: 9, Version: 2}, fail: always,
			want: wire.ListingResult{Version: 2, OK: true, ChannelQuantity: new(int64(4))},
		},
		{
			name: "refused", listing: &have, msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: 9, Version: 6}, fail: always,
			want: wire.ListingResult{Version: 6, Error: SimulatedError, ChannelQuantity: new(int64(4))}, wantDraw: true,
		},
		{
			name: "refused, new listing", msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: 9, Version: 1}, fail: always,
			want: wire.ListingResult{Version: 1, Error: SimulatedError, ChannelQuantity: new(int64(0))}, wantDraw: true,
		},
		{
			name: "negative quantity", listing: &have, msg: wire.QuantityMessage{ChannelSKU: "S", Quantity: -1, Version: 6}, fail: never,
			want: wire.ListingResult{Version: 6, Error: "quantity -1 is negative", ChannelQuantity: new(int64(4))},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := &Channel{AccountID: "a", ChannelUUID: "c", Listings: map[string]Listing{}, Shipments: map[string]Shipment{}}
			if tc.listing != nil {
				ch.Listings["S"] = *tc.listing
			}
			before := ch.Listings["S"]
			drew := false
			msg := tc.msg
			msg.ChannelUUID = "c"
			got, changed := ch.applyQuantity(&msg, func() bool { drew = true; return tc.fail() }, now)
			want := tc.want
			want.Type, want.ChannelUUID, want.ChannelSKU = wire.TypeListingResult, "c", "S"
			if !reflect.DeepEqual(got, want) {
				t.Errorf("result:\n got %+v\nwant %+v", got, want)
			}
			if drew != tc.wantDraw {
				t.Errorf("fail drawn: %v, want %v", drew, tc.wantDraw)
			}
			wantListing := before
			if tc.wantListing != nil {
				wantListing = *tc.wantListing
			}
			if changed != (tc.wantListing != nil) || ch.Listings["S"] != wantListing {
				t.Errorf("listing after: %+v (changed %v), want %+v", ch.Listings["S"], changed, wantListing)
			}
			if tc.wantListing != nil && msg.ChannelType != "" && ch.ChannelType != msg.ChannelType {
				t.Errorf("channel type %q, want %q", ch.ChannelType, msg.ChannelType)
			}
		})
	}
}

func TestApplyTracking(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	msg := wire.TrackingMessage{Header: wire.Header{ChannelUUID: "c"}, ShipmentID: "s1", DisplayRef: "111", CarrierName: "UPS", TrackingNumber: "1Z",
		Items: []wire.TrackingItem{{OrderItemRef: "1", SKU: "A", Quantity: 1}}, ShippedAt: "2026-01-01"}
	posted := Shipment{DisplayRef: "111", CarrierName: "UPS", TrackingNumber: "1Z", Items: msg.Items, ShippedAt: "2026-01-01",
		PostedAt: now.Add(-time.Hour)}
	corrected := msg
	corrected.TrackingNumber = "1Z-fixed"
	for _, tc := range []struct {
		name         string
		have         *Shipment
		msg          wire.TrackingMessage
		fail         func() bool
		wantOK       bool
		wantShipment *Shipment // after; nil: unchanged
	}{
		{name: "first post", msg: msg, fail: never, wantOK: true,
			wantShipment: &Shipment{DisplayRef: "111", CarrierName: "UPS", TrackingNumber: "1Z", Items: msg.Items, ShippedAt: "2026-01-01", PostedAt: now}},
		{name: "the same again", have: &posted, msg: msg, fail: always, wantOK: true},
		{name: "a correction", have: &posted, msg: corrected, fail: never, wantOK: true,
			wantShipment: &Shipment{DisplayRef: "111", CarrierName: "UPS", TrackingNumber: "1Z-fixed", Items: msg.Items, ShippedAt: "2026-01-01", PostedAt: now}},
		{name: "refused", msg: msg, fail: always},
		{name: "no items", msg: wire.TrackingMessage{Header: wire.Header{ChannelUUID: "c"}, ShipmentID: "s1"}, fail: never, wantOK: true,
			wantShipment: &Shipment{Items: []wire.TrackingItem{}, PostedAt: now}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := &Channel{AccountID: "a", ChannelUUID: "c", Listings: map[string]Listing{}, Shipments: map[string]Shipment{}}
			if tc.have != nil {
				ch.Shipments["s1"] = *tc.have
			}
			before, had := ch.Shipments["s1"]
			got, changed := ch.applyTracking(&tc.msg, tc.fail, now)
			want := wire.ShipmentResult{Type: wire.TypeShipmentResult, ChannelUUID: "c", ShipmentID: "s1", OK: tc.wantOK}
			if !tc.wantOK {
				want.Error = SimulatedError
			}
			if got != want {
				t.Errorf("result %+v, want %+v", got, want)
			}
			after, has := ch.Shipments["s1"]
			switch {
			case tc.wantShipment != nil:
				if !changed || !reflect.DeepEqual(after, *tc.wantShipment) {
					t.Errorf("after: %+v (changed %v), want %+v", after, changed, *tc.wantShipment)
				}
			case changed || has != had || !reflect.DeepEqual(after, before):
				t.Errorf("changed the channel: %+v (changed %v), had %+v", after, changed, before)
			}
		})
	}
}

func TestChannelFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ch, err := LoadChannel(dir, "acct_1", "ch-1")
	if err != nil || len(ch.Listings) != 0 || ch.Shipments == nil {
		t.Fatalf("a channel without a file: %+v, %v", ch, err)
	}
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ch.Listings["S"] = Listing{ListingRef: "L", Quantity: 3, Version: 2, UpdatedAt: at}
	ch.Shipments["s1"] = Shipment{TrackingNumber: "1Z", Items: []wire.TrackingItem{}, PostedAt: at}
	for range 2 { // a second save replaces the file
		if err := ch.save(dir); err != nil {
			t.Fatal(err)
		}
	}
	got, err := LoadChannel(dir, "acct_1", "ch-1")
	if err != nil || !reflect.DeepEqual(got, ch) {
		t.Errorf("read back %+v, %v; want %+v", got, err, ch)
	}
	entries, err := os.ReadDir(filepath.Join(dir, "acct_1"))
	if err != nil || len(entries) != 1 || entries[0].Name() != "ch-1.json" {
		t.Errorf("files: %v, %v; want only ch-1.json (no temporary file left)", entries, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "acct_1", "ch-1.json"))
	for _, key := range []string{`"listings"`, `"listing_ref"`, `"quantity"`, `"version"`, `"updated_at"`, `"shipments"`, `"posted_at"`} {
		if !strings.Contains(string(data), key) {
			t.Errorf("the file has no %s: %s", key, data)
		}
	}

	if err := os.WriteFile(filepath.Join(dir, "acct_1", "bad.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, ids := range [][2]string{{"acct_1", "bad"}, {"..", "x"}, {"acct_1", "../acct_1/ch-1"}} {
		if _, err := LoadChannel(dir, ids[0], ids[1]); err == nil {
			t.Errorf("LoadChannel(%q, %q): no error", ids[0], ids[1])
		}
	}
}

func TestLockDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	unlock, err := lockDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockDir(dir); err == nil || !strings.Contains(err.Error(), "another sim") {
		t.Errorf("a second lock: %v, want refused", err)
	}
	unlock()
	unlock, err = lockDir(dir)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	unlock()
	// A lock left by a process that is gone is taken over.
	if err := os.WriteFile(filepath.Join(dir, lockName), []byte("2147483646\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	unlock, err = lockDir(dir)
	if err != nil {
		t.Fatalf("stale lock: %v", err)
	}
	unlock()
	if _, err := os.Stat(filepath.Join(dir, lockName)); !os.IsNotExist(err) {
		t.Errorf("the lock file is left after unlock: %v", err)
	}
}
