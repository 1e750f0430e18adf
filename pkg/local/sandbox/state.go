package sandbox

import "strings"

// genericState is what a Generic keeps in its file: its address, so that the URLs channels
// were connected with still reach it after a restart, its sellers and their access tokens.
type genericState struct {
	Addr    string             `json:"addr"`
	Sellers map[string]*seller `json:"sellers"`
	Tokens  map[string]Token   `json:"tokens"`
}

// OpenGeneric returns a started generic marketplace whose state is kept in file (JSON,
// readable by the owner only), read back when it exists: its sellers, their orders,
// listings and trackings, the access tokens it gave, and its address, which it starts on
// again (a free loopback port the first time). Every change is written to the file. An
// address another process took since is an error: the channels connected to the sandbox
// keep its URL.
func OpenGeneric(file string) (*Generic, error) {
	g := newGeneric()
	err := OpenState(g.Server, g.Registry, file, func(st *genericState) string {
		g.Restore(st.Sellers, st.Tokens)
		return st.Addr
	})
	if err != nil {
		return nil, err
	}
	return g, nil
}

// state is what the Generic keeps in its file (the lock held).
func (g *Generic) state() any {
	return genericState{Addr: strings.TrimPrefix(g.URL, "http://"), Sellers: g.Sellers(), Tokens: g.Tokens()}
}
