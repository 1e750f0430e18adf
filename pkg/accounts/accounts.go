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

// NotFoundMessage is the error message of an unknown account (an
// errs.NotFound).
const NotFoundMessage = "Account not found"

// ErrChanged is returned when the account changed between the read and the
// write of a rotation or a disabling: run it again.
var ErrChanged = errors.New("the account changed meanwhile; try again")

// Account is a stored account. SecretHash is the hex SHA-256 of the secret;
// SecretVersion counts its rotations (and the disabling), and travels in the
// authorizer's context so that the rate limiter's write refuses a version
// that is no longer current (docs/decisions.md, Rotation and disabling).
type Account struct {
	ID            string `dynamodbav:"account_id"`
	Name          string `dynamodbav:"name"`
	Token         string `dynamodbav:"token"`
	SecretHash    string `dynamodbav:"secret_hash"`
	SecretVersion int    `dynamodbav:"secret_version"`
	Disabled      bool   `dynamodbav:"disabled,omitempty"`
	RPS           int    `dynamodbav:"rps"`
	RPM           int    `dynamodbav:"rpm"`
	CreatedAt     string `dynamodbav:"created_at"`
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

// APIKey is the value of the account's API Gateway API key: its id. The
// API's key source is the authorizer, so clients never send a key; the
// value only tells API Gateway whose usage plan applies, and needs no
// secrecy (docs/decisions.md, Rate limits).
func APIKey(id string) string { return id }

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
