package webhookhttp

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode"
)

// MaxURLLength bounds a destination URL, in bytes (characters, for the ASCII a URL is
// made of).
const MaxURLLength = 2048

// Policy is where deliveries may go. The zero value is the AWS rule: https only, to
// hosts none of whose addresses is private, loopback, link-local, unspecified, multicast,
// reserved or a cloud metadata address. Local is the local stack's rule: the same, plus
// loopback, and http to a loopback host.
type Policy struct {
	// Local allows loopback destinations (https to any, http only to a loopback host:
	// localhost, 127.0.0.0/8 or ::1).
	Local bool
	// Allow lists addresses accepted whatever the rules say: a test's server on
	// loopback, reached in the AWS mode. It is empty in production.
	Allow []netip.Prefix
}

// ErrInvalidURL is the sentinel every *URLError matches with errors.Is.
var ErrInvalidURL = errors.New("invalid webhook url")

// URLError is a destination URL the Policy refuses. Message is the text for the
// merchant's developer, naming the field ("url must be an https URL"); an API answers it
// as a 422 on the field url. Anything CheckURL returns is a *URLError.
type URLError struct {
	Message string
}

// Error implements the error interface: the Message.
func (e *URLError) Error() string { return e.Message }

// Is reports whether target is ErrInvalidURL.
func (e *URLError) Is(target error) bool { return target == ErrInvalidURL }

// urlError is a *URLError with the message.
func urlError(msg string) error { return &URLError{Message: msg} }

// refusedURL is the message of a URL whose literal address the Policy refuses.
const refusedURL = "url must not point to a private, loopback, link-local or metadata address"

// CheckURL holds raw to the form rules of a destination: an absolute http or https URL
// with a host, at most MaxURLLength characters, without spaces, a user name, a password
// or a fragment; https only (in the Local mode, http to a loopback host too); and a host
// that is an IP address or localhost is refused when its address is (the addresses of
// other names are checked when a delivery is sent). A refusal is a *URLError.
func (p Policy) CheckURL(raw string) error {
	if raw == "" {
		return urlError("url must not be empty")
	}
	if len(raw) > MaxURLLength {
		return urlError(fmt.Sprintf("url must be at most %d characters", MaxURLLength))
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return urlError("url must not contain spaces or control characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return urlError("url must be an absolute http or https URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		if p.Local {
			return urlError("url must be an http or https URL")
		}
		return urlError("url must be an https URL")
	}
	if u.Opaque != "" || u.Host == "" || u.Hostname() == "" {
		return urlError("url must be an absolute URL with a host")
	}
	if u.User != nil {
		return urlError("url must not contain a user name or password")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return urlError("url must not contain a fragment")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return urlError("url must have a port from 1 to 65535")
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return urlError("url must have a port from 1 to 65535")
	}
	host := u.Hostname()
	addrs, literal := hostAddrs(host)
	if !literal && numericHost(host) {
		return urlError("url host must be a domain name or an IP address in standard form")
	}
	if u.Scheme == "http" {
		if !p.Local {
			return urlError("url must be an https URL")
		}
		if !literal || !allLoopback(addrs) {
			return urlError("url must be an https URL unless its host is loopback (localhost, 127.0.0.1 or ::1)")
		}
	}
	for _, a := range addrs {
		if p.CheckAddr(a) != nil {
			return urlError(refusedURL)
		}
	}
	return nil
}

// hostAddrs returns the addresses a host stands for without DNS: an IP address
// (unmapped from IPv4-mapped IPv6) or localhost (and names under .localhost), which is
// loopback whatever a resolver says. literal is false for any other name.
func hostAddrs(host string) (addrs []netip.Addr, literal bool) {
	if a, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{a.Unmap()}, true
	}
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}, true
	}
	return nil, false
}

// numericHost reports whether host's last label is a number (decimal, octal or hex): no
// domain name ends so, but resolvers read such names ("2130706433", "127.1", "0x7f.1") as
// IPv4 addresses.
func numericHost(host string) bool {
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	last := strings.ToLower(labels[len(labels)-1])
	if last == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(last, "0x"); ok {
		last = rest
		return strings.Trim(last, "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// allLoopback reports whether every address is loopback.
func allLoopback(addrs []netip.Addr) bool {
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return false
		}
	}
	return len(addrs) > 0
}

// AddrError is an address the Policy refuses to deliver to, and why ("private
// address", "metadata address", ...).
type AddrError struct {
	Addr   netip.Addr
	Reason string
}

// Error implements the error interface: "destination 10.0.0.5 refused: private address".
func (e *AddrError) Error() string {
	return fmt.Sprintf("destination %s refused: %s", e.Addr, e.Reason)
}

// Cloud metadata services, refused by name before the ranges they sit in.
var metadata = []netip.Addr{
	netip.MustParseAddr("169.254.169.254"), // AWS, GCP, Azure, OpenStack, Oracle
	netip.MustParseAddr("169.254.170.2"),   // AWS ECS task metadata
	netip.MustParseAddr("169.254.170.23"),  // AWS EKS pod identity
	netip.MustParseAddr("fd00:ec2::254"),   // AWS IMDS over IPv6
	netip.MustParseAddr("fd00:ec2::23"),    // AWS EKS pod identity over IPv6
	netip.MustParseAddr("100.100.100.200"), // Alibaba Cloud
	netip.MustParseAddr("168.63.129.16"),   // Azure host services
	netip.MustParseAddr("192.0.0.192"),     // Oracle Cloud
}

// ranges are the refused prefixes beyond what netip's predicates name, with the reason.
var ranges = []struct {
	prefix netip.Prefix
	reason string
}{
	{netip.MustParsePrefix("0.0.0.0/8"), "unspecified address"},
	{netip.MustParsePrefix("100.64.0.0/10"), "private address"},  // carrier-grade NAT
	{netip.MustParsePrefix("192.0.0.0/24"), "reserved address"},  // IETF protocol assignments
	{netip.MustParsePrefix("198.18.0.0/15"), "reserved address"}, // benchmarking
	{netip.MustParsePrefix("240.0.0.0/4"), "reserved address"},   // reserved, broadcast
	{netip.MustParsePrefix("::/96"), "reserved address"},         // IPv4-compatible
	{netip.MustParsePrefix("64:ff9b:1::/48"), "private address"}, // local-use NAT64
	{netip.MustParsePrefix("100::/64"), "reserved address"},      // discard-only
	{netip.MustParsePrefix("fec0::/10"), "private address"},      // site-local
}

// IPv6 prefixes whose addresses reach an IPv4 address they embed: the well-known NAT64
// prefix (in the last four bytes) and 6to4 (in the four after the prefix).
var (
	nat64  = netip.MustParsePrefix("64:ff9b::/96")
	sixTo4 = netip.MustParsePrefix("2002::/16")
)

// CheckAddr is the address rule of every connection: nil if a delivery may connect to
// a, else an *AddrError. IPv4-mapped IPv6 is unmapped, and a NAT64 or 6to4 address is
// judged by the IPv4 address it embeds. Addresses in Allow pass; loopback passes in the Local
// mode.
func (p Policy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	for _, pre := range p.Allow {
		if pre.Contains(a) {
			return nil
		}
	}
	if !a.IsValid() {
		return &AddrError{Addr: a, Reason: "invalid address"}
	}
	if reason := refusal(a, p.Local); reason != "" {
		return &AddrError{Addr: a, Reason: reason}
	}
	return nil
}

// refusal is why a (unmapped, without a zone) is refused, or "".
func refusal(a netip.Addr, local bool) string {
	for _, m := range metadata {
		if a == m {
			return "metadata address"
		}
	}
	switch {
	case a.IsLoopback():
		if local {
			return ""
		}
		return "loopback address"
	case a.IsUnspecified():
		return "unspecified address"
	case a.IsLinkLocalUnicast():
		return "link-local address"
	case a.IsMulticast(), a.IsLinkLocalMulticast(), a.IsInterfaceLocalMulticast():
		return "multicast address"
	case a.IsPrivate():
		return "private address"
	}
	switch b := a.As16(); {
	case nat64.Contains(a):
		return refusal(netip.AddrFrom4([4]byte(b[12:])), false)
	case sixTo4.Contains(a):
		return refusal(netip.AddrFrom4([4]byte(b[2:6])), false)
	}
	for _, r := range ranges {
		if r.prefix.Contains(a) {
			return r.reason
		}
	}
	return ""
}
