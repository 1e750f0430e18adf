package webhookhttp

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeResolver answers lookups from a table, counting them; a host it does not know
// is not found.
type fakeResolver struct {
	addrs map[string][]netip.Addr
	err   error
	calls atomic.Int32
	// next, when set, replaces the table after the first lookup.
	next map[string][]netip.Addr
	mu   sync.Mutex
}

func (r *fakeResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls.Add(1) == 2 && r.next != nil {
		r.addrs = r.next
	}
	if network != "ip" {
		return nil, errors.New("unexpected network " + network)
	}
	if r.err != nil {
		return nil, r.err
	}
	a, ok := r.addrs[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	return a, nil
}

// addrs parses addresses.
func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

// loopbackOnly is the AWS rule with the test servers' address allowed.
var loopbackOnly = Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}

// server is a test server that counts its requests and answers with h.
type server struct {
	*httptest.Server
	hits atomic.Int32
}

func newServer(t *testing.T, tls bool, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	})
	s.Server = httptest.NewUnstartedServer(handler)
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // the handshakes the tests make fail
	if tls {
		s.StartTLS()
	} else {
		s.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// port is the server's port.
func (s *server) port() string {
	u, _ := url.Parse(s.URL)
	return u.Port()
}

// roots trusts the TLS server's certificate (valid for example.com, 127.0.0.1 and ::1).
func (s *server) roots() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(s.Certificate())
	return p
}

// delivery is a signed delivery of body to u.
func delivery(t *testing.T, u string, body []byte) Delivery {
	t.Helper()
	return Delivery{URL: u, ID: "evt_1", At: time.Now(), Body: body, Secrets: []string{newSecret(t)}}
}

func TestSendRequest(t *testing.T) {
	t.Parallel()
	type seen struct {
		method string
		header http.Header
		body   []byte
	}
	got := make(chan seen, 1)
	srv := newServer(t, false, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.Header.Clone(), b}
		w.WriteHeader(http.StatusNoContent)
	})
	newest, oldest := newSecret(t), newSecret(t)
	at := time.Unix(1767225600, 0)
	body := []byte(`{"seq":3,"id":"evt_3","type":"order.created","created_at":"2026-01-01T00:00:00Z","data":{}}`)
	s := &Sender{Policy: Policy{Local: true}}
	r := s.Send(context.Background(), Delivery{URL: srv.URL + "/hook?x=1", ID: "evt_3", At: at, Body: body, Secrets: []string{newest, oldest}})
	if !r.OK || r.Status != 204 || r.Error != "" || r.Duration <= 0 {
		t.Fatalf("Send = %+v, want OK 204", r)
	}
	req := <-got
	wantSig, err := Sign([]string{newest, oldest}, "evt_3", at, body)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, got, want string }{
		{"method", req.method, "POST"},
		{"body", string(req.body), string(body)},
		{"content-type", req.header.Get("content-type"), "application/json"},
		{"user-agent", req.header.Get("user-agent"), "multisell-webhooks/1"},
		{"webhook-id", req.header.Get("webhook-id"), "evt_3"},
		{"webhook-timestamp", req.header.Get("webhook-timestamp"), "1767225600"},
		{"webhook-signature", req.header.Get("webhook-signature"), wantSig},
	} {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestSendOutcomes(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("é", 5<<20) // 10 MiB, two bytes a rune
	cases := []struct {
		name     string
		handler  http.HandlerFunc
		timeout  time.Duration
		body     int // bytes of the delivery's body; 0 is a small one
		ok       bool
		status   int
		err      string // the Result's Error, or what it starts with when ending in "*"
		response string
		hits     int32 // requests the server saw
	}{
		{name: "200", handler: answer(200, "thanks"), ok: true, status: 200, response: "thanks", hits: 1},
		{name: "204", handler: answer(204, ""), ok: true, status: 204, hits: 1},
		{name: "202", handler: answer(202, "queued"), ok: true, status: 202, response: "queued", hits: 1},
		{name: "500", handler: answer(500, "boom"), status: 500, err: "status 500", response: "boom", hits: 1},
		{name: "404", handler: answer(404, "no such hook"), status: 404, err: "status 404", response: "no such hook", hits: 1},
		{name: "401", handler: answer(401, ""), status: 401, err: "status 401", hits: 1},
		{name: "302 not followed", handler: func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/elsewhere" {
				w.WriteHeader(200)
				return
			}
			http.Redirect(w, r, "/elsewhere", http.StatusFound)
		}, status: 302, err: "redirect not followed (302)", hits: 1},
		{name: "307 not followed", handler: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://example.com/", http.StatusTemporaryRedirect)
		}, status: 307, err: "redirect not followed (307)", hits: 1},
		{name: "slow answer times out", timeout: 100 * time.Millisecond, handler: func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body) // then the server sees the client go
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		}, err: "timeout after 100ms", hits: 1},
		{name: "slow body of a 2xx fails", timeout: 200 * time.Millisecond, handler: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100000")
			w.WriteHeader(200)
			for range 100 { // 10 bytes every 50 ms, far from the 100,000 announced
				if _, err := io.WriteString(w, "0123456789"); err != nil {
					return
				}
				w.(http.Flusher).Flush()
				select {
				case <-r.Context().Done():
					return
				case <-time.After(50 * time.Millisecond):
				}
			}
		}, status: 200, err: "reading the answer: timeout after 200ms", response: "*", hits: 1},
		{name: "a 2xx cut short fails", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "100")
			w.WriteHeader(200)
			_, _ = io.WriteString(w, "short")
		}, status: 200, err: "reading the answer: *", response: "short", hits: 1},
		{name: "large answer truncated", handler: answer(200, big), ok: true, status: 200, response: big[:MaxResponseLog], hits: 1},
		{name: "body at the bound sent", handler: answer(200, ""), body: MaxBody, ok: true, status: 200, hits: 1},
		{name: "body over the bound not sent", handler: answer(200, ""), body: MaxBody + 1, err: "body of 1048577 bytes is over the 1048576-byte bound", hits: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, false, c.handler)
			body := []byte(`{"seq":1}`)
			if c.body > 0 {
				body = []byte(strings.Repeat("x", c.body))
			}
			s := &Sender{Policy: Policy{Local: true}, Timeout: c.timeout}
			got := s.Send(context.Background(), delivery(t, srv.URL+"/hook", body))
			if got.OK != c.ok || got.Status != c.status || !matches(got.Error, c.err) || !matches(got.Response, c.response) {
				t.Errorf("Send = {OK:%v Status:%d Error:%q Response:%.40q}, want {OK:%v Status:%d Error:%q Response:%.40q}",
					got.OK, got.Status, got.Error, got.Response, c.ok, c.status, c.err, c.response)
			}
			if got, want := srv.hits.Load(), c.hits; got != want {
				t.Errorf("the server saw %d requests, want %d", got, want)
			}
		})
	}
}

// matches reports whether got is want, or starts with want's text before
// a final "*".
func matches(got, want string) bool {
	if prefix, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(got, prefix)
	}
	return got == want
}

// answer is a handler answering status and body.
func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

func TestSendConnectionFailures(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/hook"
	_ = ln.Close()
	plain := newServer(t, false, answer(200, ""))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		s    *Sender
		url  string
		err  string
	}{
		{"connection refused", context.Background(), &Sender{Policy: Policy{Local: true}}, closed, "connection refused"},
		{"https to an http server", context.Background(), &Sender{Policy: Policy{Local: true}}, "https://127.0.0.1:" + plain.port() + "/", "connection error: http: server gave HTTP response to HTTPS client"},
		{"caller cancelled", cancelled, &Sender{Policy: Policy{Local: true}}, plain.URL, "cancelled"},
		{"unknown host", context.Background(), &Sender{Resolver: &fakeResolver{}}, "https://nowhere.example.com/", "dns lookup of nowhere.example.com: no such host"},
		{"lookup fails", context.Background(), &Sender{Resolver: &fakeResolver{err: errors.New("server misbehaving")}}, "https://hooks.example.com/", "dns lookup of hooks.example.com: server misbehaving"},
		{"no address", context.Background(), &Sender{Resolver: &fakeResolver{addrs: map[string][]netip.Addr{"hooks.example.com": nil}}}, "https://hooks.example.com/", "dns lookup of hooks.example.com: no address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := c.s.Send(c.ctx, delivery(t, c.url, []byte("{}")))
			if got.OK || got.Status != 0 || got.Error != c.err {
				t.Errorf("Send = %+v, want no answer and error %q", got, c.err)
			}
		})
	}
}

// TestSendRefusals: the AWS mode (and the Local one, for what is not loopback) refuses
// destinations before connecting, whether by the URL or by what its host resolves to.
func TestSendRefusals(t *testing.T) {
	t.Parallel()
	plain := newServer(t, false, answer(200, ""))
	secure := newServer(t, true, answer(200, ""))
	resolve := func(a ...string) *fakeResolver {
		return &fakeResolver{addrs: map[string][]netip.Addr{"hooks.example.com": addrs(a...)}}
	}
	hook := "https://hooks.example.com:" + secure.port() + "/hook"
	cases := []struct {
		name string
		s    *Sender
		url  string
		err  string
	}{
		{"http to loopback", &Sender{}, plain.URL, "url must be an https URL"},
		{"https to loopback", &Sender{RootCAs: secure.roots()}, secure.URL, "url must not point to a private, loopback, link-local or metadata address"},
		{"https to localhost", &Sender{RootCAs: secure.roots()}, "https://localhost:" + secure.port() + "/", "url must not point to a private, loopback, link-local or metadata address"},
		{"name resolving to loopback", &Sender{Resolver: resolve("127.0.0.1"), RootCAs: secure.roots()}, hook, "destination 127.0.0.1 refused: loopback address"},
		{"name resolving to public and private", &Sender{Resolver: resolve("93.184.216.34", "10.0.0.5")}, hook, "destination 10.0.0.5 refused: private address"},
		{"name resolving to allowed and private", &Sender{Policy: loopbackOnly, Resolver: resolve("127.0.0.1", "192.168.1.10"), RootCAs: secure.roots()}, hook, "destination 192.168.1.10 refused: private address"},
		{"name resolving to CGNAT", &Sender{Resolver: resolve("100.64.3.4")}, hook, "destination 100.64.3.4 refused: private address"},
		{"name resolving to ULA", &Sender{Resolver: resolve("2606:4700::1", "fd12::1")}, hook, "destination fd12::1 refused: private address"},
		{"name resolving to link-local", &Sender{Resolver: resolve("fe80::1")}, hook, "destination fe80::1 refused: link-local address"},
		{"name resolving to metadata", &Sender{Resolver: resolve("169.254.169.254")}, hook, "destination 169.254.169.254 refused: metadata address"},
		{"name resolving to mapped metadata", &Sender{Resolver: resolve("::ffff:169.254.169.254")}, hook, "destination 169.254.169.254 refused: metadata address"},
		{"name resolving to IPv6 metadata", &Sender{Resolver: resolve("fd00:ec2::254")}, hook, "destination fd00:ec2::254 refused: metadata address"},
		{"name resolving to unspecified", &Sender{Resolver: resolve("0.0.0.0")}, hook, "destination 0.0.0.0 refused: unspecified address"},
		{"name resolving to multicast", &Sender{Resolver: resolve("239.1.1.1")}, hook, "destination 239.1.1.1 refused: multicast address"},
		{"local: name resolving to private", &Sender{Policy: Policy{Local: true}, Resolver: resolve("10.1.2.3")}, hook, "destination 10.1.2.3 refused: private address"},
		{"local: http to a name", &Sender{Policy: Policy{Local: true}, Resolver: resolve("127.0.0.1")}, "http://hooks.example.com:" + plain.port() + "/", "url must be an https URL unless its host is loopback (localhost, 127.0.0.1 or ::1)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := c.s.Send(context.Background(), delivery(t, c.url, []byte("{}")))
			if got.OK || got.Status != 0 || got.Error != c.err {
				t.Errorf("Send = %+v, want no answer and error %q", got, c.err)
			}
		})
	}
	t.Cleanup(func() { // after the parallel subtests
		if got := plain.hits.Load() + secure.hits.Load(); got != 0 {
			t.Errorf("the servers saw %d requests, want none", got)
		}
	})
}

// TestSendTLS: with the test server's address allowed (it is loopback), the AWS mode
// delivers over https to a name that resolves to it, and TLS verifies the URL's name,
// not the address connected to.
func TestSendTLS(t *testing.T) {
	t.Parallel()
	srv := newServer(t, true, answer(200, "ok"))
	res := &fakeResolver{addrs: map[string][]netip.Addr{
		"example.com":       addrs("127.0.0.1"),
		"wrong.example.net": addrs("127.0.0.1"),
	}}
	cases := []struct {
		name string
		s    *Sender
		url  string
		ok   bool
		err  string
	}{
		{"aws mode, allowed address", &Sender{Policy: loopbackOnly, Resolver: res, RootCAs: srv.roots()}, "https://example.com:" + srv.port() + "/hook", true, ""},
		{"local mode, loopback", &Sender{Policy: Policy{Local: true}, RootCAs: srv.roots()}, srv.URL + "/hook", true, ""},
		{"certificate for another name", &Sender{Policy: loopbackOnly, Resolver: res, RootCAs: srv.roots()}, "https://wrong.example.net:" + srv.port() + "/hook", false, "tls: certificate not valid for wrong.example.net"},
		{"unknown authority", &Sender{Policy: loopbackOnly, Resolver: res}, "https://example.com:" + srv.port() + "/hook", false, "tls: certificate signed by an unknown authority"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := c.s.Send(context.Background(), delivery(t, c.url, []byte("{}")))
			if got.OK != c.ok || got.Error != c.err {
				t.Errorf("Send = %+v, want OK %v, error %q", got, c.ok, c.err)
			}
		})
	}
}

// TestSendLocalAndAWS: the same server on 127.0.0.1 is reached in the Local mode and
// refused in the AWS mode.
func TestSendLocalAndAWS(t *testing.T) {
	t.Parallel()
	srv := newServer(t, false, answer(204, ""))
	cases := []struct {
		name   string
		policy Policy
		ok     bool
	}{
		{"local", Policy{Local: true}, true},
		{"aws", Policy{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, u := range []string{srv.URL, "http://localhost:" + srv.port()} {
				got := (&Sender{Policy: c.policy}).Send(context.Background(), delivery(t, u+"/hook", []byte("{}")))
				if got.OK != c.ok {
					t.Errorf("Send to %s = %+v, want OK %v", u, got, c.ok)
				}
			}
		})
	}
}

// TestSendChecksEveryConnection: a name that resolved to an accepted address and then
// to a refused one is refused at the next connection.
func TestSendChecksEveryConnection(t *testing.T) {
	t.Parallel()
	srv := newServer(t, true, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Connection", "close") // the next attempt connects again
		w.WriteHeader(200)
	})
	res := &fakeResolver{
		addrs: map[string][]netip.Addr{"example.com": addrs("127.0.0.1")},
		next:  map[string][]netip.Addr{"example.com": addrs("10.9.8.7")},
	}
	s := &Sender{Policy: loopbackOnly, Resolver: res, RootCAs: srv.roots()}
	u := "https://example.com:" + srv.port() + "/hook"
	want := []string{"", "destination 10.9.8.7 refused: private address"}
	for i, w := range want {
		if got := s.Send(context.Background(), delivery(t, u, []byte("{}"))); got.Error != w {
			t.Errorf("attempt %d: Send = %+v, want error %q", i+1, got, w)
		}
	}
	if got, want := res.calls.Load(), int32(2); got != want {
		t.Errorf("%d lookups, want %d", got, want)
	}
}

func TestSendConcurrent(t *testing.T) {
	t.Parallel()
	srv := newServer(t, false, answer(200, ""))
	s := &Sender{Policy: Policy{Local: true}}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 20 {
		wg.Go(func() {
			if r := s.Send(context.Background(), delivery(t, srv.URL, []byte("{}"))); !r.OK {
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if got := failed.Load(); got != 0 {
		t.Errorf("%d of 20 concurrent sends failed", got)
	}
}

// TestSendBadDelivery: a delivery that cannot be signed is not sent, and a secret never
// shows in the Result.
func TestSendBadDelivery(t *testing.T) {
	t.Parallel()
	srv := newServer(t, false, answer(200, ""))
	secret := "whsec_!!not-base64-but-secret!!"
	cases := []struct {
		name string
		d    Delivery
		err  string
	}{
		{"bad secret", Delivery{URL: srv.URL, ID: "evt_1", Body: []byte("{}"), Secrets: []string{secret}},
			`sign webhook: secret 1 of 1: not a secret of the form "whsec_" and base64`},
		{"no secret", Delivery{URL: srv.URL, ID: "evt_1", Body: []byte("{}")}, "sign webhook: no secret"},
		{"no id", Delivery{URL: srv.URL, Body: []byte("{}"), Secrets: []string{newSecret(t)}}, "no event id"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.d.At = time.Now()
			got := (&Sender{Policy: Policy{Local: true}}).Send(context.Background(), c.d)
			if got.OK || got.Error != c.err {
				t.Errorf("Send = %+v, want error %q", got, c.err)
			}
			if strings.Contains(got.Error, "not-base64-but-secret") {
				t.Errorf("Send shows the secret: %q", got.Error)
			}
		})
	}
	t.Cleanup(func() { // after the parallel subtests
		if n := srv.hits.Load(); n != 0 {
			t.Errorf("the server saw %d requests, want none", n)
		}
	})
}

func TestSenderTransport(t *testing.T) {
	t.Parallel()
	s := &Sender{}
	c := s.httpClient()
	tr, ok := c.Transport.(*http.Transport)
	if !ok {
		t.Fatalf("transport %T, want *http.Transport", c.Transport)
	}
	if tr.Proxy != nil {
		t.Error("the transport takes a proxy (from the environment)")
	}
	if s.httpClient() != c {
		t.Error("a second Send makes a new client")
	}
}

func TestLogText(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		in   string
		want string
	}{
		{"short", "ok", "ok"},
		{"exactly the bound", strings.Repeat("a", MaxResponseLog), strings.Repeat("a", MaxResponseLog)},
		{"over the bound", strings.Repeat("a", MaxResponseLog+10), strings.Repeat("a", MaxResponseLog)},
		{"rune cut at the bound", strings.Repeat("a", MaxResponseLog-1) + "€", strings.Repeat("a", MaxResponseLog-1)},
		{"invalid bytes", "a\xffb", "a\uFFFDb"},
		{"invalid bytes at the bound", strings.Repeat("\xff", MaxResponseLog+5), strings.Repeat("\uFFFD", 1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := logText([]byte(c.in)); got != c.want {
				t.Errorf("logText = %.60q (%d bytes), want %.60q (%d bytes)", got, len(got), c.want, len(c.want))
			}
		})
	}
}
