package orders

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// AccountAttribute is the SQS message attribute naming the account an
// order-import message belongs to (channel connectors set it, and use the
// account as the message group).
const AccountAttribute = "account_id"

// errBadMessage is a message that can never import: retrying is useless.
var errBadMessage = errors.New("bad order import message")

// Consume is the order-import function: each SQS message holds one import
// document or a JSON array of them, for the account of its account_id
// attribute. Invalid documents are logged with their error and dropped
// (re-sending them cannot help); a failure of the service fails the
// message and those after it in the batch, so they are retried in order.
func (s Service) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	var resp events.SQSEventResponse
	for i, m := range ev.Records {
		log := api.Log(ctx).With("message_id", m.MessageId)
		mctx, meter := store.EnsureMeter(api.WithLogger(ctx, log))
		results, err := s.consume(mctx, m)
		for _, r := range results {
			if r.Result == ResultError {
				log.Warn("order import rejected", "channel_uuid", r.ChannelUUID, "display_ref", r.DisplayRef, "error", r.Error)
			}
		}
		log.Info("order import", "documents", len(results), "ok", err == nil, "ddb_calls", meter.Calls())
		if errors.Is(err, errBadMessage) {
			log.Warn("order import message dropped", "error", err)
			continue
		}
		if err != nil {
			log.Error("order import failed", "error", err)
			for _, rest := range ev.Records[i:] {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rest.MessageId})
			}
			break
		}
	}
	return resp, nil
}

func (s Service) consume(ctx context.Context, m events.SQSMessage) ([]Result, error) {
	attr, ok := m.MessageAttributes[AccountAttribute]
	if !ok || attr.StringValue == nil || *attr.StringValue == "" {
		return nil, fmt.Errorf("%w: no %s attribute", errBadMessage, AccountAttribute)
	}
	docs, err := SplitDocuments([]byte(m.Body))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errBadMessage, err)
	}
	return s.Import(ctx, *attr.StringValue, docs)
}

// SplitDocuments reads an import input: a JSON array of documents or a
// single document.
func SplitDocuments(b []byte) ([]json.RawMessage, error) {
	trimmed := strings.TrimSpace(string(b))
	if !json.Valid([]byte(trimmed)) {
		return nil, errors.New("import input is not valid JSON")
	}
	if strings.HasPrefix(trimmed, "[") {
		var docs []json.RawMessage
		if err := json.Unmarshal([]byte(trimmed), &docs); err != nil {
			return nil, fmt.Errorf("import input: %w", err)
		}
		return docs, nil
	}
	return []json.RawMessage{json.RawMessage(trimmed)}, nil
}
