package connectors

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/queue"
)

// QueueInbox is the Inbox over the channel inbox queue, as every connector sends to it
// (docs/channel-sync.md): plain JSON bodies in the account's message group, the account in
// the account_id attribute, deduplicated by content (the same answer sent twice within
// SQS's five minutes is taken once; the inbox's import and results are idempotent anyway).
type QueueInbox struct {
	Queue queue.Sender
}

// maxOrdersBody bounds the order documents of one inbox message (SQS takes 256 KiB), so a
// page of large orders is sent in several messages.
const maxOrdersBody = 200 << 10

// SendOrders implements Inbox: the documents as JSON arrays, as many to a message as fit.
func (q QueueInbox) SendOrders(ctx context.Context, account string, docs []json.RawMessage) error {
	for start := 0; start < len(docs); {
		end, size := start, 2
		for end < len(docs) && (end == start || size+len(docs[end])+1 <= maxOrdersBody) {
			size += len(docs[end]) + 1
			end++
		}
		if err := q.send(ctx, account, docs[start:end]); err != nil {
			return fmt.Errorf("send orders: %w", err)
		}
		start = end
	}
	return nil
}

// SendResults implements Inbox: one message per result.
func (q QueueInbox) SendResults(ctx context.Context, account string, results []json.RawMessage) error {
	for _, r := range results {
		if err := q.send(ctx, account, r); err != nil {
			return fmt.Errorf("send a result: %w", err)
		}
	}
	return nil
}

// send puts body, encoded as the queue's sender does, in the account's message group.
func (q QueueInbox) send(ctx context.Context, account string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	return q.Queue.SendMessage(ctx, queue.Message{Group: account, Dedup: hex.EncodeToString(sum[:]), Account: account, Body: body})
}
