package logctx

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
)

func TestWithFrom(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&buf, nil)).With("request_id", "r-1")
	From(With(context.Background(), log)).Info("hello")
	if got, want := buf.String(), `"request_id":"r-1"`; !strings.Contains(got, want) {
		t.Errorf("logged %s, want it to contain %s", got, want)
	}
	if got := From(context.Background()); got != slog.Default() {
		t.Errorf("From(empty) = %v, want slog.Default()", got)
	}
}

// TestMetric: a metric line is a CloudWatch embedded metric: the value under
// its name, declared with its unit in the multisell namespace.
func TestMetric(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	ctx := With(context.Background(), slog.New(slog.NewJSONHandler(&buf, nil)))
	Metric(ctx, "SyncLag", "Milliseconds", 250, "records", 3)
	var line struct {
		AWS struct {
			CloudWatchMetrics []struct {
				Namespace string
				Metrics   []struct{ Name, Unit string }
			}
		} `json:"_aws"`
		SyncLag float64
		Records int `json:"records"`
	}
	if err := json.Unmarshal(buf.Bytes(), &line); err != nil {
		t.Fatal(err)
	}
	m := line.AWS.CloudWatchMetrics
	if len(m) != 1 || m[0].Namespace != "multisell" || len(m[0].Metrics) != 1 || m[0].Metrics[0] != (struct{ Name, Unit string }{"SyncLag", "Milliseconds"}) ||
		line.SyncLag != 250 || line.Records != 3 {
		t.Errorf("logged %s", buf.String())
	}
}
