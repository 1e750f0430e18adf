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

// savedSandbox is a sandbox whose Registry was made by NewSavedRegistry: a type that embeds
// its *Server and its *Registry[S].
type savedSandbox[S Seller] interface {
	server() *Server
	registry() *Registry[S]
}

// server is the Server a sandbox embeds.
func (s *Server) server() *Server { return s }

// registry is the Registry a sandbox embeds.
func (g *Registry[S]) registry() *Registry[S] { return g }

// OpenSaved returns the sandbox newSandbox makes, started as OpenState starts it: its state
// is kept in file (JSON, readable by the owner only), read back when it exists, and it
// starts on the address it had before (a free loopback port the first time). Every change is
// written to the file. An address another process took since is an error: the channels
// connected to the sandbox keep its URL.
func OpenSaved[T savedSandbox[S], S Seller](file string, newSandbox func() T) (T, error) {
	sb := newSandbox()
	g := sb.registry()
	err := OpenState(sb.server(), g, file, func(st *Saved[S]) string {
		g.Restore(st.Sellers, st.Tokens)
		return st.Addr
	})
	if err != nil {
		var none T
		return none, err
	}
	return sb, nil
}

// OpenGeneric returns a started generic marketplace whose state is kept in file (OpenSaved):
// its sellers, their orders, listings and trackings, and the access tokens it gave.
func OpenGeneric(file string) (*Generic, error) { return OpenSaved(file, newGeneric) }
