package consent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/errs"
)

// AppConfig is the operator's app of one channel type as the apps document holds it: the
// app (client id and secret, the redirect URI registered with the marketplace, what the
// marketplace needs beyond them) and the endpoints of the channels it connects (empty: the
// connector's production ones; the local stack's name its sandboxes).
type AppConfig struct {
	connectors.App
	Endpoints channels.Endpoints `json:"endpoints"`
}

// Apps reads the operator's apps document: a JSON object of AppConfig by connector name
// ({"amazon":{...},"ebay":{...}}). In AWS it is the secret of template.yaml's
// ConsentAppsSecret; on the local stack, the sandboxes' apps.
type Apps func(ctx context.Context) ([]byte, error)

// appOf reads the app of the connector name from the document: a channel type without one
// is a 422 (the operator has not registered an app for it).
func appOf(ctx context.Context, apps Apps, name, display string) (AppConfig, error) {
	if apps == nil {
		return AppConfig{}, errNoApp(display)
	}
	doc, err := apps(ctx)
	if err != nil {
		return AppConfig{}, fmt.Errorf("read the operator's apps: %w", err)
	}
	var all map[string]AppConfig
	if err := json.Unmarshal(doc, &all); err != nil {
		return AppConfig{}, fmt.Errorf("the operator's apps are not a JSON object of apps by channel type: %w", errNoDetail)
	}
	app, ok := all[name]
	if !ok || app.ClientID == "" {
		return AppConfig{}, errNoApp(display)
	}
	return app, nil
}

// errNoDetail stands for a parse error whose text could quote the secret.
var errNoDetail = fmt.Errorf("unreadable")

// errNoApp is the 422 of a channel type the deployment has no app for.
func errNoApp(display string) error {
	return errs.Invalid("authorization.type %s has no app on this deployment to connect by consent: its operator registers one (docs/connectors.md, Connecting a merchant)", display)
}
