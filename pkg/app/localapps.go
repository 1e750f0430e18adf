package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// LocalApps are the operator's apps on the local stack and in the tests: the sandboxes'
// apps, which whoever starts a sandbox sets (Set), served as the apps document the secret
// holds in AWS (Document).
type LocalApps struct {
	mu   sync.Mutex
	apps map[string]json.RawMessage
}

// Set makes app (a consent.AppConfig) the app of the connector name.
func (l *LocalApps) Set(name string, app any) error {
	b, err := json.Marshal(app)
	if err != nil {
		return fmt.Errorf("the app of %s: %w", name, err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.apps == nil {
		l.apps = map[string]json.RawMessage{}
	}
	l.apps[name] = b
	return nil
}

// Document is the apps document: a JSON object of the apps by connector name.
func (l *LocalApps) Document(context.Context) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return json.Marshal(l.apps)
}

// Load replaces the apps with those of doc, an apps document (what Document answered in
// the process that set them: the CLI reads the local stack's from its stack file).
func (l *LocalApps) Load(doc []byte) error {
	var apps map[string]json.RawMessage
	if err := json.Unmarshal(doc, &apps); err != nil {
		return fmt.Errorf("the apps document: %w", err)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.apps = apps
	return nil
}
