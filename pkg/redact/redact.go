// Package redact cleans what a channel answered before anything of it is stored, logged or
// published: every path that records a channel's words (a connection's last_error, the
// channel.disconnected event, the logs, a connect's 422) passes them through Text. The rules
// are in docs/connectors.md ("What a channel answers").
package redact

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mark replaces what Text takes out.
const Mark = "[redacted]"

// MaxText bounds, in characters, what Text returns.
const MaxText = 500

// minSecret is the shortest known secret value Text looks for: a shorter one (a region, a
// flag) would take out ordinary words and tell little anyway.
const minSecret = 4

// minTail is the shortest start of a known secret that cutTail takes out: a shorter one is
// as likely a word of the text ("revoked" ending a message, a secret starting with it).
const minTail = 8

// hold stands for Mark while the shapes run, so that a value already taken out is not taken
// out again (a shape's value class excludes it).
const hold = "\x00"

// shapes are what looks like a secret whatever its value: an Authorization header, a bearer
// or basic value, and a pair of a secret's name and its value: name=value, "name":"value",
// or name:value as Go prints a header map (name: followed by a space is prose, "token:
// the ...", and left).
var shapes = []struct {
	re  *regexp.Regexp
	out string
}{
	{regexp.MustCompile(`(?i)((?:proxy-)?authorization"?\s*[:=]\s*\[?"?)[^"\r\n\]}\x00]+`), "${1}" + hold},
	{regexp.MustCompile(`(?i)\b(bearer|basic)(\s+|%20|\+)[A-Za-z0-9\-._~+/=%]+`), "${1}${2}" + hold},
	{regexp.MustCompile(`(?i)\b((?:client_secret|refresh_token|access_token|access-token|id_token|password|passwd|api_key|api-key|apikey|x-api-key|secret|token|assertion|private_key)(?:"\s*:\s*\[?"?|=|:\[?"?))[^"&\s,;}\]\x00]+`), "${1}" + hold},
}

// Text returns s with every value of secrets (the channel's credential values and tokens, as
// they are, JSON-quoted or URL-escaped) and everything shaped like a secret replaced by Mark,
// clipped to MaxText characters. A secret that ends s cut short is taken out too.
func Text(s string, secrets ...string) string {
	known := make([]string, 0, len(secrets))
	for _, v := range secrets {
		if len(v) >= minSecret {
			known = append(known, v)
		}
	}
	// The longest first, so a secret holding another is taken out whole.
	slices.SortFunc(known, func(a, b string) int { return len(b) - len(a) })
	s = strings.ReplaceAll(s, hold, "")
	for _, v := range known {
		for _, form := range forms(v) {
			s = strings.ReplaceAll(s, form, hold)
		}
	}
	for _, sh := range shapes {
		s = sh.re.ReplaceAllString(s, sh.out)
	}
	s = strings.ReplaceAll(cutTail(s, known), hold, Mark)
	return Clip(s, MaxText)
}

// forms are the spellings of v an echo may carry.
func forms(v string) []string {
	out := []string{v}
	q := strconv.Quote(v)
	for _, f := range []string{q[1 : len(q)-1], url.QueryEscape(v), url.PathEscape(v)} {
		if f != v && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// cutTail takes out the start of a known secret that ends s, as an answer clipped by the
// connector leaves it.
func cutTail(s string, known []string) string {
	for _, v := range known {
		for n := len(v) - 1; n >= minTail; n-- {
			if strings.HasSuffix(s, v[:n]) {
				return s[:len(s)-n] + Mark
			}
		}
	}
	return s
}

// Clip shortens s to at most n characters, "..." marking the cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "..."
}

// Secrets are the string values of a JSON object of credentials, at any depth: the values
// Text takes out of what the channel of these credentials answers. Anything else reads as
// none.
func Secrets(v any) []string {
	var out []string
	switch v := v.(type) {
	case string:
		out = append(out, v)
	case map[string]any:
		for _, e := range v {
			out = append(out, Secrets(e)...)
		}
	case []any:
		for _, e := range v {
			out = append(out, Secrets(e)...)
		}
	}
	return out
}
