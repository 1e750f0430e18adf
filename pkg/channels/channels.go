// Package channels holds the merchant's sales channels (marketplaces and
// storefronts): GET /channels, and creation for the CLI and the demo data.
package channels

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// Channel states.
const (
	StateActive       = "active"
	StateInactive     = "inactive"
	StateDisconnected = "disconnected"
)

// ErrNotFound is returned for an unknown channel.
var ErrNotFound = errors.New("channel not found")

// Channel is a sales channel as stored and as returned (spec 2.5).
type Channel struct {
	UUID                   string  `json:"uuid" dynamodbav:"uuid"`
	Name                   string  `json:"name" dynamodbav:"name"`
	State                  string  `json:"state" dynamodbav:"state"`
	ChannelTypeDisplayName string  `json:"channel_type_display_name" dynamodbav:"channel_type_display_name"`
	CreatedAt              string  `json:"created_at" dynamodbav:"created_at"`
	SiteID                 *string `json:"site_id" dynamodbav:"site_id"`
	ChannelSiteRegion      *string `json:"channel_site_region" dynamodbav:"channel_site_region"`
}

// Input creates a channel; State defaults to active.
type Input struct {
	Name, Type, State string
	SiteID, Region    string
}

// Service is the channels domain: every operation on an account's channels.
type Service struct{ Table store.Table }

// pk is the partition of an account's channels, sorted by creation.
func pk(account string) string { return store.PK(account, "CH") }

// Create stores a new channel of the account.
func (s Service) Create(ctx context.Context, account string, in Input) (Channel, error) {
	if in.Name == "" || in.Type == "" {
		return Channel{}, errors.New("channel name and type are required")
	}
	if in.State == "" {
		in.State = StateActive
	}
	switch in.State {
	case StateActive, StateInactive, StateDisconnected:
	default:
		return Channel{}, fmt.Errorf("channel state %q is not active, inactive or disconnected", in.State)
	}
	c := Channel{
		UUID: store.NewID(), Name: in.Name, State: in.State, ChannelTypeDisplayName: in.Type,
		CreatedAt: isotime.Format(time.Now()), SiteID: optional(in.SiteID), ChannelSiteRegion: optional(in.Region),
	}
	item, err := attributevalue.MarshalMap(c)
	if err != nil {
		return Channel{}, fmt.Errorf("marshal channel: %w", err)
	}
	for k, v := range store.Key(pk(account), c.UUID) {
		item[k] = v
	}
	if _, err := s.Table.DB.PutItem(ctx, &dynamodb.PutItemInput{TableName: s.Table.TableName(), Item: item}); err != nil {
		return Channel{}, fmt.Errorf("put channel: %w", err)
	}
	return c, nil
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Get reads one channel of the account.
func (s Service) Get(ctx context.Context, account, uuid string) (Channel, error) {
	if !store.ValidID(uuid) {
		return Channel{}, ErrNotFound
	}
	out, err := s.Table.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: s.Table.TableName(), Key: store.Key(pk(account), uuid)})
	if err != nil {
		return Channel{}, fmt.Errorf("get channel: %w", err)
	}
	if out.Item == nil {
		return Channel{}, ErrNotFound
	}
	var c Channel
	if err := attributevalue.UnmarshalMap(out.Item, &c); err != nil {
		return Channel{}, fmt.Errorf("unmarshal channel: %w", err)
	}
	return c, nil
}

// List returns every channel of the account in creation order: one Query.
func (s Service) List(ctx context.Context, account string) ([]Channel, error) {
	items, err := s.Table.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, err
	}
	out := make([]Channel, 0, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal channels: %w", err)
	}
	return out, nil
}
