package app

import "github.com/multisell/multisell/pkg/auth"

// Authorizer is the API's REQUEST authorizer, which reads accounts.
func (d *Deps) Authorizer() auth.Authorizer { return auth.Authorizer{Accounts: d.Accounts()} }
