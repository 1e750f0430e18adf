package isotime

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tenUTC := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		in     string
		want   time.Time
		wantOK bool
	}{
		{"2024-03-01T10:00:00Z", tenUTC, true},
		{"2024-03-01T12:00:00+02:00", tenUTC, true},
		{"2024-03-01T10:00:00.900Z", tenUTC, true},
		{"2024-03-01T05:00:00-0500", tenUTC, true},
		{"2024-03-01T10:00:00", tenUTC, true},
		{"2024-03-01 10:00:00", tenUTC, true},
		{"2024-03-01", time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), true},
		{"", time.Time{}, false},
		{"yesterday", time.Time{}, false},
		{"2024-13-01", time.Time{}, false},
		{"2024-03-01T25:00:00Z", time.Time{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, ok := Parse(tt.in)
			if ok != tt.wantOK || (ok && !got.Equal(tt.want)) {
				t.Errorf("Parse(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestFormat(t *testing.T) {
	t.Parallel()
	got := Format(time.Date(2024, 3, 1, 12, 0, 0, 5e8, time.FixedZone("x", 7200)))
	if want := "2024-03-01T10:00:00Z"; got != want {
		t.Errorf("Format = %q, want %q", got, want)
	}
}

func TestRangeContains(t *testing.T) {
	t.Parallel()
	lo, _ := Parse("2024-01-01")
	hi, _ := Parse("2024-01-31T23:59:59Z")
	r := Range{Min: &lo, Max: &hi}
	tests := []struct {
		at   string
		want bool
	}{
		{"2024-01-01T00:00:00Z", true},
		{"2024-01-31T23:59:59Z", true},
		{"2023-12-31T23:59:59Z", false},
		{"2024-02-01T00:00:00Z", false},
	}
	for _, tt := range tests {
		t.Run(tt.at, func(t *testing.T) {
			t.Parallel()
			at, _ := Parse(tt.at)
			if got := r.Contains(at); got != tt.want {
				t.Errorf("Contains(%s) = %v, want %v", tt.at, got, tt.want)
			}
		})
	}
	if !r.Active() || (Range{}).Active() {
		t.Error("Active disagrees with the bounds")
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2024-03-01", "2024-03-01T10:00:00Z", "2024-03-01T10:00:00+05:30", "", "9999-99-99", "2024-03-01T10:00:00.123456789-07:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := Parse(s)
		if !ok {
			return
		}
		// What is accepted formats to the stored form and parses back to itself.
		out := Format(tm)
		back, ok := Parse(out)
		if !ok || !back.Equal(tm) || tm.Location() != time.UTC || tm.Nanosecond() != 0 {
			t.Fatalf("Parse(%q) = %v, formatted %q, back %v %v", s, tm, out, back, ok)
		}
	})
}
