package demo

import (
	"context"
	"fmt"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/consent"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// ConnectByConsent connects the account's channel name of the connector conn as a merchant
// does by consent (docs/connectors.md, "Connecting a merchant"): an authorization with
// fields, the sandbox's consent page approved for its seller, and the callback the page
// redirects to, served by the consent flow in process. The type's app must be the stack's
// (registered with the sandbox's Consent hook first).
func ConnectByConsent(ctx context.Context, d *app.Deps, account, name, conn, seller string, fields map[string]string) (channels.Channel, error) {
	svc := d.Consent()
	a, err := svc.Authorize(ctx, account, consent.Input{Type: conn, Name: name, Fields: fields})
	if err != nil {
		return channels.Channel{}, fmt.Errorf("authorize %s: %w", name, err)
	}
	back, err := sandbox.Consent(ctx, a.ConsentURL, "approve", seller)
	if err != nil {
		return channels.Channel{}, fmt.Errorf("consent to %s: %w", name, err)
	}
	res, err := svc.Callback(ctx, conn, back.Query())
	switch {
	case err != nil:
		return channels.Channel{}, fmt.Errorf("callback of %s: %w", name, err)
	case res.Channel == "":
		return channels.Channel{}, fmt.Errorf("callback of %s: %s", name, res.Code)
	}
	return d.Channels().Get(ctx, account, res.Channel)
}
