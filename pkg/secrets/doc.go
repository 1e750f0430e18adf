// Package secrets seals a channel's secrets (its credentials document, its cached access
// tokens) under the KMS key of channel credentials, by envelope encryption: every Seal asks
// KMS for a fresh AES-256 data key, encrypts the value with AES-256-GCM under it, and keeps
// the data key only as KMS encrypted it. The account id, the channel uuid and what the
// value is (its Purpose) are the GCM additional data and the KMS encryption context, so a
// sealed value opens only for the account, channel and purpose it was sealed for, and only
// with the key it was sealed under. The plaintext data key is zeroed after use and never
// logged. Keys is the KMS key; pkg/secrets/kmskeys, its implementation, is the only package
// that touches the KMS SDK. docs/connectors.md says what is stored and what never leaves.
package secrets
