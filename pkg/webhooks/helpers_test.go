package webhooks_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/multisell/multisell/pkg/store"

	"github.com/multisell/multisell/pkg/events"
)

// jsonOf decodes raw into v.
func jsonOf(raw json.RawMessage, v any) error { return json.Unmarshal(raw, v) }

// field matches events whose data has the member name rendering as want.
func field(name, want string) func(events.Event) bool {
	return func(ev events.Event) bool {
		var m map[string]any
		if json.Unmarshal(ev.Data, &m) != nil {
			return false
		}
		return fmt.Sprint(m[name]) == want
	}
}

// every matches every event.
var every = func(events.Event) bool { return true }

// only returns the one element of a JSON array.
func only(t testing.TB, list []byte) []byte {
	t.Helper()
	var items []json.RawMessage
	if err := json.Unmarshal(list, &items); err != nil || len(items) != 1 {
		t.Fatalf("want one item: %v %s", err, list)
	}
	return items[0]
}

// withMember returns the JSON object doc with member name set to v.
func withMember(t testing.TB, doc []byte, name string, v any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	m[name] = v
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// cutSep splits s at its first store.Sep.
func cutSep(s string) (string, string, bool) { return strings.Cut(s, store.Sep) }

// lastSep splits s at its last store.Sep.
func lastSep(s string) (string, string, bool) {
	i := strings.LastIndex(s, store.Sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(store.Sep):], true
}
