package app

import (
	"github.com/multisell/multisell/pkg/accounts"
	"github.com/multisell/multisell/pkg/ratelimit"
)

// Accounts is the accounts service: rotations and disablings revoke the
// cached authorizations through the rate limiter's windows. New accounts
// get no API key on a usage plan (the CLI sets Keys against AWS; the local
// gateway reads the account's rate instead).
func (d *Deps) Accounts() accounts.Service {
	return accounts.Service{Table: d.Table, Revoker: ratelimit.Limiter{Table: d.Table}}
}
