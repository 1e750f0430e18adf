package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"maps"
	"net/http"
	"slices"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/deadline"
	"github.com/multisell/multisell/pkg/errs"
)

// HeaderIdempotencyKey names the header that makes a write safe to retry.
const HeaderIdempotencyKey = "Idempotency-Key"

// HeaderReplayed marks an answer replayed for an Idempotency-Key.
const HeaderReplayed = "Idempotent-Replayed"

// maxReplayBody is the largest answer kept for replay (a record must fit
// a DynamoDB item); a larger one is not kept, and its key is released.
const maxReplayBody = 300 << 10

// keepTimeout bounds saving or releasing a key once the request has its
// answer: within the answer's margin before the function's timeout.
const keepTimeout = answerMargin / 2

// Replay is what is kept of a request sent with an Idempotency-Key.
type Replay struct {
	// Fingerprint identifies the request (method, path, query, body).
	Fingerprint string
	// Pending: the request that claimed the key has not answered yet.
	Pending bool
	// Status, Headers and Body are its answer, once it has one.
	Status  int
	Headers map[string]string
	Body    string
}

// Replays keeps, per account and key, the answers of requests sent with an
// Idempotency-Key (pkg/idempotency).
type Replays interface {
	// Claim takes the key for requestID, or returns the Replay of the
	// request that holds it.
	Claim(ctx context.Context, account, key, fingerprint, requestID string) (*Replay, error)
	// Save keeps r as the answer of the key requestID claimed.
	Save(ctx context.Context, account, key, requestID string, r Replay) error
	// Release frees the key requestID claimed, keeping nothing.
	Release(ctx context.Context, account, key, requestID string) error
}

// writes are the methods an Idempotency-Key applies to.
var writes = map[string]bool{http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true}

// validKey reports whether key is 1 to 255 visible ASCII characters.
func validKey(key string) bool {
	if len(key) == 0 || len(key) > 255 {
		return false
	}
	for i := range len(key) {
		if key[i] < 0x21 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

// fingerprint identifies what a request asks: method, path, query and body.
func fingerprint(ev events.APIGatewayProxyRequest) string {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)); h.Write([]byte{0}) }
	write(ev.HTTPMethod)
	write(ev.Path)
	for _, k := range slices.Sorted(maps.Keys(ev.MultiValueQueryStringParameters)) {
		write(k)
		for _, v := range ev.MultiValueQueryStringParameters[k] {
			write(v)
		}
	}
	if len(ev.MultiValueQueryStringParameters) == 0 {
		for _, k := range slices.Sorted(maps.Keys(ev.QueryStringParameters)) {
			write(k)
			write(ev.QueryStringParameters[k])
		}
	}
	write(ev.Body)
	return hex.EncodeToString(h.Sum(nil))
}

// idempotent serves r, a write sent with Idempotency-Key key: the first
// request with the key runs and its answer (below 500) is kept; the same
// request again gets that answer replayed; another request with the key is
// 422; one that comes while the first still runs is 409. A 5xx is not
// kept, so a retry runs again.
func idempotent(ctx context.Context, log *slog.Logger, replays Replays, h Handler, r *Request, key string) events.APIGatewayProxyResponse {
	if !validKey(key) {
		resp, _ := failure(errs.Invalid("Idempotency-Key must be 1 to 255 visible ASCII characters"))
		return resp
	}
	fp, rid := fingerprint(r.APIGatewayProxyRequest), r.RequestContext.RequestID
	prior, err := replays.Claim(ctx, r.Account.ID, key, fp, rid)
	switch {
	case err != nil:
		log.Error("idempotency key", "error", err)
		resp, _ := failure(err)
		return resp
	case prior != nil && prior.Fingerprint != fp:
		resp, _ := failure(errs.Invalid("Idempotency-Key was already used with another request"))
		return resp
	case prior != nil && prior.Pending:
		resp, _ := failure(errs.Conflict("A request with this Idempotency-Key is still in progress"))
		return resp
	case prior != nil:
		headers := maps.Clone(prior.Headers)
		if headers == nil {
			headers = map[string]string{}
		}
		headers[HeaderReplayed] = "true"
		return events.APIGatewayProxyResponse{StatusCode: prior.Status, Headers: headers, Body: prior.Body}
	}
	resp := serve(ctx, log, h, r)
	// The request may have spent its deadline (a 503 after a dependency
	// hung): what is kept of the key is written on a context of its own, so
	// that a retry is never refused as "still in progress".
	ctx, cancel := deadline.Detached(ctx, keepTimeout)
	defer cancel()
	if resp.StatusCode >= 500 || len(resp.Body) > maxReplayBody {
		if err := replays.Release(ctx, r.Account.ID, key, rid); err != nil {
			log.Error("release an idempotency key", "error", err)
		}
		return resp
	}
	keep := Replay{Fingerprint: fp, Status: resp.StatusCode, Headers: resp.Headers, Body: resp.Body}
	if err := replays.Save(ctx, r.Account.ID, key, rid, keep); err != nil {
		log.Error("save an idempotency key's answer", "error", err)
	}
	return resp
}
