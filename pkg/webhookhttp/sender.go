package webhookhttp

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Bounds of a delivery.
const (
	// DefaultTimeout is how long an attempt may take when the Sender sets none: a 2xx
	// answer within it is a success.
	DefaultTimeout = 10 * time.Second
	// MaxBody is the largest body sent; a larger delivery fails without being sent.
	MaxBody = 1 << 20
	// MaxResponseRead is how much of an answer's body is read.
	MaxResponseRead = 64 << 10
	// MaxResponseLog is how much of an answer's body a Result keeps.
	MaxResponseLog = 1 << 10
	// UserAgent is the user-agent of every delivery.
	UserAgent = "multisell-webhooks/1"
)

// Resolver looks up a host's addresses; *net.Resolver is one. The Sender asks it with
// network "ip".
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// Delivery is one attempt to deliver an event.
type Delivery struct {
	// URL is the endpoint's destination.
	URL string
	// ID is the event id, sent as webhook-id.
	ID string
	// At is when the attempt is signed, sent as webhook-timestamp: the attempt's own
	// time (now), not the event's, since receivers refuse a timestamp more than 5
	// minutes from their clock.
	At time.Time
	// Body is the event's JSON, sent as is (at most MaxBody bytes).
	Body []byte
	// Secrets are the endpoint's signing secrets, newest first (two during a rotation).
	Secrets []string
}

// Result is how an attempt went, for the delivery log and the retry decision.
type Result struct {
	// OK is a 2xx answer within the timeout, its body read to its end (or to
	// MaxResponseRead) within it too.
	OK bool
	// Status is the answer's status code; 0 without an answer.
	Status int
	// Duration is how long the attempt took.
	Duration time.Duration
	// Error is a short reason when not OK ("timeout after 10s", "destination 10.0.0.5
	// refused: private address", "connection refused", "redirect not followed (302)",
	// "status 500"); it never holds a secret.
	Error string
	// Response is the first MaxResponseLog bytes of the answer's body, as valid UTF-8.
	Response string
}

// Sender posts deliveries. The zero Sender delivers under the AWS rule with
// DefaultTimeout. Set its fields before the first Send and leave them (and do not copy
// it after); it is then safe for concurrent use and keeps its connections alive between
// attempts, each connection made to an address the Policy accepted.
type Sender struct {
	// Policy is where deliveries may go.
	Policy Policy
	// Timeout bounds an attempt, from the connection to the answer's body; 0 is
	// DefaultTimeout.
	Timeout time.Duration
	// Resolver finds a host's addresses; nil is net.DefaultResolver.
	Resolver Resolver
	// RootCAs are the certificate authorities trusted for https; nil is the system's.
	RootCAs *x509.CertPool

	once   sync.Once
	client *http.Client
}

// errTimeout is the cause of an attempt's context past the Sender's timeout.
var errTimeout = errors.New("webhook attempt timed out")

// Send makes one attempt to deliver d: it holds the URL to the Policy, signs the body
// with every secret, posts it with the webhook headers, and reads at most
// MaxResponseRead bytes of the answer. Redirects are not followed, and no proxy is used.
// The Result says whether the attempt succeeded; a failure is the caller's to retry.
func (s *Sender) Send(ctx context.Context, d Delivery) Result {
	start := time.Now()
	r := s.send(ctx, d)
	r.Duration = time.Since(start)
	return r
}

// send is Send without the duration.
func (s *Sender) send(ctx context.Context, d Delivery) Result {
	if err := s.Policy.CheckURL(d.URL); err != nil {
		return Result{Error: err.Error()}
	}
	if d.ID == "" {
		return Result{Error: "no event id"}
	}
	if len(d.Body) > MaxBody {
		return Result{Error: fmt.Sprintf("body of %d bytes is over the %d-byte bound", len(d.Body), MaxBody)}
	}
	sig, err := Sign(d.Secrets, d.ID, d.At, d.Body)
	if err != nil {
		return Result{Error: err.Error()}
	}
	timeout := s.timeout()
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		return Result{Error: "url cannot be requested"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set(HeaderID, d.ID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(d.At.Unix(), 10))
	req.Header.Set(HeaderSignature, sig)

	resp, err := s.httpClient().Do(req)
	if err != nil {
		return Result{Error: reason(ctx, err, timeout)}
	}
	defer func() { _ = resp.Body.Close() }()
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, MaxResponseRead))
	r := Result{Status: resp.StatusCode, Response: logText(body)}
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		r.OK = true
	case c >= 300 && c < 400:
		r.Error = fmt.Sprintf("redirect not followed (%d)", c)
	default:
		r.Error = fmt.Sprintf("status %d", c)
	}
	if readErr != nil { // the answer ends within the timeout, or the attempt failed
		r.OK = false
		if r.Error != "" {
			r.Error += "; "
		}
		r.Error += "reading the answer: " + reason(ctx, readErr, timeout)
	}
	return r
}

// timeout is the Sender's timeout.
func (s *Sender) timeout() time.Duration {
	if s.Timeout > 0 {
		return s.Timeout
	}
	return DefaultTimeout
}

// httpClient returns the Sender's client, made on first use: the Policy's transport
// (Policy.Transport), with HTTP/2 when the receiver offers it, no decompression (the answer
// is kept as sent) and no redirect followed.
func (s *Sender) httpClient() *http.Client {
	s.once.Do(func() {
		t := s.Policy.Transport(s.Resolver, s.RootCAs, s.timeout())
		t.ForceAttemptHTTP2 = true
		t.MaxIdleConnsPerHost = 4
		t.MaxResponseHeaderBytes = MaxResponseRead
		t.DisableCompression = true
		s.client = &http.Client{
			Transport:     t,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	})
	return s.client
}

// reason is the short text of a failed attempt's error.
func reason(ctx context.Context, err error, timeout time.Duration) string {
	var (
		refused  *AddrError
		lookup   *lookupError
		dnsErr   *net.DNSError
		host     x509.HostnameError
		unknown  x509.UnknownAuthorityError
		invalid  x509.CertificateInvalidError
		record   tls.RecordHeaderError
		netError net.Error
	)
	switch {
	case errors.As(err, &refused):
		return refused.Error()
	case context.Cause(ctx) == errTimeout:
		return "timeout after " + timeout.String()
	case ctx.Err() != nil:
		return "cancelled"
	case errors.As(err, &lookup):
		if errors.As(err, &dnsErr) {
			if dnsErr.IsNotFound {
				return "dns lookup of " + lookup.host + ": no such host"
			}
			if dnsErr.IsTimeout {
				return "dns lookup of " + lookup.host + ": timeout"
			}
		}
		return lookup.Error()
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "host unreachable"
	case errors.As(err, &host):
		return "tls: certificate not valid for " + host.Host
	case errors.As(err, &unknown):
		return "tls: certificate signed by an unknown authority"
	case errors.As(err, &invalid):
		return "tls: invalid certificate: " + invalid.Error()
	case errors.As(err, &record):
		return "tls: the server did not answer in TLS"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed without an answer"
	case errors.As(err, &netError) && netError.Timeout():
		return "timeout after " + timeout.String()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // without the method and URL (whose query may hold a token)
	}
	return "connection error: " + err.Error()
}

// logText is the first MaxResponseLog bytes of b as valid UTF-8: a rune cut at the end
// is dropped and invalid bytes become U+FFFD.
func logText(b []byte) string {
	if len(b) > MaxResponseLog {
		b = b[:MaxResponseLog]
		for i := 0; i < utf8.UTFMax && len(b) > 0; i++ {
			if r, size := utf8.DecodeLastRune(b); r != utf8.RuneError || size != 1 {
				break
			}
			b = b[:len(b)-1]
		}
	}
	s := string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
	for len(s) > MaxResponseLog {
		_, size := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-size]
	}
	return s
}
