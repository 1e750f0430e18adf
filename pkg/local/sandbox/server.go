// Package sandbox is the framework of the local stack's fake marketplaces: stateful HTTP
// servers on loopback ports that speak a marketplace's API, count the calls of each
// operation, hold a published limit (429 with Retry-After past it), and fail on demand
// (refused credentials, failed calls, injected 429s), and the kit each sandbox is built of:
// one seller registry (Registry), OAuth token endpoint (Registry.Token) and auth middleware
// (Registry.Authed). Generic is a small marketplace of its own design, with its connector
// (GenericConnector, name "generic"), which the runtime's tests and the local stack use;
// docs/connectors.md describes both.
package sandbox

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Server is a fake marketplace's HTTP server on a loopback port, with the bookkeeping every
// sandbox shares. Register the operations with Handle, then Start.
type Server struct {
	// URL is the server's base URL (http://127.0.0.1:port), set by Start.
	URL string
	// Seller names the seller of a request ("" for none); limits are per seller and
	// operation.
	Seller func(*http.Request) string
	// RateHeader, when set, is the response header that states an operation's rate
	// (requests per second) on each of its answers.
	RateHeader string
	// Tolerance is how early a call may come and still be within a limit (the jitter between
	// a client's spacing and the arrival here, which on a loaded machine is a scheduling
	// delay of a goroutine, not the network's); 0 means a fifth of the limit's interval, at
	// least 500 ms (docs/connectors.md).
	Tolerance time.Duration
	// ErrorBody, when set, is the body of the server's own answers (a 429 past a limit, an
	// injected 500) in the marketplace's error format; nil: {"error": message}.
	ErrorBody func(status int, message string) any

	mux  *http.ServeMux
	srv  *http.Server
	ln   net.Listener // closed by Close too: Serve, in its goroutine, may not have taken it yet
	mu   sync.Mutex
	ops  map[string]*operation
	tats map[[2]string]time.Time // (seller, op) -> theoretical arrival time of the limit
}

// operation is one operation's limit, faults and counts.
type operation struct {
	rate     float64
	burst    int
	calls    int // every call
	over     int // calls over the published limit (answered 429)
	fail     int // calls still to fail with a 500
	throttle int // calls still to answer 429 with retryAfter
	retry    time.Duration
}

// NewServer returns a server without operations.
func NewServer() *Server {
	return &Server{mux: http.NewServeMux(), ops: map[string]*operation{}, tats: map[[2]string]time.Time{}}
}

// op returns the operation name, creating it (the lock held).
func (s *Server) op(name string) *operation {
	o := s.ops[name]
	if o == nil {
		o = &operation{}
		s.ops[name] = o
	}
	return o
}

// Handle serves pattern (a ServeMux pattern, "POST /v1/x") as the operation op: each call is
// counted, then answered by an injected fault, a 429 past the limit, or h.
func (s *Server) Handle(pattern, op string, h http.HandlerFunc) {
	s.mu.Lock()
	s.op(op)
	s.mu.Unlock()
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		seller := ""
		if s.Seller != nil {
			seller = s.Seller(r)
		}
		status, wait, rate := s.admit(op, seller, time.Now())
		if s.RateHeader != "" && rate > 0 {
			w.Header().Set(s.RateHeader, strconv.FormatFloat(rate, 'f', -1, 64))
		}
		switch status {
		case http.StatusTooManyRequests:
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			WriteJSON(w, status, s.errorBody(status, "rate limit exceeded"))
		case http.StatusInternalServerError:
			WriteJSON(w, status, s.errorBody(status, "injected failure"))
		default:
			h(w, r)
		}
	})
}

// errorBody is the body of the server's own answer of status.
func (s *Server) errorBody(status int, message string) any {
	if s.ErrorBody != nil {
		return s.ErrorBody(status, message)
	}
	return map[string]string{"error": message}
}

// admit counts a call of op by seller at now and decides it: 0 to serve it, else the status
// of a fault or of the limit, with the wait of a 429; rate is op's published rate.
func (s *Server) admit(op, seller string, now time.Time) (status int, wait time.Duration, rate float64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.op(op)
	o.calls++
	switch {
	case o.fail > 0:
		o.fail--
		return http.StatusInternalServerError, 0, o.rate
	case o.throttle > 0:
		o.throttle--
		return http.StatusTooManyRequests, o.retry, o.rate
	case o.rate <= 0:
		return 0, 0, 0
	}
	// The generic cell rate algorithm: a call is within the limit when the theoretical
	// arrival time is at most burst-1 intervals (and the tolerance) ahead.
	iv := time.Duration(float64(time.Second) / o.rate)
	k := [2]string{seller, op}
	tat := s.tats[k]
	if tat.Before(now) {
		tat = now
	}
	tolerance := s.Tolerance
	if tolerance == 0 {
		tolerance = max(defaultTolerance, iv/5)
	}
	ahead := time.Duration(max(o.burst, 1)-1) * iv
	if d := tat.Sub(now); d > ahead+tolerance {
		o.over++
		return http.StatusTooManyRequests, d - ahead, o.rate
	}
	s.tats[k] = tat.Add(iv)
	return 0, 0, o.rate
}

// defaultTolerance is the least Tolerance: the test machine runs every package's tests at
// once under the race detector on two cores, where a goroutine between its send and the
// sandbox's handler was seen delayed by over 500 ms (a paced client's call then arrives on
// the heels of the one before). A client sending at twice a limit's rate is still over
// within four calls, and one that ignores the limit at its second call past the burst.
const defaultTolerance = time.Second

// SetLimit publishes a limit of op: rate calls per second, in bursts of up to burst, per
// seller. A rate of 0 removes it.
func (s *Server) SetLimit(op string, rate float64, burst int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.op(op)
	o.rate, o.burst = rate, burst
}

// FailNext makes the next n calls of op fail with a 500.
func (s *Server) FailNext(op string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.op(op).fail = n
}

// ThrottleNext makes the next n calls of op answer 429 with a Retry-After of retry (whole
// seconds, at least 1), whatever the limit says.
func (s *Server) ThrottleNext(op string, n int, retry time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.op(op)
	o.throttle, o.retry = n, max(retry, time.Second)
}

// Calls is the number of calls of op so far.
func (s *Server) Calls(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.op(op).calls
}

// Over is the number of calls of op that came over its published limit.
func (s *Server) Over(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.op(op).over
}

// Admin serves pattern outside the marketplace's API: the sandbox's own controls (placing
// an order as a buyer would), neither counted nor limited nor failed on demand.
func (s *Server) Admin(pattern string, h http.HandlerFunc) {
	s.mux.HandleFunc(pattern, h)
}

// Start serves on a free loopback port and sets URL.
func (s *Server) Start() error { return s.StartAt("") }

// StartAt serves on the loopback address addr ("127.0.0.1:PORT"; "" for a free port) and
// sets URL. A sandbox whose URL channels keep (the local stack's) starts on the address it
// had before.
func (s *Server) StartAt(addr string) error {
	ln, err := net.Listen("tcp", cmp.Or(addr, "127.0.0.1:0"))
	if err != nil {
		return fmt.Errorf("sandbox: listen: %w", err)
	}
	s.URL = "http://" + ln.Addr().String()
	s.ln = ln
	s.srv = &http.Server{Handler: s.mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return nil
}

// Close stops the server; its address is free when Close returns (a sandbox opened again on
// its state file listens there).
func (s *Server) Close() error {
	if s.srv == nil {
		return nil
	}
	err := s.srv.Close()
	_ = s.ln.Close() // already closed if Serve had taken it
	return err
}

// WriteJSON answers status with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
