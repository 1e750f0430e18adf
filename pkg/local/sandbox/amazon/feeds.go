package amazon

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors/amazon"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// The sandbox's stand-ins of the pre-signed URLs a feed document is uploaded to and
// downloaded from (outside the API: not counted, not limited, like Amazon's S3).
const (
	uploadPath   = "/sandbox/feed-documents/upload/"
	downloadPath = "/sandbox/feed-documents/download/"
)

// doc is a feed document: an input the seller uploads, or a processing report.
type doc struct {
	Seller      string `json:"seller"`
	ContentType string `json:"content_type"`
	Content     []byte `json:"content"`
	// Gzip: the content is GZIP-compressed (a processing report of GzipReports).
	Gzip bool `json:"gzip,omitempty"`
}

// feed is a submitted feed.
type feed struct {
	Seller         string    `json:"seller"`
	FeedID         string    `json:"feedId"`
	FeedType       string    `json:"feedType"`
	MarketplaceIDs []string  `json:"marketplaceIds"`
	Input          string    `json:"input"`
	Created        time.Time `json:"created"`
	Status         string    `json:"status"`
	Ended          time.Time `json:"ended"`
	Result         string    `json:"result,omitempty"`
}

// wire is the feed as the Feeds API answers it.
func (f *feed) wire() map[string]any {
	out := map[string]any{"feedId": f.FeedID, "feedType": f.FeedType, "marketplaceIds": f.MarketplaceIDs,
		"createdTime": f.Created.UTC().Format(time.RFC3339), "processingStatus": f.Status}
	if !f.Ended.IsZero() {
		out["processingStartTime"] = f.Created.UTC().Format(time.RFC3339)
		out["processingEndTime"] = f.Ended.UTC().Format(time.RFC3339)
	}
	if f.Result != "" {
		out["resultFeedDocumentId"] = f.Result
	}
	return out
}

// createFeedDocument answers a new document's id and the URL to upload it to.
func (a *Amazon) createFeedDocument(w http.ResponseWriter, r *http.Request, s *Seller) {
	var in struct {
		ContentType string `json:"contentType"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil || in.ContentType == "" {
		writeError(w, http.StatusBadRequest, "InvalidInput", "contentType is required")
		return
	}
	id := a.nextID("amzn1.tortuga.4.na.")
	a.st.Docs[id] = &doc{Seller: s.ID, ContentType: in.ContentType}
	sandbox.WriteJSON(w, http.StatusCreated, map[string]string{"feedDocumentId": id, "url": a.URL + uploadPath + id})
}

// upload takes a document's content (PUT to its URL).
func (a *Amazon) upload(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
	a.Lock()
	defer a.Unlock()
	d := a.st.Docs[r.PathValue("id")]
	if err != nil || d == nil {
		http.Error(w, "NoSuchUpload", http.StatusNotFound)
		return
	}
	d.Content = body
	a.requests = append(a.requests, Request{Op: amazon.OpUploadFeedDocument, Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	a.Save()
	w.WriteHeader(http.StatusOK)
}

// download answers a document's content.
func (a *Amazon) download(w http.ResponseWriter, r *http.Request) {
	a.Lock()
	defer a.Unlock()
	d := a.st.Docs[r.PathValue("id")]
	if d == nil {
		http.Error(w, "NoSuchKey", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", d.ContentType)
	_, _ = w.Write(d.Content)
}

// createFeed submits a JSON_LISTINGS_FEED of an uploaded document (202).
func (a *Amazon) createFeed(w http.ResponseWriter, r *http.Request, s *Seller) {
	var in struct {
		FeedType       string   `json:"feedType"`
		MarketplaceIDs []string `json:"marketplaceIds"`
		Input          string   `json:"inputFeedDocumentId"`
	}
	if json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in) != nil || in.FeedType != "JSON_LISTINGS_FEED" ||
		!slices.Contains(in.MarketplaceIDs, s.MarketplaceID) {
		writeError(w, http.StatusBadRequest, "InvalidInput", "feedType JSON_LISTINGS_FEED, marketplaceIds and inputFeedDocumentId are required")
		return
	}
	if d := a.st.Docs[in.Input]; d == nil || d.Seller != s.ID || d.Content == nil {
		writeError(w, http.StatusBadRequest, "InvalidInput", "inputFeedDocumentId names no uploaded document")
		return
	}
	f := &feed{Seller: s.ID, FeedID: a.nextID(""), FeedType: in.FeedType, MarketplaceIDs: in.MarketplaceIDs,
		Input: in.Input, Created: time.Now(), Status: "IN_QUEUE"}
	a.st.Feeds[f.FeedID] = f
	sandbox.WriteJSON(w, http.StatusAccepted, map[string]string{"feedId": f.FeedID})
}

// getFeed answers a feed of the seller, processed once its FeedDelay has passed.
func (a *Amazon) getFeed(w http.ResponseWriter, r *http.Request, s *Seller) {
	f := a.st.Feeds[r.PathValue("feedId")]
	if f == nil || f.Seller != s.ID {
		writeError(w, http.StatusNotFound, "NotFound", "feed "+r.PathValue("feedId")+" not found")
		return
	}
	a.process(f, s)
	sandbox.WriteJSON(w, http.StatusOK, f.wire())
}

// getFeeds answers the seller's feeds of feedTypes created since createdSince in
// processingStatuses, newest first.
func (a *Amazon) getFeeds(w http.ResponseWriter, r *http.Request, s *Seller) {
	q := r.URL.Query()
	since := time.Now().Add(-90 * 24 * time.Hour)
	if v := q.Get("createdSince"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			writeError(w, http.StatusBadRequest, "InvalidInput", "createdSince must be an ISO 8601 time")
			return
		}
		since = t
	}
	out := []map[string]any{}
	var list []*feed
	for _, f := range a.st.Feeds {
		a.process(f, s)
		if f.Seller == s.ID && !f.Created.Before(since) && in(q.Get("feedTypes"), f.FeedType) && in(q.Get("processingStatuses"), f.Status) {
			list = append(list, f)
		}
	}
	slices.SortFunc(list, func(x, y *feed) int { return y.Created.Compare(x.Created) })
	for _, f := range list {
		out = append(out, f.wire())
	}
	sandbox.WriteJSON(w, http.StatusOK, map[string]any{"feeds": out})
}

// in reports whether the comma-separated list csv (empty: any) holds v.
func in(csv, v string) bool { return csv == "" || slices.Contains(strings.Split(csv, ","), v) }

// getFeedDocument answers a document's download URL, and compressionAlgorithm GZIP for a
// compressed one.
func (a *Amazon) getFeedDocument(w http.ResponseWriter, r *http.Request, s *Seller) {
	id := r.PathValue("feedDocumentId")
	d := a.st.Docs[id]
	if d == nil || d.Seller != s.ID {
		writeError(w, http.StatusNotFound, "NotFound", "feed document "+id+" not found")
		return
	}
	out := map[string]string{"feedDocumentId": id, "url": a.URL + downloadPath + id}
	if d.Gzip {
		out["compressionAlgorithm"] = "GZIP"
	}
	sandbox.WriteJSON(w, http.StatusOK, out)
}

// process runs a feed of the seller whose FeedDelay has passed (the lock held): its
// messages' patches are applied and its processing report written.
func (a *Amazon) process(f *feed, s *Seller) {
	if f.Seller != s.ID || f.Status == "DONE" || f.Status == "FATAL" {
		return
	}
	if time.Since(f.Created) < a.FeedDelay {
		f.Status = "IN_PROGRESS"
		return
	}
	var in struct {
		Header struct {
			SellerID string `json:"sellerId"`
			Version  string `json:"version"`
			Report   *struct {
				IncludedData []string `json:"includedData"`
			} `json:"report"`
		} `json:"header"`
		Messages []struct {
			MessageID     int64   `json:"messageId"`
			SKU           string  `json:"sku"`
			OperationType string  `json:"operationType"`
			ProductType   string  `json:"productType"`
			Patches       []patch `json:"patches"`
		} `json:"messages"`
	}
	f.Status, f.Ended = "FATAL", time.Now()
	type issue struct {
		MessageID     int64  `json:"messageId,omitempty"`
		SKU           string `json:"sku,omitempty"`
		Code          string `json:"code"`
		Severity      string `json:"severity"`
		Message       string `json:"message"`
		AttributeName string `json:"attributeName,omitempty"`
	}
	report := map[string]any{"header": map[string]any{"sellerId": s.ID, "version": "2.0", "feedId": f.FeedID}}
	var issues []issue
	items := []map[string]any{}
	accepted, invalid := 0, 0
	if err := json.Unmarshal(a.st.Docs[f.Input].Content, &in); err != nil || in.Header.SellerID != s.ID || in.Header.Version != "2.0" {
		issues = append(issues, issue{Code: "4000000", Severity: "ERROR", Message: "the feed is not a JSON_LISTINGS_FEED v2 of this seller"})
	} else {
		f.Status = "DONE"
		for _, m := range in.Messages {
			var got []Issue
			if m.OperationType != "PATCH" || m.ProductType == "" {
				got = []Issue{{Code: "4000004", Message: "the sandbox takes PATCH messages with a productType", Severity: "ERROR"}}
			} else {
				got = applyPatches(s, m.SKU, m.Patches)
			}
			for _, g := range got {
				issues = append(issues, issue{MessageID: m.MessageID, SKU: m.SKU, Code: g.Code, Severity: g.Severity, Message: g.Message,
					AttributeName: strings.Join(g.AttributeNames, ",")})
			}
			if len(got) > 0 {
				invalid++
			} else {
				accepted++
			}
			if l := s.Listings[m.SKU]; l != nil && in.Header.Report != nil && slices.Contains(in.Header.Report.IncludedData, "fulfillmentAvailability") {
				items = append(items, map[string]any{"sku": l.SKU, "fulfillmentAvailability": l.availability()})
			}
		}
		if in.Header.Report != nil {
			report["header"].(map[string]any)["report"] = map[string]any{"includedData": in.Header.Report.IncludedData, "apiVersion": "2021-08-01"}
		}
	}
	report["issues"] = append(issues, []issue{}...)
	report["summary"] = map[string]int{"errors": invalid, "warnings": 0, "messagesProcessed": accepted + invalid,
		"messagesAccepted": accepted, "messagesInvalid": invalid}
	report["items"] = items
	content, _ := json.Marshal(report)
	id := a.nextID("amzn1.tortuga.4.na.")
	d := &doc{Seller: s.ID, ContentType: "application/json", Content: content}
	if a.GzipReports {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		_, _ = zw.Write(content)
		_ = zw.Close()
		d.Content, d.Gzip = b.Bytes(), true
	}
	a.st.Docs[id] = d
	f.Result = id
}
