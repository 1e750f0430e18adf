package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/secrets"
	"github.com/multisell/multisell/pkg/webhookhttp"
)

// verifyTimeout bounds each call of a connect's verification, so both
// calls (a token exchange and one read) answer within the API's time.
const verifyTimeout = 8 * time.Second

// Channels is the channels service. The orders service reads channels, so
// their warehouses are the reads-only view (see Orders). Connecting a
// channel verifies its credentials with the connectors' runtime and seals
// them with the credentials key.
func (d *Deps) Channels() channels.Service {
	return channels.Service{
		Table: d.Table, Warehouses: d.warehouseReads(),
		Verifier: channelVerifier{runtime: &connectors.Runtime{Table: d.Table, Policy: webhookhttp.Policy{Local: d.Config.WebhookLoopback},
			CallTimeout: verifyTimeout}},
		Sealer: sealer{d.Secrets(secrets.Credentials)},
	}
}

// channelVerifier is channels.Verifier over the connectors' registry and
// runtime.
type channelVerifier struct{ runtime *connectors.Runtime }

// Connector finds the registered connector of typ, by its name or the
// display name of the channel type it serves (any case).
func (channelVerifier) Connector(typ string) (name, displayName string, ok bool) {
	c, ok := connectors.Lookup(strings.ToLower(typ))
	if !ok {
		c, ok = connectors.ForType(typ)
	}
	if !ok {
		return "", "", false
	}
	spec := c.Spec()
	return spec.Name, spec.ChannelType, true
}

// Verify runs the runtime's verification: the connector's parse of the
// credentials, the endpoint policy, and its verification calls. The
// channel's refusal, or a call that failed, is a 422 quoting the channel;
// its limits saying not now are a 503.
func (v channelVerifier) Verify(ctx context.Context, in channels.Verification) error {
	err := v.runtime.Verify(ctx, connectors.Channel{Account: in.Account, UUID: in.UUID, Connector: in.Connector,
		Endpoints: connectors.Endpoints{API: in.Endpoints.API, Auth: in.Endpoints.Auth}}, in.Credentials)
	var refused *connectors.AuthError
	var throttled *connectors.Throttled
	switch {
	case err == nil:
		return nil
	case errors.As(err, &refused):
		return errs.Invalid("the channel refused the credentials: %s", refused.Message)
	case errors.As(err, &throttled):
		return errs.Unavailable(err)
	case errs.KindOf(err) != errs.KindInternal:
		return err
	default:
		return errs.Invalid("the channel did not verify the credentials: %v", err)
	}
}
