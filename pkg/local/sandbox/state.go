package sandbox

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

// genericState is what a Generic keeps in its file: its address, so that the URLs channels
// were connected with still reach it after a restart, its sellers and their access tokens.
type genericState struct {
	Addr    string             `json:"addr"`
	Sellers map[string]*seller `json:"sellers"`
	Tokens  map[string]token   `json:"tokens"`
}

// OpenGeneric returns a started generic marketplace whose state is kept in file (JSON,
// readable by the owner only), read back when it exists: its sellers, their orders,
// listings and trackings, the access tokens it gave, and its address, which it starts on
// again (a free loopback port the first time). Every change is written to the file. An
// address another process took since is an error: the channels connected to the sandbox
// keep its URL.
func OpenGeneric(file string) (*Generic, error) {
	g := newGeneric()
	var st genericState
	if err := ReadState(file, &st); err != nil {
		return nil, err
	}
	if st.Sellers != nil {
		g.sellers = st.Sellers
	}
	if st.Tokens != nil {
		g.tokens = st.Tokens
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	if err := g.StartAt(st.Addr); err != nil {
		return nil, fmt.Errorf("%w (the address of its state %s; delete the file for a new sandbox on a free port)", err, file)
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.file = file
	if err := g.writeLocked(); err != nil {
		_ = g.Close()
		return nil, err
	}
	return g, nil
}

// saveLocked writes the state to the file, if the Generic has one (the lock held); a
// failure is logged: the sandbox keeps serving from memory.
func (g *Generic) saveLocked() {
	if g.file == "" {
		return
	}
	if err := g.writeLocked(); err != nil {
		slog.Warn("sandbox state not saved", "file", g.file, "error", err.Error())
	}
}

// writeLocked writes the state to the file atomically (the lock held).
func (g *Generic) writeLocked() error {
	return WriteState(g.file, genericState{Addr: strings.TrimPrefix(g.URL, "http://"), Sellers: g.sellers, Tokens: g.tokens})
}
