package sandbox

import "strings"

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
	err := OpenState(g.Server, file, func(st *genericState) string {
		if st.Sellers != nil {
			g.sellers = st.Sellers
		}
		if st.Tokens != nil {
			g.tokens = st.Tokens
		}
		return st.Addr
	}, &g.mu, &g.file, g.state)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// saveLocked writes the state to the file, if the Generic has one (the lock held).
func (g *Generic) saveLocked() { g.file.Save(g.state) }

// state is what the Generic keeps in its file (the lock held).
func (g *Generic) state() any {
	return genericState{Addr: strings.TrimPrefix(g.URL, "http://"), Sellers: g.sellers, Tokens: g.tokens}
}
