package app

import "github.com/multisell/multisell/pkg/channels"

// Channels is the channels service.
func (d *Deps) Channels() channels.Service { return channels.Service{Table: d.Table} }
