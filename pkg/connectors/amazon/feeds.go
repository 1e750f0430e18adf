package amazon

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
)

// feedType is the feed of listings' patches.
const feedType = "JSON_LISTINGS_FEED"

// feedInfo is a feed as getFeed and getFeeds answer it.
type feedInfo struct {
	FeedID           string `json:"feedId"`
	ProcessingStatus string `json:"processingStatus"`
	ResultDocumentID string `json:"resultFeedDocumentId"`
}

// done reports whether Amazon has finished with the feed.
func (f feedInfo) done() bool {
	switch f.ProcessingStatus {
	case "DONE", "FATAL", "CANCELLED":
		return true
	}
	return false
}

// report is the part of a JSON_LISTINGS_FEED processing report the push reads: the issues
// per SKU, and each listing's availability after the feed (the feeds ask for it).
type report struct {
	Issues []struct {
		issue
		SKU string `json:"sku"`
	} `json:"issues"`
	Items []struct {
		SKU                     string         `json:"sku"`
		FulfillmentAvailability []availability `json:"fulfillmentAvailability"`
	} `json:"items"`
}

// pushFeed pushes a batch as one JSON_LISTINGS_FEED and turns its processing report into
// the listings' results, waiting for the report at most FeedWait.
//
// No second feed of the same quantities by accident: first the seller's feeds of the last
// FeedWindow are read (getFeeds); one still processing is waited for (never another sent
// beside it), and the reports of those done settle every listing of the batch they show at
// the quantity asked, or as fulfilled by Amazon. Only the listings left go as a new feed (or as patches, if they are
// FeedThreshold or fewer). A feed not done within FeedWait puts the push off
// (*connectors.Throttled, retried after FeedRetry): never a failed push for Amazon's
// slowness, and the retry finds that feed again instead of sending another.
func (c *Connector) pushFeed(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush) ([]connectors.QuantityResult, error) {
	deadline := time.Now().Add(setting(c.FeedWait, DefaultFeedWait))
	cr := s.Credentials.(credentials)
	body, err := call(ctx, s, OpGetFeeds, "GET", "/feeds/2021-06-30/feeds", url.Values{
		"feedTypes": {feedType}, "marketplaceIds": {cr.MarketplaceID}, "processingStatuses": {"IN_QUEUE,IN_PROGRESS,DONE"},
		"createdSince": {time.Now().Add(-setting(c.FeedWindow, DefaultFeedWindow)).UTC().Format(time.RFC3339)}}, nil)
	if err != nil {
		return nil, err
	}
	var recent struct {
		Feeds []feedInfo `json:"feeds"`
	}
	if err := decode(ctx, s, OpGetFeeds, body, &recent); err != nil {
		return nil, err
	}
	settled := map[string]connectors.QuantityResult{}
	for _, f := range recent.Feeds {
		if f, err = c.await(ctx, s, f, deadline); err != nil {
			return nil, err
		}
		if f.ProcessingStatus != "DONE" {
			continue
		}
		rep, err := readReport(ctx, s, f)
		if err != nil {
			return nil, err
		}
		for sku, r := range rep.results(batch) {
			if _, ok := settled[sku]; !ok && (r.OK || r.Off != "") {
				settled[sku] = r
			}
		}
	}
	var rest []connectors.QuantityPush
	for _, p := range batch {
		if _, ok := settled[p.ChannelSKU]; !ok {
			rest = append(rest, p)
		}
	}
	switch {
	case len(rest) == 0:
	case len(rest) <= setting(c.FeedThreshold, DefaultFeedThreshold):
		res, err := patchAll(ctx, s, rest)
		if err != nil {
			return nil, err
		}
		for _, r := range res {
			settled[r.ChannelSKU] = r
		}
	default:
		if err := c.sendFeed(ctx, s, rest, deadline, settled); err != nil {
			return nil, err
		}
	}
	out := make([]connectors.QuantityResult, len(batch))
	for i, p := range batch {
		r, ok := settled[p.ChannelSKU]
		if !ok {
			r = connectors.QuantityResult{ChannelSKU: p.ChannelSKU, Error: "Amazon's feed report does not show the listing"}
		}
		out[i] = r
	}
	return out, nil
}

// sendFeed sends the listings as one feed, waits for its report and puts their results in
// settled.
func (c *Connector) sendFeed(ctx context.Context, s *connectors.Session, batch []connectors.QuantityPush, deadline time.Time, settled map[string]connectors.QuantityResult) error {
	cr := s.Credentials.(credentials)
	type message struct {
		MessageID     int       `json:"messageId"`
		SKU           string    `json:"sku"`
		OperationType string    `json:"operationType"`
		ProductType   string    `json:"productType"`
		Patches       []patchOp `json:"patches"`
	}
	msgs := make([]message, len(batch))
	for i, p := range batch {
		msgs[i] = message{MessageID: i + 1, SKU: p.ChannelSKU, OperationType: "PATCH", ProductType: productType, Patches: quantityPatch(p.Quantity)}
	}
	content := jsonOf(map[string]any{
		"header":   map[string]any{"sellerId": cr.SellerID, "version": "2.0", "report": map[string]any{"includedData": []string{"issues", "fulfillmentAvailability"}, "apiVersion": "2021-08-01"}},
		"messages": msgs,
	})
	const contentType = "application/json; charset=UTF-8"
	body, err := call(ctx, s, OpCreateFeedDocument, "POST", "/feeds/2021-06-30/documents", nil, map[string]string{"contentType": contentType})
	if err != nil {
		return err
	}
	var doc struct {
		ID  string `json:"feedDocumentId"`
		URL string `json:"url"`
	}
	if err := decode(ctx, s, OpCreateFeedDocument, body, &doc); err != nil {
		return err
	}
	if doc.ID == "" || doc.URL == "" {
		return fmt.Errorf("amazon %s: the answer has no feedDocumentId and url", OpCreateFeedDocument)
	}
	resp, err := s.Call(ctx, OpUploadFeedDocument, connectors.Request{Method: http.MethodPut, URL: doc.URL,
		Header: http.Header{"Content-Type": {contentType}}, Body: content})
	if err != nil {
		return err
	}
	if resp.Status/100 != 2 {
		return fmt.Errorf("amazon feed document upload: status %d", resp.Status)
	}
	body, err = call(ctx, s, OpCreateFeed, "POST", "/feeds/2021-06-30/feeds", nil, map[string]any{
		"feedType": feedType, "marketplaceIds": []string{cr.MarketplaceID}, "inputFeedDocumentId": doc.ID})
	if err != nil {
		return err
	}
	var f feedInfo
	if err := decode(ctx, s, OpCreateFeed, body, &f); err != nil {
		return err
	}
	if f.FeedID == "" {
		return fmt.Errorf("amazon %s: the answer has no feedId", OpCreateFeed)
	}
	f.ProcessingStatus = "IN_QUEUE"
	if f, err = c.await(ctx, s, f, deadline); err != nil {
		return err
	}
	if f.ProcessingStatus != "DONE" {
		return fmt.Errorf("amazon feed %s ended %s: no quantity of it was set", f.FeedID, f.ProcessingStatus)
	}
	rep, err := readReport(ctx, s, f)
	if err != nil {
		return err
	}
	for sku, r := range rep.results(batch) {
		settled[sku] = r
	}
	return nil
}

// await waits for a feed until it is done or deadline passes, then Throttled until
// FeedRetry from now.
func (c *Connector) await(ctx context.Context, s *connectors.Session, f feedInfo, deadline time.Time) (feedInfo, error) {
	for !f.done() {
		if time.Now().Add(setting(c.FeedPoll, DefaultFeedPoll)).After(deadline) {
			return f, &connectors.Throttled{Op: OpGetFeed, RetryAt: time.Now().Add(setting(c.FeedRetry, DefaultFeedRetry))}
		}
		select {
		case <-ctx.Done():
			return f, ctx.Err()
		case <-time.After(setting(c.FeedPoll, DefaultFeedPoll)):
		}
		body, err := call(ctx, s, OpGetFeed, "GET", "/feeds/2021-06-30/feeds/"+url.PathEscape(f.FeedID), nil, nil)
		if err != nil {
			return f, err
		}
		if err := decode(ctx, s, OpGetFeed, body, &f); err != nil {
			return f, err
		}
	}
	return f, nil
}

// readReport downloads a done feed's processing report.
func readReport(ctx context.Context, s *connectors.Session, f feedInfo) (report, error) {
	var rep report
	if f.ResultDocumentID == "" {
		return rep, fmt.Errorf("amazon feed %s is done without a resultFeedDocumentId", f.FeedID)
	}
	body, err := call(ctx, s, OpGetFeedDocument, "GET", "/feeds/2021-06-30/documents/"+url.PathEscape(f.ResultDocumentID), nil, nil)
	if err != nil {
		return rep, err
	}
	var doc struct {
		URL         string `json:"url"`
		Compression string `json:"compressionAlgorithm"`
	}
	if err := decode(ctx, s, OpGetFeedDocument, body, &doc); err != nil {
		return rep, err
	}
	if doc.URL == "" || (doc.Compression != "" && doc.Compression != "GZIP") {
		return rep, fmt.Errorf("amazon feed %s: its report has no url, or a compression the connector does not read (%q)", f.FeedID, doc.Compression)
	}
	resp, err := s.Call(ctx, OpDownloadDocument, connectors.Request{Method: http.MethodGet, URL: doc.URL})
	if err != nil {
		return rep, err
	}
	if resp.Status/100 != 2 {
		return rep, fmt.Errorf("amazon feed %s: report download: status %d", f.FeedID, resp.Status)
	}
	body = resp.Body
	if doc.Compression == "GZIP" {
		if body, err = gunzip(body); err != nil {
			return rep, fmt.Errorf("amazon feed %s: report: %w", f.FeedID, err)
		}
	}
	return rep, decode(ctx, s, OpDownloadDocument, body, &rep)
}

// maxReport bounds a processing report once decompressed.
const maxReport = 64 << 20

// gunzip is a GZIP document decompressed, refused past maxReport bytes.
func gunzip(b []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("not GZIP: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, maxReport+1))
	if err != nil {
		return nil, fmt.Errorf("GZIP: %w", err)
	}
	if len(out) > maxReport {
		return nil, fmt.Errorf("over %d MiB decompressed: refused", maxReport>>20)
	}
	return out, nil
}

// results are the report's results of the listings of batch it shows: OK with the quantity
// Amazon shows (an ERROR issue: failed with it), Off when Amazon fulfills the listing.
func (rep report) results(batch []connectors.QuantityPush) map[string]connectors.QuantityResult {
	want := map[string]int64{}
	for _, p := range batch {
		want[p.ChannelSKU] = p.Quantity
	}
	issues := map[string][]issue{}
	for _, i := range rep.Issues {
		issues[i.SKU] = append(issues[i.SKU], i.issue)
	}
	out := map[string]connectors.QuantityResult{}
	for _, it := range rep.Items {
		q, ok := want[it.SKU]
		if !ok {
			continue
		}
		r := connectors.QuantityResult{ChannelSKU: it.SKU}
		if off := offReason(it.FulfillmentAvailability); off != "" {
			r.Off = off
		} else if errs := issues[it.SKU]; hasError(errs) {
			r.Error = issuesText(errs)
		} else {
			for _, a := range it.FulfillmentAvailability {
				if a.Code == defaultChannel && a.Quantity != nil && *a.Quantity == q {
					r.OK, r.ChannelQuantity = true, q
				}
			}
		}
		if !r.OK && r.Off == "" && r.Error == "" {
			r.Error = "Amazon's feed report shows another quantity than the one pushed"
		}
		out[it.SKU] = r
	}
	for sku, errs := range issues {
		if _, seen := out[sku]; !seen && hasError(errs) {
			if _, ok := want[sku]; ok {
				out[sku] = connectors.QuantityResult{ChannelSKU: sku, Error: issuesText(errs)}
			}
		}
	}
	return out
}

// hasError reports whether an issue is an ERROR.
func hasError(issues []issue) bool {
	return slices.ContainsFunc(issues, func(i issue) bool { return i.Severity == "ERROR" })
}
