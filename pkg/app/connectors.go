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
// The channels domain answers what only it knows (connections): the channel of an outbox
// message with its sealed credentials, the channels to poll, a disconnection, and the
// connection's status.
func (d *Deps) Connectors() connectors.Service {
	conns := d.connections()
	return connectors.Service{
		Runtime: &connectors.Runtime{
			Table:       d.Table,
			Sealer:      sealer{d.Secrets(secrets.AccessToken)},
			Credentials: sealer{d.Secrets(secrets.Credentials)},
			Inbox:       connectors.QueueInbox{Queue: d.channelQueue(d.Config.ChannelInboxQueueURL)},
			Channels:    conns,
			Policy:      webhookhttp.Policy{Local: d.Config.WebhookLoopback},
		},
		Pushes:    d.channelQueue(d.Config.ConnectorQueueURL),
		Polls:     d.queue(d.Config.ConnectorPollQueueURL),
		Directory: conns, Disconnector: conns, Status: conns,
	}
}

// sealer is a secrets.Service as connectors.Sealer and channels.Sealer.
type sealer struct{ s secrets.Service }

// Seal implements connectors.Sealer.
func (s sealer) Seal(ctx context.Context, account, channel string, plaintext []byte) ([]byte, error) {
	return s.s.Seal(ctx, account, channel, plaintext)
}

// Open implements connectors.Sealer.
func (s sealer) Open(ctx context.Context, account, channel string, sealed []byte) ([]byte, error) {
	return s.s.Open(ctx, account, channel, sealed)
}
