// Package accounts creates and reads merchant accounts: their API
// credentials (the secret stored only as a SHA-256 hash) and their rate
// limit overrides. The decisions are in docs/decisions.md (Accounts and
// authentication, Rate limits).
package accounts

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Default rate limits of an account: requests per clock second and per
// clock minute (docs/decisions.md, Rate limits).
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

func cmp(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
