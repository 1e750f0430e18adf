package functions

import (
	"fmt"
	"maps"
	"slices"

	"github.com/multisell/multisell/pkg/app"
)

// Names returns every function name, sorted.
func Names() []string { return slices.Sorted(maps.Keys(table)) }

// Lookup returns a lookup of the handlers over d's clients, as
// pkg/local/gateway takes it: the handler of the function name is an
// app.HTTPHandler, an app.AuthorizerHandler, an app.SQSHandler or an
// app.StreamHandler, built anew at each call.
func Lookup(d *app.Deps) func(name string) (any, error) {
	return func(name string) (any, error) {
		f, ok := table[name]
		if !ok {
			return nil, fmt.Errorf("no function %q", name)
		}
		return f(d), nil
	}
}
