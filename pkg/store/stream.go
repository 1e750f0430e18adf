package store

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Change is one record of the table's stream (NEW_AND_OLD_IMAGES): an item
// written, updated or deleted. The domain that owns an item kind decodes
// its images (in its own storage file), so no other package needs to know
// an item's layout.
type Change struct {
	// Seq is the record's sequence number: the ItemIdentifier a stream
	// consumer reports for a partial batch failure.
	Seq string
	// Account and Kind are the two halves of the partition key
	// (<account>#<kind>); SK is the sort key.
	Account, Kind, SK string
	// Old and New are the item before and after; an insert has no Old, a
	// removal no New.
	Old, New Image
}

// Image is an item as a stream record carries it; the zero Image is an
// absent item.
type Image struct {
	item map[string]types.AttributeValue
}

// Exists reports whether the image holds an item.
func (i Image) Exists() bool { return len(i.item) > 0 }

// Decode unmarshals the image into v (a struct with dynamodbav tags).
func (i Image) Decode(v any) error {
	if err := attributevalue.UnmarshalMap(i.item, v); err != nil {
		return fmt.Errorf("decode stream image into %T: %w", v, err)
	}
	return nil
}

// Text returns the string attribute name ("" when absent or not a string).
func (i Image) Text(name string) string {
	if s, ok := i.item[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

// Same reports whether the attribute name is equal in both images (both
// absent counts as equal).
func Same(a, b Image, name string) bool {
	x, y := a.item[name], b.item[name]
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	var vx, vy any
	if attributevalue.Unmarshal(x, &vx) != nil || attributevalue.Unmarshal(y, &vy) != nil {
		return false
	}
	return fmt.Sprint(vx) == fmt.Sprint(vy)
}

// Changes converts the records of a stream event, in order. A record whose
// partition key is not <account>#<kind> is an error: the table holds no
// such item.
func Changes(records []events.DynamoDBEventRecord) ([]Change, error) {
	out := make([]Change, 0, len(records))
	for _, r := range records {
		keys, err := fromStream(r.Change.Keys)
		if err != nil {
			return nil, err
		}
		pk, _ := keys["PK"].(*types.AttributeValueMemberS)
		sk, _ := keys["SK"].(*types.AttributeValueMemberS)
		if pk == nil || sk == nil {
			return nil, fmt.Errorf("stream record %s: no PK/SK", r.Change.SequenceNumber)
		}
		account, kind, ok := strings.Cut(pk.Value, "#")
		if !ok {
			return nil, fmt.Errorf("stream record %s: partition %q has no kind", r.Change.SequenceNumber, pk.Value)
		}
		old, err := fromStream(r.Change.OldImage)
		if err != nil {
			return nil, err
		}
		nw, err := fromStream(r.Change.NewImage)
		if err != nil {
			return nil, err
		}
		out = append(out, Change{Seq: r.Change.SequenceNumber, Account: account, Kind: kind, SK: sk.Value, Old: Image{old}, New: Image{nw}})
	}
	return out, nil
}

// fromStream converts a stream record's attribute map (the Lambda event's
// type) to the SDK's.
func fromStream(m map[string]events.DynamoDBAttributeValue) (map[string]types.AttributeValue, error) {
	if m == nil {
		return nil, nil
	}
	out := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		a, err := fromStreamValue(v)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		out[k] = a
	}
	return out, nil
}

func fromStreamValue(v events.DynamoDBAttributeValue) (types.AttributeValue, error) {
	switch v.DataType() {
	case events.DataTypeString:
		return &types.AttributeValueMemberS{Value: v.String()}, nil
	case events.DataTypeNumber:
		return &types.AttributeValueMemberN{Value: v.Number()}, nil
	case events.DataTypeBinary:
		return &types.AttributeValueMemberB{Value: v.Binary()}, nil
	case events.DataTypeBoolean:
		return &types.AttributeValueMemberBOOL{Value: v.Boolean()}, nil
	case events.DataTypeNull:
		return &types.AttributeValueMemberNULL{Value: true}, nil
	case events.DataTypeStringSet:
		return &types.AttributeValueMemberSS{Value: v.StringSet()}, nil
	case events.DataTypeNumberSet:
		return &types.AttributeValueMemberNS{Value: v.NumberSet()}, nil
	case events.DataTypeBinarySet:
		return &types.AttributeValueMemberBS{Value: v.BinarySet()}, nil
	case events.DataTypeList:
		l := v.List()
		out := make([]types.AttributeValue, len(l))
		for i, e := range l {
			a, err := fromStreamValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = a
		}
		return &types.AttributeValueMemberL{Value: out}, nil
	case events.DataTypeMap:
		m, err := fromStream(v.Map())
		if err != nil {
			return nil, err
		}
		return &types.AttributeValueMemberM{Value: m}, nil
	}
	return nil, fmt.Errorf("unknown attribute type %v", v.DataType())
}

// ImageOf wraps an item read from the table, so that stored items and
// stream images decode the same way.
func ImageOf(item map[string]types.AttributeValue) Image { return Image{item} }

// Has reports whether the image holds the attribute name.
func (i Image) Has(name string) bool { return i.item[name] != nil }

// Int returns the number attribute name as an integer (0 when absent or
// not an integer).
func (i Image) Int(name string) int64 {
	if n, ok := i.item[name].(*types.AttributeValueMemberN); ok {
		v, _ := strconv.ParseInt(n.Value, 10, 64)
		return v
	}
	return 0
}
