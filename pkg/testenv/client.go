package testenv

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/multisell/multisell/pkg/channels"
)

// Client calls the local API as one account. Every response is validated against
// docs/openapi.yaml; a mismatch fails the test.
type Client struct {
	t      testing.TB
	env    *Env
	base   string       // the API base URL, ending in /v1
	http   *http.Client // the client of the gateway's server
	auth   string
	header http.Header
}

// Response is an API response.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// BasicAuth returns the Authorization header value of an account.
func BasicAuth(a Account) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(a.Token+":"+a.Secret))
}

// Client returns a client authenticated as acct.
func (e *Env) Client(t testing.TB, acct Account) *Client {
	t.Helper()
	if _, err := loadSpec(e); err != nil {
		t.Fatalf("testenv: %v", err)
	}
	return &Client{t: t, env: e, base: e.URL, http: e.Server.Client(), auth: BasicAuth(acct), header: http.Header{}}
}

// WithAuth returns a copy of the client sending header as the Authorization header
// verbatim ("" sends none).
func (c *Client) WithAuth(header string) *Client {
	cp := *c
	cp.auth = header
	return &cp
}

// WithHeader returns a copy of the client that also sends the header.
func (c *Client) WithHeader(name, value string) *Client {
	cp := *c
	cp.header = c.header.Clone()
	cp.header.Set(name, value)
	return &cp
}

// Do sends a request to path (relative to /v1, with its query, already escaped). A string
// or []byte body is sent as is, nil sends none, anything else is sent as JSON.
func (c *Client) Do(method, path string, body any) *Response {
	c.t.Helper()
	var payload []byte
	switch b := body.(type) {
	case nil:
	case string:
		payload = []byte(b)
	case []byte:
		payload = b
	default:
		var err error
		if payload, err = json.Marshal(b); err != nil {
			c.t.Fatalf("testenv: marshal body: %v", err)
		}
	}
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(payload)
	}
	req, err := http.NewRequest(method, c.base+path, reader)
	if err != nil {
		c.t.Fatalf("testenv: %s %s: %v", method, path, err)
	}
	for k, vs := range c.header {
		req.Header[k] = vs
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.auth != "" {
		req.Header.Set("Authorization", c.auth)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("testenv: %s %s: %v", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("testenv: %s %s: read body: %v", method, path, err)
	}
	r := &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}
	if c.base != c.env.URL { // another gateway (NewGateway): the document is served at the stack's URL
		req = req.Clone(req.Context())
		if req.URL, err = url.Parse(c.env.URL + path); err != nil {
			c.t.Fatalf("testenv: %s %s: %v", method, path, err)
		}
	}
	if err := validateResponse(c.env, req, r); err != nil {
		c.t.Errorf("testenv: %s %s -> %d %s\ndoes not match docs/openapi.yaml: %v", method, path, r.Status, truncate(data), err)
	}
	return r
}

// JSON decodes the body into v, failing the test if it is not JSON.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("testenv: response %d is not JSON (%v): %s", r.Status, err, truncate(r.Body))
	}
}

// String returns the body as text.
func (r *Response) String() string { return string(r.Body) }

func truncate(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}

// ConnectChannel connects a channel with POST /channels (body as the API takes it) and
// returns it as the answer shows it; any answer but 201 fails the test.
func (c *Client) ConnectChannel(body any) channels.Channel {
	c.t.Helper()
	r := c.Do(http.MethodPost, "/channels", body)
	if r.Status != http.StatusCreated {
		c.t.Fatalf("connect: %d %s", r.Status, r)
	}
	var made struct {
		Channel channels.Channel `json:"channel"`
	}
	r.JSON(c.t, &made)
	return made.Channel
}
