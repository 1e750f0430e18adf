package connectors

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/wire"
)

func TestDecodeOutbox(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, attr string
		want             any
		err              string
	}{
		{"quantity", `{"type":"listing.quantity","account_id":"a1","channel_uuid":"c1","channel_sku":"S","quantity":7,"version":3}`, "a1",
			&wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: "a1", ChannelUUID: "c1"}, ChannelSKU: "S", Quantity: 7, Version: 3}, ""},
		{"account from the attribute", `{"type":"listing.quantity","channel_uuid":"c1","channel_sku":"S","quantity":0,"version":1}`, "a1",
			&wire.QuantityMessage{Header: wire.Header{Type: wire.TypeListingQuantity, AccountID: "a1", ChannelUUID: "c1"}, ChannelSKU: "S", Version: 1}, ""},
		{"tracking", `{"type":"shipment.tracking","account_id":"a1","channel_uuid":"c1","display_ref":"111","shipment_id":"sh","tracking_url":null,"items":[{"order_item_ref":"L1","sku":"S","quantity":2}]}`, "a1",
			&wire.TrackingMessage{Header: wire.Header{Type: wire.TypeShipmentTracking, AccountID: "a1", ChannelUUID: "c1"}, DisplayRef: "111", ShipmentID: "sh", Items: []wire.TrackingItem{{OrderItemRef: "L1", SKU: "S", Quantity: 2}}}, ""},
		{"another account", `{"type":"listing.quantity","account_id":"a2","channel_uuid":"c1","channel_sku":"S","version":1}`, "a1", nil, "differs"},
		{"no account", `{"type":"listing.quantity","channel_uuid":"c1","channel_sku":"S","version":1}`, "", nil, "no account_id"},
		{"no version", `{"type":"listing.quantity","account_id":"a1","channel_uuid":"c1","channel_sku":"S"}`, "a1", nil, "required"},
		{"no channel", `{"type":"shipment.tracking","account_id":"a1","display_ref":"1","shipment_id":"s"}`, "a1", nil, "no channel_uuid"},
		{"unknown type", `{"type":"listing.result"}`, "a1", nil, "unknown type"},
		{"not JSON", `H4sI...`, "a1", nil, "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeOutbox(tt.body, tt.attr)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Errorf("error %v, want one with %q", err, tt.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decodeOutbox = %+v, %v, want %+v", got, err, tt.want)
			}
		})
	}
}

func TestListingResults(t *testing.T) {
	t.Parallel()
	msgs := []*wire.QuantityMessage{
		{Header: wire.Header{ChannelUUID: "c"}, ChannelSKU: "A", Version: 4, Quantity: 5},
		{Header: wire.Header{ChannelUUID: "c"}, ChannelSKU: "A", Version: 3, Quantity: 9}, // an older version: the same result, stale
		{Header: wire.Header{ChannelUUID: "c"}, ChannelSKU: "B", Version: 1},
		{Header: wire.Header{ChannelUUID: "c"}, ChannelSKU: "C", Version: 2},
	}
	results := []QuantityResult{
		{ChannelSKU: "A", OK: true, ChannelQuantity: 5},
		{ChannelSKU: "B", Error: "listing is closed", ChannelQuantity: 2},
	}
	five := int64(5)
	tests := []struct {
		name string
		got  []wire.ListingResult
		want []wire.ListingResult
	}{
		{"results by SKU", listingResults(msgs, results), []wire.ListingResult{
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "A", Version: 4, OK: true, ChannelQuantity: &five},
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "A", Version: 3, OK: true, ChannelQuantity: &five},
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "B", Version: 1, Error: "listing is closed"},
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "C", Version: 2, Error: "the channel gave no result for this listing"},
		}},
		{"a failed call fails all", failedListings(msgs[2:], errors.New("generic: status 500")), []wire.ListingResult{
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "B", Version: 1, Error: "generic: status 500"},
			{Type: wire.TypeListingResult, ChannelUUID: "c", ChannelSKU: "C", Version: 2, Error: "generic: status 500"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if !reflect.DeepEqual(tt.got, tt.want) {
				t.Errorf("got %+v\nwant %+v", tt.got, tt.want)
			}
		})
	}
	// The JSON is the inbox's listing.result.
	b, _ := json.Marshal(listingResults(msgs[:1], results)[0])
	if got, want := string(b), `{"type":"listing.result","channel_uuid":"c","channel_sku":"A","version":4,"ok":true,"channel_quantity":5}`; got != want {
		t.Errorf("JSON %s, want %s", got, want)
	}
}
