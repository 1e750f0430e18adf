package template

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// ratePattern is a rate expression: rate(1 minute), rate(5 minutes), rate(2 hours), rate(1 day).
var ratePattern = regexp.MustCompile(`^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$`)

// rateUnits are the durations of a rate expression's units.
var rateUnits = map[string]time.Duration{
	"minute": time.Minute, "minutes": time.Minute, "hour": time.Hour, "hours": time.Hour, "day": 24 * time.Hour, "days": 24 * time.Hour,
}

// parseScheduleEvent reads a Schedule event's properties: Schedule (a rate expression) and
// Enabled (default true).
func parseScheduleEvent(name string, p map[string]any) (ScheduleEvent, error) {
	e := ScheduleEvent{Name: name, Enabled: true}
	if v, ok := p["Enabled"].(bool); ok {
		e.Enabled = v
	}
	expr := asString(p["Schedule"])
	m := ratePattern.FindStringSubmatch(expr)
	if m == nil {
		return e, fmt.Errorf("property Schedule %q: only rate(N minutes|hours|days) is supported", expr)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n < 1 {
		return e, fmt.Errorf("property Schedule %q: the rate must be a positive number", expr)
	}
	e.Rate = time.Duration(n) * rateUnits[m[2]]
	return e, nil
}
