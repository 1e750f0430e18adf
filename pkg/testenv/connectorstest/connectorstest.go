// Package connectorstest is the conformance suite every connector runs (Run, with the
// Harness of its sandbox; suite.go, cases.go) and the test helpers it and connector tests
// use: a Sealer under a test key, an Inbox that records what the runtime sends, and the
// Channels of one channel. It is imported by tests only; docs/connectors.md ("The
// conformance suite") describes it.
package connectorstest

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// Sealer seals with AES-GCM under a test key, the account and channel as additional data,
// as pkg/secrets does under KMS.
type Sealer struct{ aead cipher.AEAD }

// NewSealer is a Sealer under a new random key.
func NewSealer(t testing.TB) Sealer {
	t.Helper()
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	block, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		t.Fatal(err)
	}
	return Sealer{aead}
}

// Seal seals plain for the account's channel, the nonce first.
func (s Sealer) Seal(_ context.Context, account, channel string, plain []byte) ([]byte, error) {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return s.aead.Seal(nonce, nonce, plain, []byte(account+"/"+channel)), nil
}

// Open opens what Seal sealed for the same account and channel.
func (s Sealer) Open(_ context.Context, account, channel string, sealed []byte) ([]byte, error) {
	n := s.aead.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed too short")
	}
	return s.aead.Open(nil, sealed[:n], sealed[n:], []byte(account+"/"+channel))
}

// Inbox records every order document and result the runtime sends, in order. The Take
// methods return what was sent since the last take of the same kind and forget it.
type Inbox struct {
	mu      sync.Mutex
	sends   int
	fail    func(n int) bool
	docs    []map[string]any
	results []map[string]any
}

// SetFail sets what decides whether a send of orders fails (n counts the sends from 1,
// those that failed too); nil: none fails.
func (in *Inbox) SetFail(fail func(n int) bool) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.fail = fail
}

// SendOrders records the documents, or fails as SetFail decided.
func (in *Inbox) SendOrders(_ context.Context, _ string, docs []json.RawMessage) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.sends++
	if in.fail != nil && in.fail(in.sends) {
		return errors.New("inbox unavailable")
	}
	for _, d := range docs {
		var m map[string]any
		if err := json.Unmarshal(d, &m); err != nil {
			return fmt.Errorf("order document: %w", err)
		}
		in.docs = append(in.docs, m)
	}
	return nil
}

// SendResults records the results.
func (in *Inbox) SendResults(_ context.Context, _ string, results []json.RawMessage) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, r := range results {
		var m map[string]any
		if err := json.Unmarshal(r, &m); err != nil {
			return fmt.Errorf("result: %w", err)
		}
		in.results = append(in.results, m)
	}
	return nil
}

// Sends is how many sends of orders there were, those that failed too.
func (in *Inbox) Sends() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.sends
}

// Counts is how many times each display_ref was sent since the last take of orders.
func (in *Inbox) Counts() map[string]int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return counts(in.docs)
}

// Results are the results sent since the last TakeResults, which it keeps.
func (in *Inbox) Results() []map[string]any {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]map[string]any(nil), in.results...)
}

// TakeDocs returns the order documents sent, in order, and forgets them.
func (in *Inbox) TakeDocs() []map[string]any {
	in.mu.Lock()
	defer in.mu.Unlock()
	d := in.docs
	in.docs = nil
	return d
}

// TakeOrders returns the order documents sent by display_ref, each ref's in order, and
// forgets them (nil: none).
func (in *Inbox) TakeOrders() map[string][]map[string]any {
	var byRef map[string][]map[string]any
	for _, d := range in.TakeDocs() {
		if byRef == nil {
			byRef = map[string][]map[string]any{}
		}
		ref, _ := d["display_ref"].(string)
		byRef[ref] = append(byRef[ref], d)
	}
	return byRef
}

// TakeCounts returns how many times each display_ref was sent, and forgets the documents.
func (in *Inbox) TakeCounts() map[string]int { return counts(in.TakeDocs()) }

// TakeResults returns the results sent, in order, and forgets them.
func (in *Inbox) TakeResults() []map[string]any {
	in.mu.Lock()
	defer in.mu.Unlock()
	r := in.results
	in.results = nil
	return r
}

// counts is how many of docs each display_ref has (nil: none).
func counts(docs []map[string]any) map[string]int {
	var c map[string]int
	for _, d := range docs {
		if c == nil {
			c = map[string]int{}
		}
		ref, _ := d["display_ref"].(string)
		c[ref]++
	}
	return c
}

// Channels finds the one channel of a test, and no other.
type Channels struct{ Ch connectors.Channel }

// Channel is the test's channel if account and uuid name it, or a NotFound error.
func (c Channels) Channel(_ context.Context, account, uuid string) (connectors.Channel, error) {
	if account != c.Ch.Account || uuid != c.Ch.UUID {
		return connectors.Channel{}, errs.NotFound("Channel not found")
	}
	return c.Ch, nil
}
