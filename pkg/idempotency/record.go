package idempotency

import (
	"encoding/json"
	"time"

	"github.com/multisell/multisell/pkg/api"
)

// Retention of a record and of a claim.
const (
	// retention is how long an answer is replayed.
	retention = 24 * time.Hour
	// lease is how long a claim whose request never finished (its function
	// crashed or timed out) blocks the key: longer than any API function
	// runs.
	lease = 30 * time.Second
)

// States of a record.
const (
	statePending = "pending"
	stateDone    = "done"
)

// record is the stored state of one key.
type record struct {
	Fingerprint string `dynamodbav:"fp"`
	State       string `dynamodbav:"state"`
	RequestID   string `dynamodbav:"rid"`
	LeaseUntil  int64  `dynamodbav:"lease_until"` // unix ms; a pending claim's end
	Status      int    `dynamodbav:"status,omitempty"`
	Headers     string `dynamodbav:"headers,omitempty"` // JSON object
	Body        string `dynamodbav:"body,omitempty"`
	TTL         int64  `dynamodbav:"ttl"`
}

// replay is what r tells api about a key another request holds.
func (r record) replay() (*api.Replay, error) {
	out := &api.Replay{Fingerprint: r.Fingerprint, Pending: r.State != stateDone, Status: r.Status, Body: r.Body}
	if r.Headers != "" {
		if err := json.Unmarshal([]byte(r.Headers), &out.Headers); err != nil {
			return nil, err
		}
	}
	return out, nil
}
