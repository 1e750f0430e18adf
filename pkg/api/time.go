package api

import (
	"strings"
	"time"
)

// timeLayouts are the ISO 8601 shapes accepted on input, most common first.
var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04:05",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02",
}

// ParseTime parses an ISO 8601 time with any offset; a time without an
// offset and a date alone are UTC (a date alone is midnight). The result is
// UTC, truncated to the whole second as stored.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC().Truncate(time.Second)
			// Only years RFC 3339 can write back (an offset can move 0001 or
			// 9999 out of range).
			return t, t.Year() >= 1 && t.Year() <= 9999
		}
	}
	return time.Time{}, false
}

// FormatTime is the output form of every time: RFC 3339 UTC with Z, whole
// seconds.
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

// TimeFilter is an inclusive time range from query parameters; a nil bound
// is open.
type TimeFilter struct {
	Min, Max *time.Time
}

// Active reports whether either bound is set.
func (f TimeFilter) Active() bool { return f.Min != nil || f.Max != nil }

// Contains reports whether t lies within the range.
func (f TimeFilter) Contains(t time.Time) bool {
	return (f.Min == nil || !t.Before(*f.Min)) && (f.Max == nil || !t.After(*f.Max))
}

// ParseTimeFilter reads an inclusive range from the first present name of
// mins and of maxs (for example "min_ordered_at" or "ordered_at_min"); an
// unparseable value is 422 naming the parameter.
func ParseTimeFilter(r *Request, mins, maxs []string) (TimeFilter, error) {
	var f TimeFilter
	for _, b := range []struct {
		names []string
		dst   **time.Time
	}{{mins, &f.Min}, {maxs, &f.Max}} {
		for _, n := range b.names {
			if !r.HasQuery(n) {
				continue
			}
			t, ok := ParseTime(r.Query(n))
			if !ok {
				return f, Invalid("%s must be an ISO 8601 date-time", n)
			}
			*b.dst = &t
			break
		}
	}
	return f, nil
}
