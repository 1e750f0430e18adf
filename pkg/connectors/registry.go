package connectors

import (
	"fmt"
	"strings"
	"sync"
)

// registry holds the registered connectors by name.
var registry = struct {
	sync.RWMutex
	byName map[string]Connector
}{byName: map[string]Connector{}}

// Register adds a connector under its Spec's name. The code that runs connectors (the
// functions, the local stack, tests) registers those it uses; registering a name twice with
// another connector panics, the same one again (the same pointer) is a no-op. Register
// connectors as pointers or comparable values.
func Register(c Connector) {
	name := c.Spec().Name
	registry.Lock()
	defer registry.Unlock()
	if old, ok := registry.byName[name]; ok && old != c {
		panic(fmt.Sprintf("connectors: %q registered twice", name))
	}
	registry.byName[name] = c
}

// Lookup returns the connector named name ("amazon").
func Lookup(name string) (Connector, bool) {
	registry.RLock()
	defer registry.RUnlock()
	c, ok := registry.byName[name]
	return c, ok
}

// ForType returns the connector of the channel type display name ("Amazon"; any case).
func ForType(channelType string) (Connector, bool) {
	registry.RLock()
	defer registry.RUnlock()
	for _, c := range registry.byName {
		if strings.EqualFold(c.Spec().ChannelType, channelType) {
			return c, true
		}
	}
	return nil, false
}
