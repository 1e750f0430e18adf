package gateway

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/multisell/multisell/pkg/local/template"
)

// streamRecord is one stream record as the function will see it.
type streamRecord struct {
	seq     string
	created time.Time
	event   events.DynamoDBEventRecord
	// size is the record's JSON size in the event, for the invocation payload limit.
	size int
}

// lambdaRecord turns a record of the DynamoDB Streams API into the record Lambda hands to
// the function: the event source, region and stream ARN of the mapping, and the attribute
// values in the lambda events types.
func lambdaRecord(r streamtypes.Record, region, streamARN string) (*streamRecord, error) {
	d := r.Dynamodb
	if d == nil || d.SequenceNumber == nil {
		return nil, fmt.Errorf("stream record %s has no sequence number", aws.ToString(r.EventID))
	}
	rec := &streamRecord{seq: aws.ToString(d.SequenceNumber), created: aws.ToTime(d.ApproximateCreationDateTime)}
	if rec.created.IsZero() {
		rec.created = time.Now() // an emulator that does not tell; the record is read now
	}
	rec.event = events.DynamoDBEventRecord{
		AWSRegion:      region,
		EventID:        aws.ToString(r.EventID),
		EventName:      string(r.EventName),
		EventSource:    "aws:dynamodb",
		EventVersion:   aws.ToString(r.EventVersion),
		EventSourceArn: streamARN,
		Change: events.DynamoDBStreamRecord{
			ApproximateCreationDateTime: events.SecondsEpochTime{Time: rec.created},
			Keys:                        lambdaImage(d.Keys),
			NewImage:                    lambdaImage(d.NewImage),
			OldImage:                    lambdaImage(d.OldImage),
			SequenceNumber:              rec.seq,
			SizeBytes:                   aws.ToInt64(d.SizeBytes),
			StreamViewType:              string(d.StreamViewType),
		},
	}
	if rec.event.EventVersion == "" {
		rec.event.EventVersion = "1.1"
	}
	if u := r.UserIdentity; u != nil {
		rec.event.UserIdentity = &events.DynamoDBUserIdentity{Type: aws.ToString(u.Type), PrincipalID: aws.ToString(u.PrincipalId)}
	}
	b, err := json.Marshal(rec.event)
	if err != nil {
		return nil, fmt.Errorf("stream record %s: %w", rec.seq, err)
	}
	rec.size = len(b)
	return rec, nil
}

// matches reports whether the record passes the event source's filters.
func (r *streamRecord) matches(filters []*template.FilterPattern) (bool, error) {
	if len(filters) == 0 {
		return true, nil
	}
	b, err := json.Marshal(r.event)
	if err != nil {
		return false, err
	}
	v, err := template.DecodeFilterEvent(b)
	if err != nil {
		return false, err
	}
	return template.MatchAny(filters, v), nil
}

func lambdaImage(m map[string]streamtypes.AttributeValue) map[string]events.DynamoDBAttributeValue {
	if m == nil {
		return nil
	}
	out := make(map[string]events.DynamoDBAttributeValue, len(m))
	for k, v := range m {
		out[k] = lambdaValue(v)
	}
	return out
}

func lambdaValue(v streamtypes.AttributeValue) events.DynamoDBAttributeValue {
	switch x := v.(type) {
	case *streamtypes.AttributeValueMemberS:
		return events.NewStringAttribute(x.Value)
	case *streamtypes.AttributeValueMemberN:
		return events.NewNumberAttribute(x.Value)
	case *streamtypes.AttributeValueMemberB:
		return events.NewBinaryAttribute(x.Value)
	case *streamtypes.AttributeValueMemberBOOL:
		return events.NewBooleanAttribute(x.Value)
	case *streamtypes.AttributeValueMemberNULL:
		return events.NewNullAttribute()
	case *streamtypes.AttributeValueMemberSS:
		return events.NewStringSetAttribute(x.Value)
	case *streamtypes.AttributeValueMemberNS:
		return events.NewNumberSetAttribute(x.Value)
	case *streamtypes.AttributeValueMemberBS:
		return events.NewBinarySetAttribute(x.Value)
	case *streamtypes.AttributeValueMemberL:
		l := make([]events.DynamoDBAttributeValue, len(x.Value))
		for i, e := range x.Value {
			l[i] = lambdaValue(e)
		}
		return events.NewListAttribute(l)
	case *streamtypes.AttributeValueMemberM:
		return events.NewMapAttribute(lambdaImage(x.Value))
	}
	return events.NewNullAttribute()
}
