package app

import (
	"context"

	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Connectors is the service of the connector functions: the runtime over the table, the
// channels' secrets under KMS (credentials and cached access tokens, each its own purpose)
// and the channel inbox, the connector queue and the poll queue.
//
// What only the channels domain can answer is left to it: the runtime's Channels (the
// channel of an outbox message, with its sealed credentials), the Directory (the channels
// to poll) and the Disconnector (a channel refused too often). Until they are set here the
// push and poll consumers drop every message (logged and counted: "no Channels wired") and
// the scheduler polls nothing (logged: "no Directory wired").
func (d *Deps) Connectors() connectors.Service {
	return connectors.Service{
		Runtime: &connectors.Runtime{
			Table:       d.Table,
			Sealer:      sealer{d.Secrets(secrets.AccessToken)},
			Credentials: sealer{d.Secrets(secrets.Credentials)},
			Inbox:       connectors.QueueInbox{Queue: d.channelQueue(d.Config.ChannelInboxQueueURL)},
			Policy:      webhookhttp.Policy{Local: d.Config.WebhookLoopback},
		},
		Pushes: d.channelQueue(d.Config.ConnectorQueueURL),
		Polls:  d.queue(d.Config.ConnectorPollQueueURL),
	}
}

// sealer is a secrets.Service as the runtime's connectors.Sealer.
type sealer struct{ s secrets.Service }

// Seal implements connectors.Sealer.
func (s sealer) Seal(ctx context.Context, account, channel string, plaintext []byte) ([]byte, error) {
	return s.s.Seal(ctx, account, channel, plaintext)
}

// Open implements connectors.Sealer.
func (s sealer) Open(ctx context.Context, account, channel string, sealed []byte) ([]byte, error) {
	return s.s.Open(ctx, account, channel, sealed)
}
