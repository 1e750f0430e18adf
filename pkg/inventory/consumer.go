package inventory

import (
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aws/aws-lambda-go/events"

	"github.com/multisell/multisell/pkg/api"
	"github.com/multisell/multisell/pkg/store"
)

// Consume is the handler of the adjustments queue (an SQS event source with
// ReportBatchItemFailures). Messages are applied in order; when one fails,
// it and every message after it are reported as failures, so SQS delivers
// them again in the same order and, after the queue's maxReceiveCount,
// moves a message that keeps failing to the dead-letter queue. Applying is
// idempotent, so a retried message changes nothing twice.
func (s Service) Consume(ctx context.Context, ev events.SQSEvent) (events.SQSEventResponse, error) {
	var resp events.SQSEventResponse
	for i, m := range ev.Records {
		log := api.Log(ctx).With("message_id", m.MessageId)
		mctx, meter := store.EnsureMeter(api.WithLogger(ctx, log))
		err := s.consume(mctx, m.Body)
		log.Info("adjustment", "ok", err == nil, "ddb_calls", meter.Calls(), "ddb_wcu", meter.WriteUnits())
		if err != nil {
			log.Error("adjustment failed", "error", err)
			for _, rest := range ev.Records[i:] {
				resp.BatchItemFailures = append(resp.BatchItemFailures, events.SQSBatchItemFailure{ItemIdentifier: rest.MessageId})
			}
			break
		}
	}
	return resp, nil
}

// consume applies one message and tells the stock listener which records
// changed. A listener error fails the message: the retry applies nothing
// again (the stored status answers it) but tells the listener once more.
func (s Service) consume(ctx context.Context, body string) error {
	adj, err := decodeAdjustment(body)
	if err != nil {
		return err
	}
	results, err := Apply(ctx, s.Table, adj)
	if err != nil {
		return err
	}
	var changed []SKUWarehouse
	for _, r := range results {
		if r.Result != ResultSkipped {
			changed = append(changed, SKUWarehouse{SKU: r.SKU, Warehouse: r.Warehouse})
		}
	}
	if s.Stock == nil || len(changed) == 0 {
		return nil
	}
	if err := s.Stock.StockAvailable(ctx, adj.Account, changed); err != nil {
		return fmt.Errorf("stock listener after %s: %w", adj.RequestID, err)
	}
	return nil
}

// maxMessageJSON bounds the JSON a message body may unzip to: a real one is
// far smaller, so a hostile body cannot exhaust memory.
const maxMessageJSON = 1 << 20

// decodeAdjustment reads and checks a message body (see encodeAdjustment).
func decodeAdjustment(body string) (Adjustment, error) {
	var adj Adjustment
	zr, err := gzip.NewReader(base64.NewDecoder(base64.StdEncoding, strings.NewReader(body)))
	if err != nil {
		return adj, fmt.Errorf("decode adjustment: %w", err)
	}
	dec := json.NewDecoder(io.LimitReader(zr, maxMessageJSON))
	if err := dec.Decode(&adj); err != nil {
		return adj, fmt.Errorf("decode adjustment: %w", err)
	}
	if err := adj.validate(); err != nil {
		return adj, fmt.Errorf("adjustment %q: %w", adj.RequestID, err)
	}
	return adj, nil
}

// clearable are the attributes an item may clear.
var clearable = []string{attrCost, attrBinLocation, attrDescription}

// validate checks a decoded message before anything is applied, so a
// malformed one fails as a whole (and ends in the dead-letter queue).
func (adj Adjustment) validate() error {
	if _, _, ok := parseRequestID(adj.Account, adj.RequestID); !ok {
		return errors.New("request id does not belong to the account")
	}
	if adj.Method != MethodPut && adj.Method != MethodPatch {
		return fmt.Errorf("method %q is not PUT or PATCH", adj.Method)
	}
	if len(adj.Items) == 0 {
		return errors.New("no items")
	}
	for i, it := range adj.Items {
		if !api.ValidSKU(it.SKU) || it.Warehouse == "" || (it.OnHand == nil) == (it.Available == nil) {
			return fmt.Errorf("item %d: needs a sku, a warehouse and one quantity", i)
		}
		for _, c := range it.Clear {
			if !slices.Contains(clearable, c) {
				return fmt.Errorf("item %d: cannot clear %q", i, c)
			}
		}
	}
	return nil
}
