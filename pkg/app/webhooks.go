package app

import "github.com/multisell/multisell/pkg/webhooks"

// Webhooks is the webhooks service: it reads the event feed, queues
// deliveries, and posts them with the shared sender.
func (d *Deps) Webhooks() webhooks.Service {
	return webhooks.Service{
		Table: d.Table, Feed: d.feed(), Queue: d.queue(d.Config.WebhookDeliveryQueueURL),
		Poster: d.WebhookSender, URLs: d.WebhookSender.Policy, Schedule: d.Config.WebhookRetrySchedule,
	}
}
