package webhookhttp

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// Transport returns an http.Transport that connects only where p allows, for every call
// multisell makes to a URL a merchant gave (webhook endpoints, channel endpoints): a host's
// addresses are found with res (nil: the system's resolver; localhost and IP addresses
// without DNS), the host is refused if p refuses any of them, and the address being
// connected to is checked once more as the socket connects, so a name that resolves to a
// private or metadata address (or changes to one) is never reached. TLS then verifies the
// URL's host name, not the address. No proxy is used. timeout bounds the connection and the
// TLS handshake; rootCAs (nil: the system's) are the authorities trusted for https.
func (p Policy) Transport(res Resolver, rootCAs *x509.CertPool, timeout time.Duration) *http.Transport {
	g := guard{policy: p, resolver: res}
	if g.resolver == nil {
		g.resolver = net.DefaultResolver
	}
	dialer := &net.Dialer{
		Timeout: timeout,
		// The last word before a connection: the address being connected to is one the
		// Policy accepts (dial only ever gets such addresses).
		Control: func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("connect to %q: not an address", address)
			}
			return p.CheckAddr(ap.Addr())
		},
	}
	return &http.Transport{
		Proxy: nil, // never a proxy from the environment
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return g.dial(ctx, dialer, network, addr)
		},
		TLSClientConfig:     &tls.Config{RootCAs: rootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: timeout,
		MaxIdleConns:        100,
		IdleConnTimeout:     30 * time.Second,
	}
}

// guard is the Policy and the resolver of a Transport.
type guard struct {
	policy   Policy
	resolver Resolver
}

// dial connects to addr ("host:port") for the transport: it finds the host's addresses,
// refuses the host if the Policy refuses any of them, and connects to the checked
// addresses in turn.
func (g guard) dial(ctx context.Context, d *net.Dialer, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dial %q: %w", addr, err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("dial %q: bad port: %w", addr, err)
	}
	addrs, literal := hostAddrs(host)
	if !literal {
		found, err := g.resolver.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, &lookupError{host: host, err: err}
		}
		if len(found) == 0 {
			return nil, &lookupError{host: host, err: errors.New("no address")}
		}
		addrs = found
	}
	checked := make([]netip.AddrPort, 0, len(addrs))
	for _, a := range addrs {
		a = a.Unmap().WithZone("")
		if err := g.policy.CheckAddr(a); err != nil {
			return nil, err
		}
		checked = append(checked, netip.AddrPortFrom(a, uint16(port)))
	}
	var errs []error
	for _, ap := range checked {
		conn, err := d.DialContext(ctx, network, ap.String())
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// lookupError is a host whose addresses could not be found.
type lookupError struct {
	host string
	err  error
}

func (e *lookupError) Error() string { return fmt.Sprintf("dns lookup of %s: %v", e.host, e.err) }
func (e *lookupError) Unwrap() error { return e.err }
