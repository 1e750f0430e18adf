package faults

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// client calls the API as one account.
type client struct {
	id, token, secret string
}

// answer is one API answer: its status, Retry-After, body, and how long it took.
type answer struct {
	status     int
	retryAfter string
	body       []byte
	took       time.Duration
	err        error // no answer at all (the stack was killed)
}

// do sends one request to api and reads the answer.
func (c client) do(api, method, path string, body any) answer {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, api+path, r)
	if err != nil {
		return answer{err: err}
	}
	req.SetBasicAuth(c.token, c.secret)
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(start)}
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return answer{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: b, took: time.Since(start), err: err}
}

// adjustment is one PUT /inventory a worker sent: the values it set.
type adjustment struct {
	id     string
	seq    int64            // the worker's count of requests: later is newer
	values map[string]int64 // by SKU
}

// worker sends PUT /inventory for its own SKUs, one at a time, each with values no other
// request sets, and keeps what was accepted.
type worker struct {
	c         client
	warehouse string
	skus      []string
	seq       int64
	// accepted are the requests answered 200, in order; unknown is the one whose outcome
	// is unknown (no answer, or a 503 saying so), after which the worker stops.
	accepted []adjustment
	unknown  *adjustment
	// answers counts the answers by status; slow holds those that took longer than the
	// function's timeout, refused those that were neither a 2xx nor a 503 with Retry-After.
	answers map[int]int
	slow    []string
	refused []string
	// settled are the values the worker's records held at the last check (none at first),
	// of its request settledSeq; pending are the requests of unknown outcome newer than it.
	settled    map[string]int64
	settledSeq int64
	pending    []adjustment
}

func newWorker(c client, warehouse, name string, skus int) *worker {
	w := &worker{c: c, warehouse: warehouse, answers: map[int]int{}, settled: map[string]int64{}}
	for i := range skus {
		w.skus = append(w.skus, fmt.Sprintf("%s-%02d", name, i))
	}
	return w
}

// functionTimeout is the API functions' timeout (template.yaml Globals); an answer may
// take it plus the local gateway's own handling.
const functionTimeout = 10 * time.Second

// run sends requests until stop is closed or the outcome of one is unknown.
func (w *worker) run(api func() string, stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		w.seq++
		adj := adjustment{seq: w.seq, values: map[string]int64{}}
		items := make([]map[string]any, len(w.skus))
		for i, sku := range w.skus {
			v := w.seq*100 + int64(i)
			adj.values[sku] = v
			items[i] = map[string]any{"sku": sku, "warehouse_uuid": w.warehouse, "on_hand": v}
		}
		a := w.c.do(api(), http.MethodPut, "/inventory", map[string]any{"inventory": items})
		if a.err != nil {
			w.unknown = &adj // killed mid-request: it may have been accepted
			return
		}
		w.answers[a.status]++
		if a.took > functionTimeout+time.Second {
			w.slow = append(w.slow, fmt.Sprintf("%d after %v", a.status, a.took))
		}
		var out struct {
			RequestID string `json:"request_id"`
			Outcome   string `json:"outcome"`
		}
		_ = json.Unmarshal(a.body, &out)
		switch {
		case a.status == http.StatusOK:
			adj.id = out.RequestID
			w.accepted = append(w.accepted, adj)
		case a.status == http.StatusServiceUnavailable && a.retryAfter != "":
			if out.Outcome == "unknown" {
				adj.id = out.RequestID
				w.unknown = &adj
				return
			}
			time.Sleep(200 * time.Millisecond)
		default:
			w.refused = append(w.refused, fmt.Sprintf("%d %s", a.status, a.body))
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// status is GET /inventory/adjustments/{id}.
type status struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
	Items  []struct {
		SKU    string `json:"sku"`
		Result string `json:"result"`
	} `json:"items"`
}

// record is one record of GET /inventory.
type record struct {
	SKU       string `json:"sku"`
	OnHand    int64  `json:"on_hand"`
	Reserved  int64  `json:"reserved"`
	Available int64  `json:"available"`
}

// outcome is what checking a worker after recovery found.
type outcome struct {
	accepted, lost, queued, halfApplied int
	problems                            []string
}

// settle waits (up to bound) until every request the worker sent is done with, then
// checks: every accepted request applied (none lost, none still queued), the unknown one
// applied, failed or never recorded (after a sweep, when it is still queued), and the
// worker's records coming to hold, within the bound, the values of one request: the last
// accepted (what they held at the last check, when none was accepted since) or a newer one
// of unknown outcome (nothing half-applied, nothing older applied over newer), with
// available = on_hand - reserved.
func (w *worker) settle(api string, bound time.Duration, sweep func()) outcome {
	o := outcome{accepted: len(w.accepted)}
	deadline := time.Now().Add(bound)
	get := func(id string) (status, int) {
		for {
			a := w.c.do(api, http.MethodGet, "/inventory/adjustments/"+id, nil)
			var st status
			_ = json.Unmarshal(a.body, &st)
			done := a.err == nil && (a.status == http.StatusNotFound || (a.status == http.StatusOK && st.Status != "queued"))
			if done || time.Now().After(deadline) {
				return st, a.status
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	for _, adj := range w.accepted {
		st, code := get(adj.id)
		switch {
		case code == http.StatusOK && st.Status == "queued":
			o.queued++
			o.problems = append(o.problems, fmt.Sprintf("%s still queued after %v", adj.id, bound))
		case code != http.StatusOK || st.Status != "applied":
			o.lost++
			o.problems = append(o.problems, fmt.Sprintf("accepted %s: %d %+v", adj.id, code, st))
		}
	}
	var unknownApplied bool
	if w.unknown != nil && w.unknown.id != "" {
		st, code := get(w.unknown.id)
		if code == http.StatusOK && st.Status == "queued" {
			// Answered 503 "outcome unknown", and its record landed after all, when even
			// abandoning it failed: the sweep sends it (after ADJUSTMENT_RESEND_AFTER in
			// production); run it now rather than wait.
			sweep()
			deadline = time.Now().Add(bound)
			if st, code = get(w.unknown.id); code == http.StatusOK && st.Status == "queued" {
				o.queued++
				o.problems = append(o.problems, fmt.Sprintf("%s (outcome unknown) still queued after the sweep", w.unknown.id))
			}
		}
		unknownApplied = code == http.StatusOK && st.Status == "applied"
	}
	// What the records may hold in the end: the values of the last request accepted, or
	// (none accepted since) those they held at the last check; or those of a newer request
	// whose outcome is unknown (this round's, or an earlier round's still unresolved: its
	// record may have landed and be applied only now, after the restart). The records are
	// read until they hold one of them whole, up to the bound.
	latest := adjustment{values: w.settled, seq: w.settledSeq}
	if len(w.accepted) > 0 {
		latest = w.accepted[len(w.accepted)-1]
	}
	if w.unknown != nil && (unknownApplied || w.unknown.id == "") {
		w.pending = append(w.pending, *w.unknown) // no id: killed before the answer; it may have been recorded
	}
	candidates := []adjustment{latest}
	for _, u := range w.pending {
		if u.seq > latest.seq {
			candidates = append(candidates, u)
		}
	}
	var recs []record
	deadline = time.Now().Add(bound)
	for {
		recs = w.records(api)
		for _, c := range candidates {
			if !matches(recs, c.values) {
				continue
			}
			w.settled, w.settledSeq = c.values, c.seq
			w.pending = slices.DeleteFunc(candidates[1:], func(u adjustment) bool { return u.seq <= c.seq })
			checkInvariants(recs, &o)
			return o
		}
		if time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	checkInvariants(recs, &o)
	o.halfApplied++
	o.problems = append(o.problems, fmt.Sprintf("records %v are no one request's values (last accepted, or an unknown one)", recs))
	return o
}

// checkInvariants adds a problem for each record whose quantities do not hold together.
func checkInvariants(recs []record, o *outcome) {
	for _, r := range recs {
		if r.Available != r.OnHand-r.Reserved || r.OnHand < 0 || r.Reserved < 0 {
			o.problems = append(o.problems, fmt.Sprintf("%s: on_hand %d reserved %d available %d", r.SKU, r.OnHand, r.Reserved, r.Available))
		}
	}
}

// matches reports whether the records hold exactly the values.
func matches(recs []record, values map[string]int64) bool {
	if len(recs) != len(values) {
		return false
	}
	for _, r := range recs {
		if values[r.SKU] != r.OnHand {
			return false
		}
	}
	return true
}

// records reads the worker's records.
func (w *worker) records(api string) []record {
	a := w.c.do(api, http.MethodGet, "/inventory?limit=100&sku="+strings.Join(w.skus, "&sku="), nil)
	var out []record
	_ = json.Unmarshal(a.body, &out)
	return out
}

// warehouse creates a warehouse of the account and returns its uuid.
func warehouse(t *testing.T, api string, c client) string {
	t.Helper()
	a := c.do(api, http.MethodPost, "/warehouses", map[string]any{"warehouse": map[string]any{"name": "W"}})
	var out struct {
		UUID string `json:"warehouse_uuid"`
	}
	if err := json.Unmarshal(a.body, &out); err != nil || a.status != http.StatusOK {
		t.Fatalf("create warehouse: %d %s %v", a.status, a.body, a.err)
	}
	return out.UUID
}

// readers make read requests (lists, statuses) alongside the workers until stop closes:
// the mixed part of the load.
func readers(api func() string, clients []client, stop <-chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				c.do(api(), http.MethodGet, "/inventory?limit=50", nil)
				c.do(api(), http.MethodGet, "/warehouses", nil)
			}
		})
	}
	return &wg
}
