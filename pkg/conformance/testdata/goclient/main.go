// Command goclient calls the API through the client oapi-codegen generates from
// docs/openapi.yaml (package multisell, written next to it by the test): it lists the
// orders (by cursor, two a page, following each page's Link rel="next"), sets a quantity
// (PUT /inventory) and ships an order (POST /shipments), and
// prints what it got as JSON. MULTISELL_API_URL (ending in /v1), MULTISELL_TOKEN and
// MULTISELL_SECRET say where and as whom.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"example.com/goclient/multisell"
)

// result is what the calls returned, for the test to check.
type result struct {
	OrderSeqs  []int  `json:"order_seqs"`
	RequestID  string `json:"request_id"`
	ShipmentID string `json:"shipment_id"`
}

func main() {
	seq := flag.Int("order", 0, "the sb_order_seq of the order to ship")
	sku := flag.String("sku", "", "the SKU of the order's line, whose on_hand is set too")
	warehouse := flag.String("warehouse", "", "the warehouse of that stock")
	onHand := flag.Int("on-hand", 0, "the on_hand to set")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := run(ctx, *seq, *sku, *warehouse, *onHand)
	if err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}

func run(ctx context.Context, seq int, sku, warehouse string, onHand int) (result, error) {
	var out result
	c, err := multisell.NewClientWithResponses(os.Getenv("MULTISELL_API_URL"),
		multisell.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.SetBasicAuth(os.Getenv("MULTISELL_TOKEN"), os.Getenv("MULTISELL_SECRET"))
			return nil
		}))
	if err != nil {
		return out, err
	}

	// Every order, two a page: an empty cursor is the list's start, and each page's Link
	// names the next page's cursor (none after the last).
	limit, cursor := multisell.Limit("2"), multisell.Cursor("")
	for more := true; more; {
		list, err := c.ListOrdersWithResponse(ctx, &multisell.ListOrdersParams{Limit: &limit, Cursor: &cursor})
		if err != nil {
			return out, fmt.Errorf("list orders: %w", err)
		}
		if list.JSON200 == nil {
			return out, fmt.Errorf("list orders: %d %s", list.StatusCode(), list.Body)
		}
		for _, o := range *list.JSON200 {
			out.OrderSeqs = append(out.OrderSeqs, o.SbOrderSeq)
		}
		var next string
		next, more = nextCursor(list.HTTPResponse.Header.Get("Link"))
		cursor = multisell.Cursor(next)
	}

	var stock multisell.PutInventoryJSONRequestBody
	if err := stock.Inventory.FromInventoryWriteInventory0([]multisell.InventoryWriteItem{
		{Sku: sku, WarehouseUuid: warehouse, OnHand: &onHand},
	}); err != nil {
		return out, err
	}
	put, err := c.PutInventoryWithResponse(ctx, &multisell.PutInventoryParams{}, stock)
	if err != nil {
		return out, fmt.Errorf("put inventory: %w", err)
	}
	if put.JSON200 == nil {
		return out, fmt.Errorf("put inventory: %d %s", put.StatusCode(), put.Body)
	}
	out.RequestID = put.JSON200.RequestId

	// The shipment's inner object has no schema name of its own, so its Go type is an
	// anonymous struct: it is simplest filled from JSON.
	var ship multisell.CreateShipmentJSONRequestBody
	doc := fmt.Sprintf(`{"shipment": {"sb_order_seq": %d, "carrier_name": "UPS", "tracking_number": "1Z-GOCLIENT",
		"items": [{"sku": %q, "quantity": 1}]}}`, seq, sku)
	if err := json.Unmarshal([]byte(doc), &ship); err != nil {
		return out, err
	}
	key := multisell.IdempotencyKey(fmt.Sprintf("goclient-ship-%d", seq))
	shipped, err := c.CreateShipmentWithResponse(ctx, &multisell.CreateShipmentParams{IdempotencyKey: &key}, ship)
	if err != nil {
		return out, fmt.Errorf("create shipment: %w", err)
	}
	if shipped.JSON200 == nil {
		return out, fmt.Errorf("create shipment: %d %s", shipped.StatusCode(), shipped.Body)
	}
	out.ShipmentID = shipped.JSON200.ShipmentId
	return out, nil
}

// nextCursor is the cursor of a Link header's rel="next", false when there is none.
func nextCursor(link string) (string, bool) {
	target, rel, ok := strings.Cut(link, ">; ")
	if !ok || rel != `rel="next"` {
		return "", false
	}
	u, err := url.Parse(strings.TrimPrefix(target, "<"))
	if err != nil {
		return "", false
	}
	return u.Query().Get("cursor"), true
}
