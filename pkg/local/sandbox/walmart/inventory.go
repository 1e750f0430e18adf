package walmart

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The bulk inventory feed's bounds, as Walmart publishes them.
const (
	// MaxFeedBytes is a feed file's most: 5 MB.
	MaxFeedBytes = 5 << 20
	// MaxDetails is the most items getFeedItemStatus details a call ("cannot be more than
	// 50").
	MaxDetails = 50
)

// checkQuantity is the refusal's message of an item's quantity, "" for a good one: a sku, a
// quantity of unit EACH and an amount from 0.
func checkQuantity(in Inventory) string {
	switch {
	case in.SKU == "":
		return "sku is required"
	case in.Quantity == nil || in.Quantity.Amount == nil:
		return "quantity.amount is required"
	case in.Quantity.Unit != "EACH":
		return "quantity.unit must be EACH"
	case *in.Quantity.Amount < 0:
		return "quantity.amount must be 0 or more"
	}
	return ""
}

// updateItem serves updateInventoryForAnItem: PUT /v3/inventory?sku= with the item's
// quantity; the body's sku is the query's, the item is the seller's (404 otherwise).
func (s *Sandbox) updateItem(w http.ResponseWriter, r *http.Request, sl *Seller) {
	sku := r.URL.Query().Get("sku")
	var in Inventory
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_INVENTORY_API", "the body is not an Inventory")
		return
	}
	msg := checkQuantity(in)
	if msg == "" && (sku == "" || in.SKU != sku) {
		msg = "the sku of the query and of the body must be the same"
	}
	if msg != "" {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT.GMP_INVENTORY_API", msg)
		return
	}
	if _, ok := sl.Items[sku]; !ok {
		writeError(w, http.StatusNotFound, "CONTENT_NOT_FOUND.GMP_INVENTORY_API", "Item not found for the SKU "+sku)
		return
	}
	sl.Items[sku] = *in.Quantity.Amount
	s.Save()
	sandbox.WriteJSON(w, http.StatusOK, in)
}

// uploadFeed serves updateBulkInventory: POST /v3/feeds?feedType=inventory, the feed file
// (InventoryFeed, version 1.4, JSON) as the multipart part "file", at most MaxFeedBytes (413
// past it). It answers the new feed's id; the feed is processed FeedDelay later.
func (s *Sandbox) uploadFeed(w http.ResponseWriter, r *http.Request, sl *Seller) {
	if ft := r.URL.Query().Get("feedType"); ft != "inventory" {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "feedType must be inventory (this sandbox serves no "+ft+" feed)")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxFeedBytes+1<<16)
	f, _, err := r.FormFile("file")
	if err != nil {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT", "the feed file is the multipart part file")
		return
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFeedBytes+1))
	if err != nil || len(data) > MaxFeedBytes {
		writeError(w, http.StatusRequestEntityTooLarge, "REQUEST_ENTITY_TOO_LARGE", "a feed file has 5 MB at most")
		return
	}
	var feed InventoryFeed
	if err := json.Unmarshal(data, &feed); err != nil || feed.InventoryHeader == nil || feed.InventoryHeader.Version != "1.4" || len(feed.Inventory) == 0 {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_CONTENT", "the file must be an inventory feed of version 1.4: InventoryHeader.version 1.4 and Inventory items")
		return
	}
	sl.Seq++
	id := fmt.Sprintf("%032X@AQMBAQA", sl.Seq)
	sl.Feeds[id] = &Feed{ID: id, Date: time.Now().UTC(), Items: feed.Inventory}
	s.Save()
	sandbox.WriteJSON(w, http.StatusOK, map[string]string{"feedId": id})
}

// process processes a feed due (FeedDelay after its upload): each item is set, or fails with
// a DATA_ERROR (an item the seller does not have, a bad quantity). It reports whether the
// feed is processed (the lock held).
func (s *Sandbox) process(sl *Seller, f *Feed) bool {
	if f.Processed {
		return true
	}
	if time.Since(f.Date) < s.FeedDelay {
		return false
	}
	for i, it := range f.Items {
		st := PartnerItemIngestionStatus{SKU: it.SKU, Index: i, IngestionStatus: "SUCCESS"}
		msg := checkQuantity(it)
		if _, ok := sl.Items[it.SKU]; msg == "" && !ok {
			msg = "Item not found for the SKU " + it.SKU
		}
		if msg != "" {
			st.IngestionStatus = "DATA_ERROR"
			st.IngestionErrors = &IngestionErrors{IngestionError: []IngestionError{{Type: "DATA_ERROR", Code: "ERR_EXT_DATA_0801001", Description: msg}}}
		} else {
			sl.Items[it.SKU] = *it.Quantity.Amount
		}
		f.Statuses = append(f.Statuses, st)
	}
	f.Processed = true
	s.Save()
	return true
}

// feedStatusOf is a feed's status and counts.
func feedStatusOf(f *Feed) (status string, ok, failed int) {
	if !f.Processed {
		return "INPROGRESS", 0, 0
	}
	for _, st := range f.Statuses {
		if st.IngestionStatus == "SUCCESS" {
			ok++
		} else {
			failed++
		}
	}
	return "PROCESSED", ok, failed
}

// feedItemStatus serves getFeedItemStatus: the feed's status and counts, and with
// includeDetails=true its items' statuses from offset, limit (1 to 50) at a time.
func (s *Sandbox) feedItemStatus(w http.ResponseWriter, r *http.Request, sl *Seller) {
	f := sl.Feeds[r.PathValue("feedId")]
	if f == nil {
		writeError(w, http.StatusNotFound, "CONTENT_NOT_FOUND.GMP_FEED_API", "feed "+r.PathValue("feedId")+" not found")
		return
	}
	s.process(sl, f)
	q := r.URL.Query()
	offset, limit := 0, MaxDetails
	var err1, err2 error
	if v := q.Get("offset"); v != "" {
		offset, err1 = strconv.Atoi(v)
	}
	if v := q.Get("limit"); v != "" {
		limit, err2 = strconv.Atoi(v)
	}
	if err1 != nil || err2 != nil || offset < 0 || limit < 1 || limit > MaxDetails {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "limit cannot be more than 50 entities; offset from 0")
		return
	}
	status, ok, failed := feedStatusOf(f)
	out := PartnerFeedResponse{FeedID: f.ID, FeedStatus: status, ItemsReceived: len(f.Items), ItemsSucceeded: ok,
		ItemsFailed: failed, ItemsProcessing: len(f.Items) - ok - failed, Offset: offset, Limit: limit}
	if q.Get("includeDetails") == "true" {
		out.ItemDetails = &struct {
			ItemIngestionStatus []PartnerItemIngestionStatus `json:"itemIngestionStatus"`
		}{ItemIngestionStatus: []PartnerItemIngestionStatus{}}
		if offset < len(f.Statuses) {
			out.ItemDetails.ItemIngestionStatus = f.Statuses[offset:min(offset+limit, len(f.Statuses))]
		}
	}
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// feedStatuses serves getAllFeedStatuses: the seller's feeds, newest first, limit (1 to 50)
// at a time.
func (s *Sandbox) feedStatuses(w http.ResponseWriter, r *http.Request, sl *Seller) {
	limit := MaxDetails
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxDetails {
			writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "limit cannot be more than 50")
			return
		}
		limit = n
	}
	feeds := make([]*Feed, 0, len(sl.Feeds))
	for _, f := range sl.Feeds {
		s.process(sl, f)
		feeds = append(feeds, f)
	}
	slices.SortFunc(feeds, func(a, b *Feed) int { return b.Date.Compare(a.Date) })
	recs := []FeedRecord{}
	for _, f := range feeds[:min(limit, len(feeds))] {
		status, ok, failed := feedStatusOf(f)
		recs = append(recs, FeedRecord{FeedID: f.ID, FeedType: "inventory", FeedStatus: status, FeedDate: f.Date.UnixMilli(),
			ItemsReceived: int64(len(f.Items)), ItemsSucceeded: int64(ok), ItemsFailed: int64(failed),
			ItemsProcessing: int64(len(f.Items) - ok - failed)})
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"totalResults": len(feeds), "offset": 0, "limit": limit,
		"results": map[string]any{"feed": recs}})
}

// feedErrorReport serves getFeedErrorReport, which Walmart offers for the fitment feeds only
// (FITMENT_ACES, FITMENT_PIES): an inventory feed's errors are in its items' statuses.
func (s *Sandbox) feedErrorReport(w http.ResponseWriter, r *http.Request, _ *Seller) {
	ft := r.URL.Query().Get("feedType")
	if !strings.HasPrefix(ft, "FITMENT_") {
		writeError(w, http.StatusBadRequest, "INVALID_REQUEST_PARAM", "the error report serves feedType FITMENT_ACES and FITMENT_PIES only")
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
