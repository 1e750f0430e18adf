package listings

import (
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
)

func TestSyncLag(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 12, 0, 10, 0, time.UTC)
	record := func(at time.Time) events.DynamoDBEventRecord {
		return events.DynamoDBEventRecord{Change: events.DynamoDBStreamRecord{ApproximateCreationDateTime: events.SecondsEpochTime{Time: at}}}
	}
	cases := []struct {
		name    string
		records []events.DynamoDBEventRecord
		want    time.Duration
		ok      bool
	}{
		{"no records", nil, 0, false},
		{"the oldest counts", []events.DynamoDBEventRecord{record(now.Add(-2 * time.Second)), record(now.Add(-7 * time.Second))}, 7 * time.Second, true},
		{"a clock ahead is no lag", []events.DynamoDBEventRecord{record(now.Add(time.Second))}, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, ok := syncLag(events.DynamoDBEvent{Records: c.records}, now)
			if got != c.want || ok != c.ok {
				t.Errorf("syncLag = %v, %v; want %v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}
