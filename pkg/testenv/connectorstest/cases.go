package connectorstest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// The conformance suite's cases, by name.
const (
	CaseCredentials  = "credentials"
	CaseRefusal      = "refused token disconnects"
	CaseNotRefusal   = "other failures do not disconnect"
	CaseThrottling   = "429 and throttling"
	CasePaging       = "poll paging"
	CaseResume       = "cursor and resume"
	CaseResults      = "one result per listing"
	CaseTracking     = "idempotent tracking"
	CaseBadAnswers   = "bad answers"
	CaseEndless      = "endless paging"
	CaseBadOrder     = "bad order does not hold up the others"
	CaseForeign      = "document naming another channel refused"
	CaseNoCredential = "no credential in errors"
	CaseShippedFirst = "first seen shipped"
	CaseShippedAfter = "shipped on the channel after import"
	CaseOneCancelled = "one line of two cancelled"
)

// suiteCase is one case of the suite.
type suiteCase struct {
	name string
	run  func(c *C)
}

// cases are the suite's cases.
var cases = []suiteCase{
	{CaseCredentials, credentialsCase},
	{CaseRefusal, refusalCase},
	{CaseNotRefusal, notRefusalCase},
	{CaseThrottling, throttlingCase},
	{CasePaging, pagingCase},
	{CaseResume, resumeCase},
	{CaseResults, resultsCase},
	{CaseTracking, trackingCase},
	{CaseBadAnswers, badAnswersCase},
	{CaseEndless, endlessCase},
	{CaseBadOrder, badOrderCase},
	{CaseForeign, foreignCase},
	{CaseNoCredential, noCredentialCase},
	{CaseShippedFirst, firstSeenShippedCase},
	{CaseShippedAfter, shippedAfterImportCase},
	{CaseOneCancelled, oneLineCancelledCase},
}

// credentialsCase: the sandbox's credentials parse and verify; missing, extra or malformed
// fields are an errs error of the client's (Invalid, Malformed); refused credentials fail Verify as an *AuthError.
func credentialsCase(c *C) {
	if _, err := c.conn.ParseCredentials(c.sb.Credentials); err != nil {
		c.Fatalf("the sandbox's credentials: %v", err)
	}
	var fields map[string]any
	_ = json.Unmarshal(c.sb.Credentials, &fields)
	extra := map[string]any{"unexpected_field": "x"}
	for k, v := range fields {
		extra[k] = v
	}
	bad := map[string][]byte{"empty object": []byte(`{}`), "not JSON": []byte(`client_id=x`), "extra field": jsonOf(extra)}
	for k := range fields {
		missing := map[string]any{}
		for k2, v := range fields {
			if k2 != k {
				missing[k2] = v
			}
		}
		if !slices.Contains(c.h.Optional, k) {
			bad["without "+k] = jsonOf(missing)
		}
		long := map[string]any{}
		for k2, v := range fields {
			long[k2] = v
		}
		long[k] = strings.Repeat("x", 64<<10)
		bad["oversize "+k] = jsonOf(long)
	}
	for name, raw := range bad {
		_, err := c.conn.ParseCredentials(raw)
		if _, ok := errs.As(err); !ok || !errs.KindOf(err).Client() {
			c.Errorf("credentials %s: got %v, want an Invalid or Malformed error", name, err)
		}
		c.checkErr("credentials "+name, err)
	}
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	if err := c.rt.Verify(ctx, c.ch, c.sb.Credentials); err != nil {
		c.Errorf("verify: %v", err)
	}
	c.sb.Refuse(true)
	err := c.rt.Verify(ctx, c.ch, c.sb.Credentials)
	var ae *connectors.AuthError
	if !errors.As(err, &ae) {
		c.Errorf("verify of refused credentials: got %v, want an AuthError", err)
	}
	c.checkErr("verify", err)
}

// refusalCase: a refused token is an *AuthError, counted toward the disconnection: the
// RefusalsToDisconnect-th in a row disconnects the channel, the ones before do not.
func refusalCase(c *C) {
	c.sb.Refuse(true)
	for i := 1; i <= connectors.RefusalsToDisconnect; i++ {
		_, err := c.poll()
		var (
			ae *connectors.AuthError
			d  *connectors.Disconnected
		)
		switch {
		case i < connectors.RefusalsToDisconnect && (!errors.As(err, &ae) || errors.As(err, &d)):
			c.Errorf("refusal %d: got %v, want an AuthError, not yet disconnected", i, err)
		case i == connectors.RefusalsToDisconnect && !errors.As(err, &d):
			c.Errorf("refusal %d: got %v, want Disconnected", i, err)
		}
	}
}

// notRefusalCase: failures that are not a refusal of the token (a 500, a 400, a 403 of
// something else than the token would not be told apart here) never disconnect.
func notRefusalCase(c *C) {
	c.place(1)
	c.faults.add(c.sb.Orders, -1, answer(http.StatusInternalServerError, `{"error":"server_error","errors":[{"code":"InternalFailure","message":"injected"}]}`))
	for i := range connectors.RefusalsToDisconnect + 1 {
		_, err := c.poll()
		var (
			ae *connectors.AuthError
			d  *connectors.Disconnected
		)
		if err == nil || errors.As(err, &ae) || errors.As(err, &d) {
			c.Errorf("poll %d against a failing marketplace: got %v, want an error that is no refusal", i+1, err)
		}
	}
	c.recovers("the failures")
}

// throttlingCase: a 429 with a short Retry-After is waited and the poll goes on; one longer
// than the runtime waits is *connectors.Throttled, neither a refusal nor a failure of the
// orders.
func throttlingCase(c *C) {
	c.place(1)
	c.faults.add(c.sb.Orders, 1, throttled(time.Second))
	if _, err := c.poll(); err != nil {
		c.Errorf("poll through a 429 of 1s: %v", err)
	}
	if got := c.take(); len(got) != 1 {
		c.Errorf("after a 429 of 1s, %d orders sent, want 1", len(got))
	}
	c.faults.add(c.sb.Orders, 1, throttled(time.Minute))
	_, err := c.poll()
	var th *connectors.Throttled
	if !errors.As(err, &th) {
		c.Errorf("poll through a 429 of a minute: got %v, want Throttled", err)
	} else if th.RetryAt.Before(time.Now().Add(30 * time.Second)) {
		c.Errorf("Throttled until %v, want the Retry-After's minute", th.RetryAt)
	}
}

// pagingCase: a poll reads every page: PageSize+1 orders come in two pages, each once.
func pagingCase(c *C) {
	n := c.h.PageSize + 1
	c.place(n)
	res, err := c.poll()
	if err != nil {
		c.Fatalf("poll: %v", err)
	}
	got := c.take()
	if res.Pages < 2 || len(got) != n {
		c.Errorf("poll of %d orders: %d pages, %d orders sent, want at least 2 pages and %d", n, res.Pages, len(got), n)
	}
	for ref, docs := range got {
		if len(docs) != 1 {
			c.Errorf("order %s sent %d times in one poll, want once", ref, len(docs))
		}
	}
}

// resumeCase: the cursor moves on (a poll does not send again what an earlier one sent,
// but what changed within the overlap); a poll that fails keeps it, and the next sends the
// orders the failed one did not.
func resumeCase(c *C) {
	c.place(3)
	if _, err := c.poll(); err != nil {
		c.Fatalf("poll: %v", err)
	}
	if got := c.fresh(c.take()); len(got) != 3 {
		c.Errorf("first poll: %d orders, want 3", len(got))
	}
	// Marketplaces stamp changes in whole seconds: 2.1 s on, the next orders' stamp is at least
	// 2 s later, so the runtime's overlap of a second stays short of the orders before.
	time.Sleep(2100 * time.Millisecond)
	c.place(1)
	if _, err := c.poll(); err != nil {
		c.Fatalf("poll: %v", err)
	}
	if got := c.fresh(c.take()); len(got) != 1 {
		c.Errorf("second poll: %d new orders (%v), want 1", len(got), got)
	}
	time.Sleep(2100 * time.Millisecond)
	c.place(2)
	c.faults.add(c.sb.Orders, 1, answer(http.StatusInternalServerError, `{"error":"server_error"}`))
	if _, err := c.poll(); err == nil {
		c.Errorf("a poll whose orders failed succeeded")
	}
	if got := c.take(); len(got) != 0 {
		c.Errorf("a failed poll sent %d orders", len(got))
	}
	if _, err := c.poll(); err != nil {
		c.Fatalf("poll after the failure: %v", err)
	}
	got := c.take()
	if fresh := c.fresh(got); len(fresh) != 2 || len(got) > 3 {
		c.Errorf("the poll after a failure sent %v, of which %d new, want the 2 the failed one missed (and the one within the overlap)", keys(got), len(fresh))
	}
}

// resultsCase: a push answers one result per listing of the batch, a listing the channel
// does not know too, and sets the quantity of the one it knows.
func resultsCase(c *C) {
	s := c.session()
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	batch := []connectors.QuantityPush{{ChannelSKU: c.sb.SKU, Quantity: 7}, {ChannelSKU: "NO-SUCH-SKU-1", Quantity: 1}, {ChannelSKU: "NO-SUCH-SKU-2", Quantity: 2}}
	res, err := c.conn.PushQuantities(ctx, s, batch)
	c.checkErr("push", err)
	if err != nil {
		c.Fatalf("push: %v", err)
	}
	seen := map[string]int{}
	for _, r := range res {
		seen[r.ChannelSKU]++
	}
	for _, p := range batch {
		if seen[p.ChannelSKU] != 1 {
			c.Errorf("listing %s: %d results, want 1", p.ChannelSKU, seen[p.ChannelSKU])
		}
	}
	if len(res) != len(batch) {
		c.Errorf("%d results for %d listings", len(res), len(batch))
	}
	for _, r := range res {
		if r.ChannelSKU == c.sb.SKU && !r.OK && r.RetryAt.IsZero() {
			c.Errorf("listing %s: %+v, want OK", r.ChannelSKU, r)
		}
	}
	if q, ok := c.sb.Quantity(c.sb.SKU); !ok || q != 7 {
		c.Errorf("the listing shows %d (%v), want 7", q, ok)
	}
}

// trackingCase: a shipment's tracking posted twice is posted once.
func trackingCase(c *C) {
	id := c.place(1)[0]
	if _, err := c.poll(); err != nil {
		c.Fatalf("poll: %v", err)
	}
	var doc map[string]any
	for _, docs := range c.take() {
		doc = docs[0]
	}
	if doc == nil {
		c.Fatalf("no order imported")
	}
	ref, _ := doc["display_ref"].(string)
	tr := connectors.Tracking{DisplayRef: ref, ShipmentID: "SHIP-1", CarrierName: "UPS", CarrierNameGiven: "UPS",
		TrackingNumber: "1Z999AA10123456784", ShippedAt: time.Now().UTC().Format(time.RFC3339)}
	items, _ := doc["items"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		q, _ := m["quantity"].(float64)
		itemRef, _ := m["order_item_ref"].(string)
		sku, _ := m["sku"].(string)
		tr.Items = append(tr.Items, connectors.TrackingItem{OrderItemRef: itemRef, SKU: sku, Quantity: int64(q)})
	}
	s := c.session()
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	for i := range 2 {
		err := c.conn.PostTracking(ctx, s, tr)
		c.checkErr("tracking", err)
		if err != nil {
			c.Errorf("post %d of the tracking: %v", i+1, err)
		}
	}
	if got := c.sb.Trackings(id, ref); got != 1 {
		c.Errorf("order %s has %d trackings after the same one posted twice, want 1", ref, got)
	}
}

// badAnswers are the bad answers to a page of orders: what each does to the real answer.
var badAnswers = []struct {
	name string
	body func(real []byte) []byte
}{
	{"malformed", func([]byte) []byte { return []byte(`{"orders": [{"id": 1,,]`) }},
	{"not the shape asked", func([]byte) []byte { return []byte(`[1, 2, 3]`) }},
	{"truncated", func(real []byte) []byte { return real[:len(real)/2] }},
	{"huge", func([]byte) []byte { return append([]byte(`{"orders":["`), bytes.Repeat([]byte("x"), 20<<20)...) }},
}

// badAnswersCase: a malformed, truncated or huge answer to a page of orders fails the poll
// (no panic, no refusal, nothing sent), and the next poll imports the orders.
func badAnswersCase(c *C) {
	c.place(1)
	for _, b := range badAnswers {
		c.faults.add(c.sb.Orders, 1, func(r *http.Request) (*http.Response, error) {
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err != nil {
				return nil, err
			}
			real, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(b.body(real)))
			resp.ContentLength = -1
			resp.Header.Del("Content-Length")
			return resp, nil
		})
		_, err := c.poll()
		var ae *connectors.AuthError
		if err == nil || errors.As(err, &ae) {
			c.Errorf("%s answer: got %v, want an error that is no refusal", b.name, err)
		}
		if got := c.take(); len(got) != 0 {
			c.Errorf("%s answer: %d orders sent", b.name, len(got))
		}
	}
	c.recovers("the bad answers")
}

// endlessCase: a marketplace that answers the same page for ever (its next page token
// leading back to itself, or on to ever new ones) does not hold a poll for ever: the runtime
// ends it itself, on a page token answered twice or after MaxPollPages pages, well before the
// poll's context ends.
func endlessCase(c *C) {
	c.place(c.h.PageSize + 1)
	var first []byte
	c.faults.add(c.sb.Orders, -1, func(r *http.Request) (*http.Response, error) {
		if first == nil {
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err != nil {
				return nil, err
			}
			first, _ = io.ReadAll(resp.Body)
			_ = resp.Body.Close()
		}
		return answer(http.StatusOK, string(first))(r)
	})
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	res, err := c.rt.Poll(ctx, c.ch)
	c.checkErr("endless poll", err)
	var th *connectors.Throttled
	switch {
	case ctx.Err() != nil || errors.As(err, &th) || errors.Is(err, context.DeadlineExceeded):
		c.Errorf("endless paging: got %v, want the runtime to end the poll itself, not its context's end", err)
	case res.Pages > connectors.MaxPollPages:
		c.Errorf("endless paging: %d pages read, want at most %d a poll", res.Pages, connectors.MaxPollPages)
	}
}

// badOrderCase: an order the connector cannot turn into a document does not hold up the
// orders after it: they are sent (the bad one need not be).
func badOrderCase(c *C) {
	if c.sb.BadOrder == nil {
		c.Skipf("the marketplace has no order the connector cannot read")
	}
	bad := c.sb.BadOrder()
	time.Sleep(10 * time.Millisecond)
	c.place(2)
	got := map[string][]map[string]any{}
	for range 2 {
		_, err := c.poll()
		c.Logf("poll: %v", err)
		for ref, docs := range c.take() {
			got[ref] = append(got[ref], docs...)
		}
	}
	delete(got, bad)
	if len(got) != 2 {
		c.Errorf("the 2 orders after a bad one: %d sent (%v), want 2", len(got), keys(got))
	}
}

// foreignCase: a document naming another channel never reaches the inbox.
func foreignCase(c *C) {
	if c.sb.ForeignOrder == nil {
		c.Skipf("the connector names the session's channel in every document it builds")
	}
	c.sb.ForeignOrder("00000000-0000-4000-8000-000000000000")
	c.place(1)
	got := map[string]bool{}
	for range 2 {
		_, err := c.poll()
		c.Logf("poll: %v", err)
		for ref := range c.take() { // fails the case for a document of another channel
			got[ref] = true
		}
	}
	if len(got) != 1 {
		c.Errorf("orders sent beside the foreign one: %v, want the 1 of the channel", keys(got))
	}
}

// noCredentialCase: an answer that quotes the request back (as some token endpoints and
// gateways do) does not put a credential value into the error the runtime records.
func noCredentialCase(c *C) {
	echo := func(r *http.Request) (*http.Response, error) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
		}
		quoted := fmt.Sprintf("%s %s %v %s", r.Method, r.URL, r.Header, body)
		msg, _ := json.Marshal(map[string]any{"error": "invalid_request", "error_description": quoted,
			"errors": []map[string]string{{"code": "InvalidInput", "message": quoted}}})
		return answer(http.StatusBadRequest, string(msg))(r)
	}
	c.faults.add(func(*http.Request) bool { return true }, -1, echo)
	_, err := c.poll()
	if err == nil {
		c.Errorf("a poll against a marketplace that answers 400 succeeded")
	}
	ctx, cancel := c.ctx(time.Minute)
	defer cancel()
	c.checkErr("verify", c.rt.Verify(ctx, c.ch, c.sb.Credentials))
}

// answer is a fault answering status with body.
func answer(status int, body string) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Status: http.StatusText(status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body)),
			ContentLength: int64(len(body)), Request: r}, nil
	}
}

// throttled is a fault answering 429 with a Retry-After of d.
func throttled(d time.Duration) func(*http.Request) (*http.Response, error) {
	return func(r *http.Request) (*http.Response, error) {
		resp, _ := answer(http.StatusTooManyRequests, `{"errors":[{"code":"QuotaExceeded","message":"You exceeded your quota"}]}`)(r)
		resp.Header.Set("Retry-After", fmt.Sprint(int(d.Seconds())))
		return resp, nil
	}
}

// jsonOf is v in JSON.
func jsonOf(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// recovers clears the faults and checks that the next poll imports the one order placed.
func (c *C) recovers(after string) {
	c.Helper()
	c.faults.clear()
	if _, err := c.poll(); err != nil {
		c.Errorf("poll after %s: %v", after, err)
	}
	if got := c.take(); len(got) != 1 {
		c.Errorf("after %s, %d orders sent, want 1", after, len(got))
	}
}

// fresh are the display refs of got not sent before in the case, which it remembers.
func (c *C) fresh(got map[string][]map[string]any) []string {
	var out []string
	for ref := range got {
		if !c.seen[ref] {
			c.seen[ref] = true
			out = append(out, ref)
		}
	}
	return out
}

// keys are a map's keys.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
