package demo

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/multisell/multisell/pkg/app"
	"github.com/multisell/multisell/pkg/channels"
	"github.com/multisell/multisell/pkg/connectors"
	"github.com/multisell/multisell/pkg/local/sandbox"
)

// Kind is a sandbox the local stack runs beside it (`make run`): the connector that reaches
// it, what the banner calls it, and how to open it with its state in a file. Each sandbox
// package registers its own (Register, from its init), with its demo connection; the
// generic marketplace's is registered here (sandbox.go).
type Kind struct {
	Connector connectors.Connector
	Title     string
	Open      func(file string) (Running, error)
}

// Running is an open sandbox: its base URL, how to stop it, and how to connect a channel of
// an account to it, with listings and orders of its own there (the demo's).
type Running struct {
	URL     string
	Close   func() error
	Connect func(ctx context.Context, d *app.Deps, account string) (channels.Channel, error)
	// Consent registers the sandbox's app with the stack's callback URL of its type and
	// returns what the consent flow needs of it; nil for a sandbox of a type that does not
	// connect by consent.
	Consent func(callback string) ConsentSandbox
}

// kinds are the registered kinds.
var kinds struct {
	sync.Mutex
	list []Kind
}

// Register adds a sandbox kind; a connector's second kind replaces its first.
func Register(k Kind) {
	kinds.Lock()
	defer kinds.Unlock()
	kinds.list = slices.DeleteFunc(kinds.list, func(o Kind) bool { return o.Connector.Spec().Name == k.Connector.Spec().Name })
	kinds.list = append(kinds.list, k)
}

// Kinds are the registered sandbox kinds: the generic marketplace's first, then by connector
// name.
func Kinds() []Kind {
	kinds.Lock()
	defer kinds.Unlock()
	out := slices.Clone(kinds.list)
	slices.SortFunc(out, func(a, b Kind) int {
		an, bn := a.Connector.Spec().Name, b.Connector.Spec().Name
		return cmp.Or(-cmp.Compare(boolInt(an == genericName), boolInt(bn == genericName)), strings.Compare(an, bn))
	})
	return out
}

// genericName is the generic marketplace's connector name.
var genericName = sandbox.GenericConnector.Spec().Name

// boolInt is 1 for true.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Opener is a Kind's Open for a sandbox S: open starts it with its state file, server is
// its sandbox.Server, connect connects a demo account's channel to it, and consent (at
// most one; none for a type that does not connect by consent) is its Running.Consent.
func Opener[S any](open func(file string) (S, error), server func(S) *sandbox.Server,
	connect func(context.Context, *app.Deps, string, S) (channels.Channel, error), consent ...func(S, string) ConsentSandbox) func(string) (Running, error) {
	return func(file string) (Running, error) {
		s, err := open(file)
		if err != nil {
			return Running{}, err
		}
		srv := server(s)
		r := Running{URL: srv.URL, Close: srv.Close, Connect: func(ctx context.Context, d *app.Deps, account string) (channels.Channel, error) {
			return connect(ctx, d, account, s)
		}}
		for _, c := range consent {
			r.Consent = func(callback string) ConsentSandbox { return c(s, callback) }
		}
		return r, nil
	}
}
