package app

import (
	"context"
	"errors"

	"github.com/multisell/multisell/pkg/secrets"
)

// Secrets seals and opens the channels' secrets of purpose p (credentials, cached access
// tokens) under the KMS key of CREDENTIALS_KEY_ID: Deps.Keys, or, in a function built
// without it, noKeys.
func (d *Deps) Secrets(p secrets.Purpose) secrets.Service {
	var keys secrets.Keys = noKeys{}
	if d.Keys != nil {
		keys = d.Keys
	}
	return secrets.Service{Keys: keys, Purpose: p}
}

// errNoKeys is the error of a secret sealed or opened in a function whose main passes
// no kmsclient.Keys to NewLambda: a wiring bug.
var errNoKeys = errors.New("this function is built without the KMS client: its main must pass kmsclient.Keys to app.NewLambda")

// noKeys is the secrets.Keys of a function built without the KMS client: every call fails
// with errNoKeys. Many services are built with a sealer they never call (the channels
// service outside connecting a channel); the linker drops this type's methods from those.
type noKeys struct{}

// DataKey implements secrets.Keys.
func (noKeys) DataKey(context.Context, map[string]string) (plain, blob []byte, err error) {
	return nil, nil, errNoKeys
}

// DecryptKey implements secrets.Keys.
func (noKeys) DecryptKey(context.Context, []byte, map[string]string) ([]byte, error) {
	return nil, errNoKeys
}
