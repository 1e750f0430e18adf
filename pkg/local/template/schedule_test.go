package template

import (
	"testing"
	"time"
)

func TestParseScheduleEvent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		props   map[string]any
		want    ScheduleEvent
		wantErr bool
	}{
		{"minutes", map[string]any{"Schedule": "rate(5 minutes)"}, ScheduleEvent{Name: "E", Rate: 5 * time.Minute, Enabled: true}, false},
		{"one hour, disabled", map[string]any{"Schedule": "rate(1 hour)", "Enabled": false}, ScheduleEvent{Name: "E", Rate: time.Hour}, false},
		{"days", map[string]any{"Schedule": "rate(2 days)"}, ScheduleEvent{Name: "E", Rate: 48 * time.Hour, Enabled: true}, false},
		{"cron", map[string]any{"Schedule": "cron(0 12 * * ? *)"}, ScheduleEvent{}, true},
		{"zero", map[string]any{"Schedule": "rate(0 minutes)"}, ScheduleEvent{}, true},
		{"missing", map[string]any{}, ScheduleEvent{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseScheduleEvent("E", tt.props)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err == nil && got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}
