// Package accounts creates and reads merchant accounts: their API
// credentials (the secret stored only as a SHA-256 hash) and their rate
// limit overrides.
package accounts

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/multisell/multisell/pkg/store"
)

// Default rate limits of DESIGN.md section 5.
const (
	DefaultRPS = 2
	DefaultRPM = 40
)

// ErrNotFound is returned for an unknown account.
var ErrNotFound = errors.New("account not found")

// Account is a stored account. SecretHash is the hex SHA-256 of the secret.
type Account struct {
	ID         string `dynamodbav:"account_id"`
	Name       string `dynamodbav:"name"`
	Token      string `dynamodbav:"token"`
	SecretHash string `dynamodbav:"secret_hash"`
	RPS        int    `dynamodbav:"rps"`
	RPM        int    `dynamodbav:"rpm"`
	CreatedAt  string `dynamodbav:"created_at"`
}

// Input is what creating an account takes; zero limits mean the defaults.
type Input struct {
	Name string
	RPS  int
	RPM  int
}

// Created is the result of creating an account; SecretKey is shown once and
// never stored.
type Created struct {
	AccountID    string `json:"account_id"`
	AccountToken string `json:"account_token"`
	SecretKey    string `json:"secret_key"`
}

// IDForToken derives the account id from its token, so the authorizer finds
// the account with one GetItem and every key still starts with the id.
func IDForToken(token string) string {
	sum := sha256.Sum256([]byte("multisell-account:" + token))
	return "acct_" + hex.EncodeToString(sum[:10])
}

// HashSecret is the stored form of a secret.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

func randomText(n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// Create stores a new account with a fresh token and a 32-byte random secret.
func Create(ctx context.Context, t store.Table, in Input) (Created, error) {
	if in.Name == "" {
		return Created{}, errors.New("account name is required")
	}
	if in.RPS < 0 || in.RPM < 0 {
		return Created{}, errors.New("rate limits must be positive")
	}
	token, err := randomText(18)
	if err != nil {
		return Created{}, err
	}
	secret, err := randomText(32)
	if err != nil {
		return Created{}, err
	}
	a := Account{
		ID: IDForToken(token), Name: in.Name, Token: token, SecretHash: HashSecret(secret),
		RPS: cmp(in.RPS, DefaultRPS), RPM: cmp(in.RPM, DefaultRPM),
		CreatedAt: time.Now().UTC().Format(time.RFC3339),
	}
	item, err := attributevalue.MarshalMap(a)
	if err != nil {
		return Created{}, fmt.Errorf("marshal account: %w", err)
	}
	for k, v := range store.Key(a.ID, "ACCOUNT") {
		item[k] = v
	}
	_, err = t.DB.PutItem(ctx, &dynamodb.PutItemInput{
		TableName: t.TableName(), Item: item,
		ConditionExpression: aws.String("attribute_not_exists(PK)"),
	})
	if err != nil {
		return Created{}, fmt.Errorf("put account: %w", err)
	}
	return Created{AccountID: a.ID, AccountToken: token, SecretKey: secret}, nil
}

func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Get reads the account with the given id.
func Get(ctx context.Context, t store.Table, id string) (Account, error) {
	out, err := t.DB.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: t.TableName(), Key: store.Key(id, "ACCOUNT"),
	})
	if err != nil {
		return Account{}, fmt.Errorf("get account: %w", err)
	}
	if out.Item == nil {
		return Account{}, ErrNotFound
	}
	var a Account
	if err := attributevalue.UnmarshalMap(out.Item, &a); err != nil {
		return Account{}, fmt.Errorf("unmarshal account: %w", err)
	}
	return a, nil
}
