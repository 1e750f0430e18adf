package connectorstest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
)

// Exchange is one request a connector sent and the answer it got, as a Recorder kept them.
type Exchange struct {
	Request *http.Request
	Body    []byte
	Status  int
	Header  http.Header
	Answer  []byte
}

// Recorder is a transport that sends each request on (http.DefaultTransport) and keeps
// every exchange, for a connector's tests to check against the marketplace's models.
type Recorder struct {
	mu   sync.Mutex
	seen []Exchange
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	answer, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(answer))
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = append(r.seen, Exchange{Request: req.Clone(context.Background()), Body: body, Status: resp.StatusCode,
		Header: resp.Header.Clone(), Answer: answer})
	return resp, nil
}

// Exchanges are the exchanges kept so far, in order.
func (r *Recorder) Exchanges() []Exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Exchange(nil), r.seen...)
}
