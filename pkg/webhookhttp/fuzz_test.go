package webhookhttp

import (
	"net/url"
	"testing"
)

// FuzzCheckURL: CheckURL never panics, and a URL it accepts, in either mode, parses as
// an http or https URL with a host, at most MaxURLLength characters long, without a user
// or a fragment; the AWS mode accepts https only.
func FuzzCheckURL(f *testing.F) {
	for _, seed := range []string{
		"https://hooks.example.com/in?x=1", "http://127.0.0.1:9000/", "http://localhost/",
		"https://[::ffff:10.0.0.1]/", "https://[fe80::1%25eth0]/", "https://user@h/", "https:h",
		"https://h/#f", "https://2130706433/", "ftp://h/", "", "https://%31%32%37.0.0.1/",
		"https://h:0/", "https://exämple.com/", "HTTP://LOCALHOST./",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, p := range []Policy{{}, {Local: true}} {
			if p.CheckURL(raw) != nil {
				continue
			}
			u, err := url.Parse(raw)
			if err != nil {
				t.Fatalf("%+v accepted %q, which does not parse: %v", p, raw, err)
			}
			if u.Scheme != "https" && (u.Scheme != "http" || !p.Local) {
				t.Fatalf("%+v accepted %q, scheme %q", p, raw, u.Scheme)
			}
			if u.Hostname() == "" || u.User != nil || u.Fragment != "" || len(raw) > MaxURLLength {
				t.Fatalf("%+v accepted %q: host %q, user %v, fragment %q, %d characters", p, raw, u.Hostname(), u.User, u.Fragment, len(raw))
			}
		}
	})
}
