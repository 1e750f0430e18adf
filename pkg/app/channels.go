package app

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/connectors/ebay"
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
		Sealer:   sealer{d.Secrets(secrets.Credentials)},
		Migrator: channelMigrator{d: d},
	}
}

// channelMigrator is channels.Migrator over the connectors' runtime: eBay's
// listing migration (ebay.MigrateListings) with the channel's session. The
// runtime is built when called (it reads channels through this service).
type channelMigrator struct{ d *Deps }

// Migrate implements channels.Migrator. The channel's refusal of its token or
// a failed call is a 422 quoting eBay; its limits saying not now a 503.
func (m channelMigrator) Migrate(ctx context.Context, account, uuid string, refs []string) ([]channels.Migration, error) {
	ch, err := m.d.connections().Channel(ctx, account, uuid)
	if err != nil {
		return nil, err
	}
	if ch.Connector != ebay.Connector.Spec().Name {
		return nil, errs.Invalid("listing migration is eBay's (into its Inventory API): channel %s is not an eBay channel", uuid)
	}
	s, err := m.d.Connectors().Runtime.Session(ctx, ch)
	if err != nil {
		return nil, err
	}
	done, err := ebay.MigrateListings(ctx, s, refs)
	if err != nil {
		return nil, channelError(err, "migrate the listings")
	}
	out := make([]channels.Migration, len(done))
	for i, x := range done {
		out[i] = channels.Migration{ListingRef: x.ItemID, OK: x.OK, SKU: x.SKU, NewListingRef: x.ListingRef, Error: x.Error}
	}
	return out, nil
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
	return channelError(v.runtime.Verify(ctx, verifiedChannel(in), in.Credentials), "verify the credentials")
}

// MarketplaceAccount names the marketplace account of the credentials, as
// their connector names it or finds it with one call to the channel (whose
// refusal or failure is answered as Verify's).
func (v channelVerifier) MarketplaceAccount(ctx context.Context, in channels.Verification) (string, error) {
	name, err := v.runtime.MarketplaceAccount(ctx, verifiedChannel(in), in.Credentials)
	return name, channelError(err, "name the account of the credentials")
}

// verifiedChannel is the channel a verification is of.
func verifiedChannel(in channels.Verification) connectors.Channel {
	return connectors.Channel{Account: in.Account, UUID: in.UUID, Connector: in.Connector,
		Endpoints: connectors.Endpoints{API: in.Endpoints.API, Auth: in.Endpoints.Auth}}
}

// channelError is the failure of a call to a channel as the API answers it:
// the channel's refusal, or a call that failed (it did not do what), a 422
// quoting the channel; its limits saying not now a 503.
func channelError(err error, what string) error {
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
		return errs.Invalid("the channel did not %s: %v", what, err)
	}
}
