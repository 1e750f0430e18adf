// Package warehouses holds the merchant's warehouses: GET, POST and PUT
// /warehouses, and the lookups other domains make (a warehouse by uuid, all
// warehouses in allocation priority order).
package warehouses

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// InventoryMaster values: the service keeps the stock of its own warehouses;
// a marketplace keeps the stock of the warehouses it fulfils from.
const (
	MasterMultisell   = "multisell"
	MasterMarketplace = "marketplace"
)

// ErrNotFound is returned for an unknown warehouse.
var ErrNotFound = errors.New("warehouse not found")

// NotFoundMessage is the API error message for an unknown warehouse.
const NotFoundMessage = "Warehouse not found"

// Warehouse is a warehouse as stored and returned (spec 2.6 plus the written
// fields, priority and archived).
type Warehouse struct {
	UUID                   string  `json:"uuid" dynamodbav:"uuid"`
	Name                   string  `json:"name" dynamodbav:"name"`
	InventoryMaster        string  `json:"inventory_master" dynamodbav:"inventory_master"`
	SenderName             *string `json:"sender_name" dynamodbav:"sender_name"`
	CompanyName            *string `json:"company_name" dynamodbav:"company_name"`
	Email                  *string `json:"email" dynamodbav:"email"`
	PhoneNumber            *string `json:"phone_number" dynamodbav:"phone_number"`
	Address1               *string `json:"address_1" dynamodbav:"address_1"`
	Address2               *string `json:"address_2" dynamodbav:"address_2"`
	City                   *string `json:"city" dynamodbav:"city"`
	StateRegion            *string `json:"state_region" dynamodbav:"state_region"`
	PostalCode             *string `json:"postal_code" dynamodbav:"postal_code"`
	CountryCode            *string `json:"country_code" dynamodbav:"country_code"`
	EnableShippingSoftware bool    `json:"enable_shipping_software" dynamodbav:"enable_shipping_software"`
	Archived               bool    `json:"archived" dynamodbav:"archived"`
	Priority               int     `json:"priority" dynamodbav:"priority"`
	CreatedAt              string  `json:"created_at" dynamodbav:"created_at"`
}

// Service is the warehouses domain: every operation on an account's
// warehouses.
type Service struct {
	Table store.Table
	// OnArchive, if set, runs after a warehouse is archived.
	OnArchive ArchiveHook
}

// ArchiveHook is told when a warehouse becomes archived, so that what it
// held can be allocated elsewhere (the orders domain sets it).
type ArchiveHook func(ctx context.Context, account, uuid string) error

// pk is the partition of an account's warehouses; the sort key is the
// time-ordered uuid, so a Query returns them in creation order.
func pk(account string) string { return store.PK(account, "WH") }

// Key is the primary key of a warehouse, for other domains' transactions
// (for example a condition that the warehouse exists).
func Key(account, uuid string) map[string]types.AttributeValue { return store.Key(pk(account), uuid) }

// Exists is a condition that the warehouse exists, for a transaction of
// another domain that must not act on an unknown warehouse (a shipment from
// it).
func (s Service) Exists(account, uuid string) store.Write {
	return store.Check(Key(account, uuid), "attribute_exists(PK)", nil)
}

// Get reads one warehouse of the account.
func (s Service) Get(ctx context.Context, account, uuid string) (Warehouse, error) {
	if !store.ValidID(uuid) {
		return Warehouse{}, ErrNotFound
	}
	out, err := s.Table.DB.GetItem(ctx, &dynamodb.GetItemInput{TableName: s.Table.TableName(), Key: Key(account, uuid)})
	if err != nil {
		return Warehouse{}, fmt.Errorf("get warehouse: %w", err)
	}
	if out.Item == nil {
		return Warehouse{}, ErrNotFound
	}
	var w Warehouse
	if err := attributevalue.UnmarshalMap(out.Item, &w); err != nil {
		return Warehouse{}, fmt.Errorf("unmarshal warehouse: %w", err)
	}
	return w, nil
}

// List returns every warehouse of the account in creation order: one Query.
func (s Service) List(ctx context.Context, account string) ([]Warehouse, error) {
	items, err := s.Table.QueryAll(ctx, pk(account))
	if err != nil {
		return nil, err
	}
	out := make([]Warehouse, 0, len(items))
	if err := attributevalue.UnmarshalListOfMaps(items, &out); err != nil {
		return nil, fmt.Errorf("unmarshal warehouses: %w", err)
	}
	return out, nil
}

// ByPriority returns the account's non-archived warehouses in allocation
// order: priority 1 first, ties by creation.
func (s Service) ByPriority(ctx context.Context, account string) ([]Warehouse, error) {
	all, err := s.List(ctx, account)
	if err != nil {
		return nil, err
	}
	active := all[:0]
	for _, w := range all {
		if !w.Archived {
			active = append(active, w)
		}
	}
	sort.SliceStable(active, func(i, j int) bool { return active[i].Priority < active[j].Priority })
	return active, nil
}
