package sandbox

import "strings"

// Saved is what a sandbox that keeps nothing but its Registry keeps in its file: its address,
// so that the URLs channels were connected with still reach it after a restart, its sellers
// and the access tokens it gave.
type Saved[S Seller] struct {
	Addr    string           `json:"addr"`
	Sellers map[string]S     `json:"sellers"`
	Tokens  map[string]Token `json:"tokens"`
}

// NewSavedRegistry returns the Registry of a sandbox served by srv whose state is Saved.
func NewSavedRegistry[S Seller](srv *Server) *Registry[S] {
	var g *Registry[S]
	g = NewRegistry[S](func() any {
		return Saved[S]{Addr: strings.TrimPrefix(srv.URL, "http://"), Sellers: g.sellers, Tokens: g.tokens}
	})
	return g
}

// OpenSaved starts srv, the server of a sandbox whose Registry g was made by
// NewSavedRegistry, as OpenState does: its state is kept in file (JSON, readable by the owner
// only), read back when it exists, and it starts on the address it had before (a free
// loopback port the first time). Every change is written to the file. An address another
// process took since is an error: the channels connected to the sandbox keep its URL.
func OpenSaved[S Seller](srv *Server, g *Registry[S], file string) error {
	return OpenState(srv, g, file, func(st *Saved[S]) string {
		g.Restore(st.Sellers, st.Tokens)
		return st.Addr
	})
}

// OpenGeneric returns a started generic marketplace whose state is kept in file (OpenSaved):
// its sellers, their orders, listings and trackings, and the access tokens it gave.
func OpenGeneric(file string) (*Generic, error) {
	g := newGeneric()
	if err := OpenSaved(g.Server, g.Registry, file); err != nil {
		return nil, err
	}
	return g, nil
}
