package app

import "github.com/multisell/multisell/pkg/secrets"

// Secrets seals and opens the channels' secrets of purpose p (credentials, cached access
// tokens) under the KMS key of CREDENTIALS_KEY_ID.
func (d *Deps) Secrets(p secrets.Purpose) secrets.Service {
	return secrets.Service{Keys: secrets.Keys{Client: d.KMS, KeyID: d.Config.CredentialsKeyID}, Purpose: p}
}
