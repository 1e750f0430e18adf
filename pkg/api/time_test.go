package api

import (
	"testing"
	"time"
)

func TestParseTime(t *testing.T) {
	t.Parallel()
	want := time.Date(2024, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, s := range []string{
		"2024-03-01T10:00:00Z", "2024-03-01T12:00:00+02:00", "2024-03-01T10:00:00.900Z",
		"2024-03-01T05:00:00-0500", "2024-03-01T10:00:00", "2024-03-01 10:00:00",
	} {
		got, ok := ParseTime(s)
		if !ok || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	if got, ok := ParseTime("2024-03-01"); !ok || !got.Equal(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("date alone = %v, %v", got, ok)
	}
	for _, s := range []string{"", "yesterday", "2024-13-01", "2024-03-01T25:00:00Z"} {
		if _, ok := ParseTime(s); ok {
			t.Errorf("ParseTime(%q) accepted", s)
		}
	}
	if got := FormatTime(time.Date(2024, 3, 1, 12, 0, 0, 5e8, time.FixedZone("x", 7200))); got != "2024-03-01T10:00:00Z" {
		t.Errorf("FormatTime = %q", got)
	}
}

func TestTimeFilter(t *testing.T) {
	t.Parallel()
	r := request(map[string][]string{"min_ordered_at": {"2024-01-01"}, "ordered_at_max": {"2024-01-31T23:59:59Z"}})
	f, err := ParseTimeFilter(r, []string{"min_ordered_at", "ordered_at_min"}, []string{"max_ordered_at", "ordered_at_max"})
	if err != nil || !f.Active() {
		t.Fatalf("ParseTimeFilter = %+v, %v", f, err)
	}
	in := []string{"2024-01-01T00:00:00Z", "2024-01-31T23:59:59Z"}
	out := []string{"2023-12-31T23:59:59Z", "2024-02-01T00:00:00Z"}
	for _, s := range in {
		if tm, _ := ParseTime(s); !f.Contains(tm) {
			t.Errorf("%s should be inside (inclusive)", s)
		}
	}
	for _, s := range out {
		if tm, _ := ParseTime(s); f.Contains(tm) {
			t.Errorf("%s should be outside", s)
		}
	}
	bad := request(map[string][]string{"max_ordered_at": {"soon"}})
	if _, err := ParseTimeFilter(bad, nil, []string{"max_ordered_at"}); status(err) != 422 {
		t.Errorf("bad time err = %v", err)
	}
}

func TestValidSKU(t *testing.T) {
	t.Parallel()
	long := make([]rune, MaxSKULength)
	for i := range long {
		long[i] = 'é'
	}
	for s, want := range map[string]bool{
		"ABC-1": true, "A/B C+#?": true, "ü": true, string(long): true,
		"": false, "a\nb": false, "a\x00": false, "a\x7f": false, string(long) + "x": false, "\xff": false,
	} {
		if got := ValidSKU(s); got != want {
			t.Errorf("ValidSKU(%q) = %v, want %v", s, got, want)
		}
	}
}

func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2024-03-01", "2024-03-01T10:00:00Z", "2024-03-01T10:00:00+05:30", "", "9999-99-99", "2024-03-01T10:00:00.123456789-07:00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, ok := ParseTime(s)
		if !ok {
			return
		}
		// What is accepted formats to the stored form and parses back to itself.
		out := FormatTime(tm)
		back, ok := ParseTime(out)
		if !ok || !back.Equal(tm) || tm.Location() != time.UTC || tm.Nanosecond() != 0 {
			t.Fatalf("ParseTime(%q) = %v, formatted %q, back %v %v", s, tm, out, back, ok)
		}
	})
}
