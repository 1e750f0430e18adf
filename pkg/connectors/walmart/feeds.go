package walmart

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// feedsPath is the Feeds API: the upload (updateBulkInventory), getAllFeedStatuses, and
// under it getFeedItemStatus.
const feedsPath = "/v3/feeds"

// The bulk inventory feed's bounds and the connector's waits for it.
const (
	// MaxFeedItems is the most listings one feed (and one push) carries: about 1.2 MB of
	// JSON at SKUs of 50 characters, under Walmart's 5 MB a feed file.
	MaxFeedItems = 10_000
	// FeedDetailsPage is the most items one getFeedItemStatus with details answers (50).
	FeedDetailsPage = 50
	// FeedWindow is how far back a push looks for an inventory feed still in flight: Walmart
	// processes a feed in up to 30 minutes.
	FeedWindow = 30 * time.Minute
)

// Feed statuses (PartnerFeedResponse.feedStatus) and item ingestion statuses.
const (
	FeedReceived   = "RECEIVED"
	FeedInProgress = "INPROGRESS"
	FeedProcessed  = "PROCESSED"
	FeedError      = "ERROR"
	ItemSuccess    = "SUCCESS"
)

// FeedWait is how long a push waits for its feed, FeedPoll how often it asks, FeedRetry
// when a push whose feed is not done is tried again. Variables so tests shorten them.
var (
	FeedWait  = 20 * time.Second
	FeedPoll  = 2 * time.Second
	FeedRetry = time.Minute
)

// pushFeed sets the batch's quantities with one bulk inventory feed: first it waits for an
// inventory feed of the seller's still in flight (so that feeds are processed one after the
// other and the newest quantities win), then uploads the feed, waits for it to be
// PROCESSED, and reads every item's ingestion status (getFeedItemStatus with details, 50 a
// page): SUCCESS is the listing set, any other its failed result with Walmart's errors. A
// feed not done within FeedWait puts the push off (*connectors.Throttled); one that ends in
// ERROR fails the push.
func pushFeed(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	if err := waitInFlight(ctx, s); err != nil {
		return nil, err
	}
	var feed InventoryFeed
	feed.InventoryHeader.Version = "1.4"
	for _, p := range batch {
		feed.Inventory = append(feed.Inventory, Inventory{SKU: p.ChannelSKU, Quantity: InputQty{Unit: unitEach, Amount: p.Quantity}})
	}
	id, err := upload(ctx, s, feed)
	if err != nil {
		return nil, err
	}
	st, err := waitFeed(ctx, s, id)
	if err != nil {
		return nil, err
	}
	if st.FeedStatus == FeedError {
		return nil, fmt.Errorf("walmart inventory feed %s ended in ERROR (%d items received)", id, st.ItemsReceived)
	}
	items, err := feedItems(ctx, s, id)
	if err != nil {
		return nil, err
	}
	return feedResults(batch, items), nil
}

// upload posts the feed as the multipart file Walmart takes and returns its feed id.
func upload(ctx context.Context, s *connectors.Session, feed InventoryFeed) (string, error) {
	file, err := json.Marshal(feed)
	if err != nil {
		return "", fmt.Errorf("walmart inventory feed: %w", err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	part, err := mw.CreateFormFile("file", "inventory.json")
	if err == nil {
		_, err = part.Write(file)
	}
	if err == nil {
		err = mw.Close()
	}
	if err != nil {
		return "", fmt.Errorf("walmart inventory feed: %w", err)
	}
	h := wmHeaders()
	h.Set("Content-Type", mw.FormDataContentType())
	req := connectors.Request{Method: http.MethodPost, URL: apiURL(s, feedsPath+"?feedType=inventory"), Header: h, Body: body.Bytes()}
	resp, err := send(ctx, s, OpFeed, req)
	if err != nil {
		return "", err
	}
	var got FeedID
	if err := connectors.DecodeAnswer("walmart", OpFeed, resp.Body, &got); err != nil {
		return "", err
	}
	if got.FeedID == "" {
		return "", fmt.Errorf("walmart %s: the answer has no feedId", OpFeed)
	}
	return got.FeedID, nil
}

// waitInFlight waits for the seller's inventory feeds of the last FeedWindow that are not
// done yet (getAllFeedStatuses), within FeedWait; else the push is put off.
func waitInFlight(ctx context.Context, s *connectors.Session) error {
	resp, err := call(ctx, s, OpFeedStatus, http.MethodGet, feedsPath+"?limit=50", nil)
	if err != nil {
		return err
	}
	var list FeedList
	if err := connectors.DecodeAnswer("walmart", "getAllFeedStatuses", resp.Body, &list); err != nil {
		return err
	}
	since := now().Add(-FeedWindow).UnixMilli()
	for _, f := range list.Results.Feed {
		if f.FeedType != "inventory" || f.FeedDate < since || !inFlight(f.FeedStatus) {
			continue
		}
		if _, err := waitFeed(ctx, s, f.FeedID); err != nil {
			return err
		}
	}
	return nil
}

// inFlight reports whether a feed status is one of a feed not processed yet.
func inFlight(status string) bool { return status == FeedReceived || status == FeedInProgress }

// waitFeed asks for the feed's status every FeedPoll until it is done (PROCESSED or ERROR),
// for FeedWait at most; then the push is put off until FeedRetry from now.
func waitFeed(ctx context.Context, s *connectors.Session, id string) (FeedStatus, error) {
	giveUp := now().Add(FeedWait)
	for {
		st, err := feedStatus(ctx, s, id, nil)
		if err != nil || !inFlight(st.FeedStatus) {
			return st, err
		}
		if now().Add(FeedPoll).After(giveUp) {
			return st, &connectors.Throttled{Op: OpFeed + " " + id, RetryAt: now().Add(FeedRetry)}
		}
		t := time.NewTimer(FeedPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return st, ctx.Err()
		case <-t.C:
		}
	}
}

// feedStatus is getFeedItemStatus of the feed id, with details from offset when it is set.
func feedStatus(ctx context.Context, s *connectors.Session, id string, offset *int) (FeedStatus, error) {
	q := url.Values{}
	if offset != nil {
		q = url.Values{"includeDetails": {"true"}, "offset": {strconv.Itoa(*offset)}, "limit": {strconv.Itoa(FeedDetailsPage)}}
	}
	path := feedsPath + "/" + url.PathEscape(id)
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	resp, err := call(ctx, s, OpFeedStatus, http.MethodGet, path, nil)
	if err != nil {
		return FeedStatus{}, err
	}
	var st FeedStatus
	err = connectors.DecodeAnswer("walmart", "getFeedItemStatus", resp.Body, &st)
	return st, err
}

// feedItems reads the ingestion status of every item of a processed feed, a page of
// FeedDetailsPage at a time, until a page comes back short.
func feedItems(ctx context.Context, s *connectors.Session, id string) ([]ItemStatus, error) {
	var out []ItemStatus
	for offset := 0; offset < MaxFeedItems; offset += FeedDetailsPage {
		st, err := feedStatus(ctx, s, id, &offset)
		if err != nil {
			return nil, err
		}
		page := st.ItemDetails.ItemIngestionStatus
		out = append(out, page...)
		if len(page) < FeedDetailsPage || int64(len(out)) >= st.ItemsReceived {
			break
		}
	}
	return out, nil
}

// feedResults are the batch's results from the feed's items: SUCCESS is the quantity
// pushed, any other status the listing failed with Walmart's errors; a listing the feed's
// statuses do not name fails as such.
func feedResults(batch []connectors.QuantityPush, items []ItemStatus) []connectors.QuantityResult {
	bySKU := make(map[string]ItemStatus, len(items))
	for _, it := range items {
		bySKU[it.SKU] = it
	}
	out := make([]connectors.QuantityResult, len(batch))
	for i, p := range batch {
		r := connectors.QuantityResult{ChannelSKU: p.ChannelSKU}
		it, ok := bySKU[p.ChannelSKU]
		switch {
		case !ok:
			r.Error = "Walmart gave no status for this SKU in its inventory feed"
		case it.IngestionStatus == ItemSuccess:
			r.OK, r.ChannelQuantity = true, p.Quantity
		default:
			r.Error = "Walmart: " + it.IngestionStatus
			if msg := ingestionMessage(it.IngestionErrors.IngestionError); msg != "" {
				r.Error += ": " + msg
			}
		}
		out[i] = r
	}
	return out
}

// ingestionMessage joins an item's errors as "code: description".
func ingestionMessage(errs []IngestionError) string {
	gw := make([]GatewayError, len(errs))
	for i, e := range errs {
		gw[i] = GatewayError{Code: e.Code, Description: e.Description}
	}
	return messages(gw)
}
