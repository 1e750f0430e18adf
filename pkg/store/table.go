package store

import (
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Table is the one DynamoDB table: a metered client and the table's name.
type Table struct {
	DB   *dynamodb.Client
	Name string
}

// TableName is the table's name as the SDK inputs want it.
func (t Table) TableName() *string { return aws.String(t.Name) }

// Attribute names of the table's keys and indexes.
const (
	AttrPK     = "PK"
	AttrSK     = "SK"
	AttrGSI1PK = "GSI1PK"
	AttrGSI1SK = "GSI1SK"
	AttrGSI2PK = "GSI2PK"
	AttrGSI2SK = "GSI2SK"
	AttrTTL    = "ttl"
	GSI1       = "GSI1"
	GSI2       = "GSI2"
)

// Sep separates user-supplied parts (SKUs, ids) inside a key. It is a
// control character, which no SKU may contain, and it sorts before every
// printable character, so "A"+Sep+x sorts before "AB": keys keep the order
// of their first part.
const Sep = "\x1f"

// PK is the partition key of an account's items of one kind: it always
// starts with the account id, so no key of one account can name another's.
func PK(account, kind string) string { return account + "#" + kind }

// Join joins key parts with Sep.
func Join(parts ...string) string { return strings.Join(parts, Sep) }

// S is a string attribute value.
func S(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// N is a number attribute value of an integer.
func N(v int64) types.AttributeValue {
	return &types.AttributeValueMemberN{Value: strconv.FormatInt(v, 10)}
}

// Key is the primary key {PK, SK}.
func Key(pk, sk string) map[string]types.AttributeValue {
	return map[string]types.AttributeValue{AttrPK: S(pk), AttrSK: S(sk)}
}
