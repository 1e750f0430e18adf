package webhookhttp

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func TestCheckAddr(t *testing.T) {
	t.Parallel()
	cases := []struct {
		addr  string
		aws   string // the AWS mode's reason; "" accepted
		local string // the Local mode's reason; "" accepted
	}{
		{"93.184.216.34", "", ""},
		{"8.8.8.8", "", ""},
		{"2606:4700:4700::1111", "", ""},
		{"203.0.113.10", "", ""},
		// RFC 1918, IPv6 ULA, carrier-grade NAT
		{"10.0.0.5", "private address", "private address"},
		{"172.16.0.1", "private address", "private address"},
		{"172.31.255.255", "private address", "private address"},
		{"192.168.1.1", "private address", "private address"},
		{"fc00::1", "private address", "private address"},
		{"fd12:3456::1", "private address", "private address"},
		{"100.64.0.1", "private address", "private address"},
		{"100.127.255.254", "private address", "private address"},
		{"fec0::1", "private address", "private address"},
		// loopback
		{"127.0.0.1", "loopback address", ""},
		{"127.255.0.9", "loopback address", ""},
		{"::1", "loopback address", ""},
		// link-local
		{"169.254.1.1", "link-local address", "link-local address"},
		{"fe80::1", "link-local address", "link-local address"},
		{"fe80::1%eth0", "link-local address", "link-local address"},
		// unspecified
		{"0.0.0.0", "unspecified address", "unspecified address"},
		{"0.1.2.3", "unspecified address", "unspecified address"},
		{"::", "unspecified address", "unspecified address"},
		// multicast
		{"224.0.0.1", "multicast address", "multicast address"},
		{"239.255.255.250", "multicast address", "multicast address"},
		{"ff02::1", "multicast address", "multicast address"},
		{"ff0e::1", "multicast address", "multicast address"},
		// metadata services
		{"169.254.169.254", "metadata address", "metadata address"},
		{"169.254.170.2", "metadata address", "metadata address"},
		{"fd00:ec2::254", "metadata address", "metadata address"},
		{"100.100.100.200", "metadata address", "metadata address"},
		{"168.63.129.16", "metadata address", "metadata address"},
		// reserved
		{"240.0.0.1", "reserved address", "reserved address"},
		{"255.255.255.255", "reserved address", "reserved address"},
		{"198.18.0.1", "reserved address", "reserved address"},
		// IPv4-mapped IPv6 is judged as IPv4
		{"::ffff:10.0.0.5", "private address", "private address"},
		{"::ffff:127.0.0.1", "loopback address", ""},
		{"::ffff:169.254.169.254", "metadata address", "metadata address"},
		{"::ffff:8.8.8.8", "", ""},
		// IPv6 addresses that reach an IPv4 address
		{"64:ff9b::a00:5", "private address", "private address"},
		{"64:ff9b::7f00:1", "loopback address", "loopback address"},
		{"64:ff9b::808:808", "", ""},
		{"2002:a9fe:a9fe::1", "metadata address", "metadata address"},
		{"2002:808:808::1", "", ""},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			t.Parallel()
			a := netip.MustParseAddr(c.addr)
			for _, mode := range []struct {
				name   string
				policy Policy
				want   string
			}{{"aws", Policy{}, c.aws}, {"local", Policy{Local: true}, c.local}} {
				err := mode.policy.CheckAddr(a)
				got := ""
				if err != nil {
					var ae *AddrError
					if !errors.As(err, &ae) {
						t.Fatalf("%s: CheckAddr = %T %v, want an *AddrError", mode.name, err, err)
					}
					got = ae.Reason
				}
				if got != mode.want {
					t.Errorf("%s: CheckAddr(%s) reason %q, want %q", mode.name, c.addr, got, mode.want)
				}
			}
		})
	}
}

func TestCheckAddrAllow(t *testing.T) {
	t.Parallel()
	p := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	cases := []struct {
		addr string
		want bool // accepted
	}{
		{"127.0.0.1", true},
		{"::ffff:127.0.0.1", true},
		{"127.0.0.2", false},
		{"10.0.0.1", false},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			t.Parallel()
			if got := p.CheckAddr(netip.MustParseAddr(c.addr)) == nil; got != c.want {
				t.Errorf("CheckAddr(%s) accepted = %v, want %v", c.addr, got, c.want)
			}
		})
	}
}

func TestAddrErrorMessage(t *testing.T) {
	t.Parallel()
	got := Policy{}.CheckAddr(netip.MustParseAddr("::ffff:10.0.0.5")).Error()
	if want := "destination 10.0.0.5 refused: private address"; got != want {
		t.Errorf("error %q, want %q", got, want)
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	const (
		https     = "url must be an https URL"
		refused   = "url must not point to a private, loopback, link-local or metadata address"
		loopHTTP  = "url must be an https URL unless its host is loopback (localhost, 127.0.0.1 or ::1)"
		noHost    = "url must be an absolute URL with a host"
		userinfo  = "url must not contain a user name or password"
		fragment  = "url must not contain a fragment"
		tooLong   = "url must be at most 2048 characters"
		spaces    = "url must not contain spaces or control characters"
		badPort   = "url must have a port from 1 to 65535"
		numeric   = "url host must be a domain name or an IP address in standard form"
		malformed = "url must be an absolute http or https URL"
	)
	long := "https://hooks.example.com/" + strings.Repeat("a", MaxURLLength-len("https://hooks.example.com/"))
	cases := []struct {
		name  string
		url   string
		aws   string // the AWS mode's message; "" accepted
		local string // the Local mode's message; "" accepted
	}{
		{"https", "https://hooks.example.com/multisell?x=1", "", ""},
		{"https with a port", "https://hooks.example.com:8443/in", "", ""},
		{"upper-case scheme", "HTTPS://hooks.example.com/", "", ""},
		{"public IPv4", "https://93.184.216.34/hook", "", ""},
		{"public IPv6", "https://[2606:4700:4700::1111]/hook", "", ""},
		{"2048 characters", long, "", ""},
		{"2049 characters", long + "a", tooLong, tooLong},
		{"empty", "", "url must not be empty", "url must not be empty"},
		{"http", "http://hooks.example.com/", https, loopHTTP},
		{"ftp", "ftp://hooks.example.com/", https, "url must be an http or https URL"},
		{"no scheme", "hooks.example.com/in", https, "url must be an http or https URL"},
		{"relative", "/in", https, "url must be an http or https URL"},
		{"opaque", "https:hooks.example.com", noHost, noHost},
		{"no host", "https:///in", noHost, noHost},
		{"port only", "https://:443/in", noHost, noHost},
		{"user and password", "https://user:pass@hooks.example.com/", userinfo, userinfo},
		{"user", "https://user@hooks.example.com/", userinfo, userinfo},
		{"fragment", "https://hooks.example.com/#top", fragment, fragment},
		{"empty fragment", "https://hooks.example.com/#", fragment, fragment},
		{"space", "https://hooks.example.com/a b", spaces, spaces},
		{"newline", "https://hooks.example.com/\n", spaces, spaces},
		{"port 0", "https://hooks.example.com:0/", badPort, badPort},
		{"port 65536", "https://hooks.example.com:65536/", badPort, badPort},
		{"empty port", "https://hooks.example.com:/", badPort, badPort},
		{"bad IPv6", "https://[::1/", malformed, malformed},
		{"decimal IPv4", "https://2130706433/", numeric, numeric},
		{"short IPv4", "https://127.1/", numeric, numeric},
		{"hex IPv4", "https://0x7f.0x1/", numeric, numeric},
		{"private IPv4", "https://10.0.0.5/", refused, refused},
		{"CGNAT", "https://100.64.1.1/", refused, refused},
		{"ULA", "https://[fd00::1]/", refused, refused},
		{"link-local", "https://169.254.10.10/", refused, refused},
		{"link-local IPv6 with a zone", "https://[fe80::1%25eth0]/", refused, refused},
		{"metadata", "https://169.254.169.254/latest/meta-data/", refused, refused},
		{"metadata IPv6", "https://[fd00:ec2::254]/", refused, refused},
		{"metadata mapped", "https://[::ffff:169.254.169.254]/", refused, refused},
		{"mapped private", "https://[::ffff:192.168.0.1]/", refused, refused},
		{"multicast", "https://224.0.0.1/", refused, refused},
		{"unspecified", "https://0.0.0.0/", refused, refused},
		{"https loopback", "https://127.0.0.1:8443/", refused, ""},
		{"https localhost", "https://localhost/", refused, ""},
		{"https LOCALHOST.", "https://LOCALHOST./", refused, ""},
		{"https under .localhost", "https://hooks.localhost/", refused, ""},
		{"http loopback", "http://127.0.0.1:9000/hook", https, ""},
		{"http loopback /8", "http://127.9.9.9:9000/hook", https, ""},
		{"http localhost", "http://localhost:9000/hook", https, ""},
		{"http ::1", "http://[::1]:9000/hook", https, ""},
		{"http mapped loopback", "http://[::ffff:127.0.0.1]:9000/", https, ""},
		{"http private", "http://10.0.0.5/", https, loopHTTP},
		{"http public", "http://93.184.216.34/", https, loopHTTP},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, mode := range []struct {
				name   string
				policy Policy
				want   string
			}{{"aws", Policy{}, c.aws}, {"local", Policy{Local: true}, c.local}} {
				err := mode.policy.CheckURL(c.url)
				got := ""
				if err != nil {
					got = err.Error()
					var ue *URLError
					if !errors.As(err, &ue) || !errors.Is(err, ErrInvalidURL) {
						t.Errorf("%s: CheckURL = %T, want a *URLError matching ErrInvalidURL", mode.name, err)
					}
				}
				if got != mode.want {
					t.Errorf("%s: CheckURL(%q) = %q, want %q", mode.name, c.url, got, mode.want)
				}
			}
		})
	}
}
