package connectors

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Session is what a connector gets for one channel: its parsed credentials (what the
// connector's ParseCredentials returned), its endpoints, an HTTP client, and, through Call
// and AccessToken, the channel's shared limits and token cache.
type Session struct {
	Account, Channel string
	Credentials      any
	Endpoints        Endpoints
	HTTP             *http.Client

	rt     *Runtime
	conn   Connector
	spec   Spec
	verify bool   // a Verify session: nothing shared, nothing written
	sealed string // the digest of the sealed credentials the session opened (sealedDigest)
	token  string // the access token this session got
	// secrets are the values of the session's credentials, taken out of the channel's words
	// (Clean).
	secrets []string
	exp     time.Time
	// refusals are the channel's refusals in a row as this session last saw them.
	refusals int64
	// waitUntil, when set, is the latest a call of this session waits for the channel's
	// limits (a push's: PushWait), instead of the runtime's MaxWait from each call.
	waitUntil time.Time
}

// Request is one HTTP call to the channel.
type Request struct {
	Method, URL string
	Header      http.Header
	Body        []byte
}

// JSONRequest is a call of method to url with header and, when in is not nil, in as its JSON
// body (with its Content-Type).
func JSONRequest(method, url string, header http.Header, in any) (Request, error) {
	req := Request{Method: method, URL: url, Header: header}
	if in == nil {
		return req, nil
	}
	body, err := json.Marshal(in)
	if err != nil {
		return Request{}, fmt.Errorf("channel request body: %w", err)
	}
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Body = body
	return req, nil
}

// Response is the channel's answer: status, headers and the whole body (at most
// maxResponse bytes; a longer one is refused as such, readAnswer).
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// maxResponse bounds a channel's response body.
const maxResponse = 16 << 20

// callAttempts bounds the 429s one Call goes through before it gives up as Throttled.
const callAttempts = 5

// Call sends req as the operation op (a name of Spec.Limits) within the channel's limits: it
// takes a token of the channel's bucket for op (waiting at most the runtime's MaxWait), adopts
// the rate the channel states in Spec.RateHeader, and on a 429 closes the bucket until the
// Retry-After and tries again, or returns *Throttled when that is further than MaxWait. Any
// other status is the connector's to read.
func (s *Session) Call(ctx context.Context, op string, req Request) (*Response, error) {
	return s.CallCost(ctx, op, 1, req)
}

// CallCost is Call taking cost tokens of op's bucket (cost.go).
func (s *Session) CallCost(ctx context.Context, op string, cost int, req Request) (*Response, error) {
	for range callAttempts {
		if err := s.take(ctx, op, cost); err != nil {
			return nil, err
		}
		resp, err := s.send(ctx, req)
		if err != nil {
			return nil, err
		}
		if err := s.observe(ctx, op, resp.Header); err != nil {
			return nil, err
		}
		if resp.Status != http.StatusTooManyRequests {
			return resp, nil
		}
		now := s.rt.now()
		until, ok := retryAfter(resp.Header.Get("Retry-After"), now)
		if !ok {
			until = now.Add(time.Second)
		}
		if err := s.block(ctx, op, until); err != nil {
			return nil, err
		}
		if until.After(s.giveUp(now)) {
			return nil, &Throttled{Op: op, RetryAt: until}
		}
	}
	return nil, &Throttled{Op: op, RetryAt: s.rt.now().Add(time.Second)}
}

// send makes one HTTP call.
func (s *Session) send(ctx context.Context, req Request) (*Response, error) {
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL, body)
	if err != nil {
		return nil, fmt.Errorf("channel request: %w", err)
	}
	for k, v := range req.Header {
		hr.Header[k] = v
	}
	resp, err := s.HTTP.Do(hr)
	if err != nil {
		return nil, unreachable(ctx, req.Method, hr.URL, err)
	}
	defer resp.Body.Close()
	b, err := readAnswer(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, hr.URL.Redacted(), err)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: b}, nil
}

// limit returns op's published limit, and false when op is not limited (or this is a
// Verify session, which shares nothing).
func (s *Session) limit(op string) (Limit, bool) {
	l, ok := s.spec.Limits[op]
	return l, ok && !s.verify
}

// take takes n tokens of op's bucket, waiting for them while the waits add up to at most
// MaxWait and the context allows it; else *Throttled.
func (s *Session) take(ctx context.Context, op string, n int) error {
	lim, ok := s.limit(op)
	if !ok {
		return nil
	}
	return s.takeBucket(ctx, op, bucketID(s.Account, s.Channel, op), lim, n)
}

// takeBucket takes n tokens of the bucket id of limit lim as take does; op names it in a
// *Throttled.
func (s *Session) takeBucket(ctx context.Context, op string, id itemID, lim Limit, n int) error {
	hint := bucketHint(s.rt, id, lim)
	giveUp := s.giveUp(s.rt.now())
	for {
		now := s.rt.now()
		ms := now.UnixMilli()
		if _, wait := hint.takeN(lim.Burst, n, ms); wait > 0 {
			d := time.Duration(wait) * time.Millisecond
			if now.Add(d).After(giveUp) || !waitable(ctx, now.Add(d)) {
				return &Throttled{Op: op, RetryAt: now.Add(d)}
			}
			if err := sleep(ctx, d); err != nil {
				return err
			}
			continue
		}
		stored, ok, err := s.rt.takeToken(ctx, id, hint, lim.Burst, n, ms)
		if err != nil {
			return err
		}
		if stored.iv <= 0 {
			stored.iv = interval(lim.Rate) // the item is gone (TTL): a new bucket
		}
		if ok {
			if late := s.rt.now().UnixMilli() - ms; late > lateTake {
				// The take's own write was slow: the call goes out late, and the next
				// caller's slot, an interval after this one's, could reach the channel too
				// soon after it. Move the bucket on by the delay.
				stored.tat += late
				if err := s.rt.blockBucket(ctx, id, stored.tat, stored.iv); err != nil {
					return err
				}
			}
			s.rt.buckets.Store(id.text(), stored)
			return nil
		}
		s.rt.buckets.Store(id.text(), stored)
		hint = stored
	}
}

// giveUp is the latest a call made at now waits for the channel's limits: the runtime's
// MaxWait from now, or the session's waitUntil when that comes first.
func (s *Session) giveUp(now time.Time) time.Time {
	t := now.Add(s.rt.maxWait())
	if !s.waitUntil.IsZero() && s.waitUntil.Before(t) {
		return s.waitUntil
	}
	return t
}

// lateTake (ms) is how much later than its slot a call may go out before its bucket is
// moved on by the delay (takeBucket): a DynamoDB write takes a few milliseconds, so only a
// slow one (an instance paused, a table throttled) costs the extra write.
const lateTake = 50

// bucketHint is the bucket id as this instance last saw it, else a full bucket of lim.
func bucketHint(r *Runtime, id itemID, lim Limit) bucket {
	if b, ok := r.buckets.Load(id.text()); ok {
		return b.(bucket)
	}
	return bucket{iv: interval(lim.Rate)}
}

// observe adopts the rate the channel states in its rate header for op.
func (s *Session) observe(ctx context.Context, op string, h http.Header) error {
	lim, ok := s.limit(op)
	if !ok || s.spec.RateHeader == "" {
		return nil
	}
	iv, ok := rateHeader(h.Get(s.spec.RateHeader))
	if !ok {
		return nil
	}
	id := bucketID(s.Account, s.Channel, op)
	hint := bucketHint(s.rt, id, lim)
	if hint.iv == iv {
		return nil
	}
	if err := s.rt.setInterval(ctx, id, iv); err != nil {
		return err
	}
	hint.iv = iv
	s.rt.buckets.Store(id.text(), hint)
	return nil
}

// block closes op's bucket until until, as the channel's 429 said.
func (s *Session) block(ctx context.Context, op string, until time.Time) error {
	lim, ok := s.limit(op)
	if !ok {
		return nil
	}
	id := bucketID(s.Account, s.Channel, op)
	hint := bucketHint(s.rt, id, lim)
	tat := hint.blocked(lim.Burst, until.UnixMilli())
	if err := s.rt.blockBucket(ctx, id, tat, hint.iv); err != nil {
		return err
	}
	s.rt.buckets.Store(id.text(), bucket{tat: max(tat, hint.tat), iv: hint.iv})
	return nil
}

// waitable reports whether ctx lasts until t.
func waitable(ctx context.Context, t time.Time) bool {
	d, ok := ctx.Deadline()
	return !ok || d.After(t)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// Token is an access token and when it expires. Refresh, when set, is the new refresh token
// a rotating exchange answered with (Shopify's expiring offline tokens, Etsy): the old one
// is spent (RotatingAccessToken).
type Token struct {
	Value     string
	ExpiresAt time.Time
	Refresh   string
}

// AccessToken returns the channel's access token: the one cached in the table while it is
// more than TokenSkew from expiring and was got with the credentials the session holds
// (not ones replaced since), else a new one from exchange, which one instance at a
// time makes (the others wait for its result) and which is cached sealed for every instance.
// A refusal of the exchange (an *AuthError) counts toward the channel's disconnection, and
// the third in a row is returned as *Disconnected.
func (s *Session) AccessToken(ctx context.Context, exchange func(context.Context) (Token, error)) (string, error) {
	return s.accessToken(ctx, exchange, func(ctx context.Context, id itemID, _ tokenItem) (string, error) {
		return s.exchange(ctx, id, exchange)
	})
}

// accessToken is AccessToken: the token this session holds, the cached one, or, once this
// instance holds the exchange's lease, claimed's (given the token item as the claim left
// it); plain is a Verify session's exchange. A claimed exchange that answers errRotated (the
// item changed under it: another instance stored a newer refresh token) starts over.
func (s *Session) accessToken(ctx context.Context, plain func(context.Context) (Token, error),
	claimed func(ctx context.Context, id itemID, it tokenItem) (string, error)) (string, error) {
	if s.token != "" && s.rt.now().Add(TokenSkew).Before(s.exp) {
		return s.token, nil
	}
	if s.verify {
		t, err := plain(ctx)
		if err != nil {
			return "", err
		}
		s.token, s.exp = t.Value, t.ExpiresAt
		return t.Value, nil
	}
	id := tokenID(s.Account, s.Channel)
	for {
		it, err := s.rt.readToken(ctx, id)
		if err != nil {
			return "", err
		}
		s.refusals = it.Refusals
		now := s.rt.now()
		if it.Sealed != nil && it.Creds == s.sealed && now.Add(TokenSkew).UnixMilli() < it.Exp {
			plain, err := s.rt.Sealer.Open(ctx, s.Account, s.Channel, it.Sealed)
			if err != nil {
				return "", fmt.Errorf("open the cached access token: %w", err)
			}
			s.token, s.exp = string(plain), time.UnixMilli(it.Exp)
			return s.token, nil
		}
		it, ok, err := s.rt.claimExchange(ctx, id, s.sealed, now.UnixMilli(), now.Add(exchangeLease).UnixMilli(), now.Add(TokenSkew).UnixMilli())
		if err != nil {
			return "", err
		}
		if !ok {
			if err := sleep(ctx, 100*time.Millisecond); err != nil {
				return "", err
			}
			continue
		}
		tok, err := claimed(ctx, id, it)
		if errors.Is(err, errRotated) {
			continue
		}
		return tok, err
	}
}

// exchange makes the token exchange this instance claimed and caches its token.
func (s *Session) exchange(ctx context.Context, id itemID, exchange func(context.Context) (Token, error)) (string, error) {
	t, err := exchange(ctx)
	if err != nil {
		return "", s.Refused(ctx, err)
	}
	sealed, err := s.rt.Sealer.Seal(ctx, s.Account, s.Channel, []byte(t.Value))
	if err != nil {
		return "", fmt.Errorf("seal the access token: %w", err)
	}
	if err := s.rt.putToken(ctx, id, sealed, s.sealed, t.ExpiresAt.UnixMilli()); err != nil {
		return "", err
	}
	s.token, s.exp, s.refusals = t.Value, t.ExpiresAt, 0
	return t.Value, nil
}

// Refused counts err toward the channel's disconnection when it is an *AuthError (the
// channel refused the token or the credentials; a *Forbidden never counts, forbidden.go):
// the cached token is dropped, and the
// RefusalsToDisconnect-th refusal in a row is returned as *Disconnected. Any other error is
// returned as it is. The runtime calls it for the errors of the connector's operations; the
// error it returns is cleaned of the channel's secrets (Clean).
func (s *Session) Refused(ctx context.Context, err error) error {
	err = s.clean(err)
	if fb := (*Forbidden)(nil); errors.As(err, &fb) {
		return s.forbidden(ctx, err)
	}
	var (
		ae      *AuthError
		counted *countedRefusal
		d       *Disconnected
	)
	if !errors.As(err, &ae) || errors.As(err, &counted) || errors.As(err, &d) || s.verify {
		return err
	}
	s.token = ""
	n, cerr := s.rt.refuse(ctx, tokenID(s.Account, s.Channel))
	if cerr != nil {
		return errors.Join(err, cerr)
	}
	s.refusals = n
	if n >= RefusalsToDisconnect {
		return &Disconnected{Account: s.Account, Channel: s.Channel,
			Reason: fmt.Sprintf("the channel refused the credentials %d times in a row: %s", n, ae.Message)}
	}
	return &countedRefusal{err}
}

// countedRefusal is a refusal Refused counted already.
type countedRefusal struct{ err error }

// Error implements the error interface.
func (c *countedRefusal) Error() string { return c.err.Error() }

// Unwrap returns the refusal.
func (c *countedRefusal) Unwrap() error { return c.err }

// accepted ends the refusals in a row after an operation the channel accepted, when this
// session saw some.
func (s *Session) accepted(ctx context.Context) error {
	if s.verify || s.refusals == 0 {
		return nil
	}
	s.refusals = 0
	return s.rt.accept(ctx, tokenID(s.Account, s.Channel))
}
