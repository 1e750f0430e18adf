package webhooks_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/multisell/multisell/pkg/events"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// received is one request a receiver got.
type received struct {
	ID, Signature string
	Event         events.Event
	// Verified lists the secrets (by position) that verify the request.
	Verified []int
	At       time.Time
}

// receiver is a real HTTP endpoint on loopback that verifies and records
// what it receives, answering as answer says.
type receiver struct {
	t   testing.TB
	srv *httptest.Server

	mu      sync.Mutex
	secrets []string
	got     []received
	// answer is the status for the n-th request (from 1) with that
	// webhook-id; 0 means never answer (hold the request until the client
	// gives up).
	answer func(id string, n int) int
}

// newReceiver starts a receiver that answers 204 to everything.
func newReceiver(t testing.TB) *receiver {
	r := &receiver{t: t, answer: func(string, int) int { return http.StatusNoContent }}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

// URL is the receiver's address.
func (r *receiver) URL() string { return r.srv.URL + "/hooks" }

// setAnswer makes the receiver answer every request with status.
func (r *receiver) setAnswer(status int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answer = func(string, int) int { return status }
}

// trust sets the secrets the receiver verifies with.
func (r *receiver) trust(secrets ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secrets = secrets
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	rec := received{ID: req.Header.Get("webhook-id"), Signature: req.Header.Get("webhook-signature"), At: time.Now()}
	if err := json.Unmarshal(body, &rec.Event); err != nil {
		r.t.Errorf("receiver: body is not an event: %v: %s", err, body)
	}
	r.mu.Lock()
	for i, s := range r.secrets {
		if webhookhttp.Verify(s, req.Header, body) == nil {
			rec.Verified = append(rec.Verified, i)
		}
	}
	r.got = append(r.got, rec)
	n := 0
	for _, g := range r.got {
		if g.ID == rec.ID {
			n++
		}
	}
	status := r.answer(rec.ID, n)
	r.mu.Unlock()
	if status == 0 {
		<-req.Context().Done()
		return
	}
	w.WriteHeader(status)
}

// all returns what the receiver got so far.
func (r *receiver) all() []received {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]received(nil), r.got...)
}

// ofType returns the requests of events of type typ.
func (r *receiver) ofType(typ string) []received {
	var out []received
	for _, g := range r.all() {
		if g.Event.Type == typ {
			out = append(out, g)
		}
	}
	return out
}

// withID returns the requests with webhook-id id.
func (r *receiver) withID(id string) []received {
	var out []received
	for _, g := range r.all() {
		if g.ID == id {
			out = append(out, g)
		}
	}
	return out
}

// signatures returns the entries of a webhook-signature header.
func signatures(header string) []string { return strings.Fields(header) }
