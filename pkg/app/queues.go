package app

import (
	"github.com/multisell/multisell/pkg/push"
	"github.com/multisell/multisell/pkg/queue"
)

// queue is a sender to the queue url.
func (d *Deps) queue(url string) queue.Sender { return queue.Sender{Client: d.SQS, URL: url} }

// channelQueue is a sender to one of the channel queues, which connectors
// read and write: plain JSON bodies.
func (d *Deps) channelQueue(url string) queue.Sender {
	return queue.Sender{Client: d.SQS, URL: url, Plain: true}
}

// channelPush is where the domains push to the channels: the channel
// outbox, the connector queue and the retry queue, with the configured
// retry schedule. Its Router, the channels domain, sends the pushes of a
// channel that a connector of multisell's own serves to the connector queue.
func (d *Deps) channelPush() push.Queues {
	return push.Queues{
		Outbox: d.channelQueue(d.Config.ChannelOutboxQueueURL), Connectors: d.channelQueue(d.Config.ConnectorQueueURL),
		Retries: d.channelQueue(d.Config.ChannelRetryQueueURL), RetryBase: d.Config.SyncRetryBase,
		Router: d.connections(),
	}
}
