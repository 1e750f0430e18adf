// Package isotime is the one form of times in and out of multisell: input
// accepts ISO 8601 with any offset (a date alone is midnight UTC), output
// and storage are RFC 3339 UTC with Z, to the whole second, so a returned
// time used as an inclusive bound includes its own record.
package isotime

import (
	"strings"
	"time"
)

// layouts are the ISO 8601 shapes accepted on input, most common first.
var layouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02",
}

// Parse parses an ISO 8601 time with any offset; a time without an offset
// and a date alone are UTC (a date alone is midnight). The result is UTC,
// truncated to the whole second as stored.
func Parse(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range layouts {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC().Truncate(time.Second)
			// Only years RFC 3339 can write back (an offset can move 0001 or
			// 9999 out of range).
			return t, t.Year() >= 1 && t.Year() <= 9999
		}
	}
	return time.Time{}, false
}

// Format is the output form of every time: RFC 3339 UTC with Z, whole
// seconds.
func Format(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

// Range is an inclusive time range, as the min_* and max_* filters give
// it; a nil bound is open.
type Range struct {
	Min, Max *time.Time
}

// Active reports whether either bound is set.
func (r Range) Active() bool { return r.Min != nil || r.Max != nil }

// Contains reports whether t lies within the range.
func (r Range) Contains(t time.Time) bool {
	return (r.Min == nil || !t.Before(*r.Min)) && (r.Max == nil || !t.After(*r.Max))
}

// String is the range as "min..max", each bound as Format writes it and
// an open one empty.
func (r Range) String() string {
	bound := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return Format(*t)
	}
	return bound(r.Min) + ".." + bound(r.Max)
}
