package app

import (
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// Consent is the consent flow: its authorizations in the table, the operator's apps, the
// connectors' runtime for the code exchange (calls bounded as a connect's verification)
// and the channels service's connect path, which verifies and seals the credentials.
func (d *Deps) Consent() consent.Service {
	policy := webhookhttp.Policy{Local: d.Config.WebhookLoopback}
	return consent.Service{
		Table:     d.Table,
		Channels:  d.Channels(),
		Exchanger: &connectors.Runtime{Table: d.Table, Policy: policy, CallTimeout: verifyTimeout},
		Apps:      d.ConsentApps,
		URLs:      policy,
	}
}
