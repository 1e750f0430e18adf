package secrets

import "context"

// Keys is the KMS key secrets are sealed under. pkg/secrets/kmskeys implements it over the
// KMS SDK, in a package of its own, so that a function that never seals or opens a secret
// does not link the KMS client.
type Keys interface {
	// DataKey asks for a new AES-256 data key bound to ec, and returns it in clear (the
	// caller clears it) and encrypted under the key.
	DataKey(ctx context.Context, ec map[string]string) (plain, blob []byte, err error)
	// DecryptKey asks for the data key blob decrypted with the key and ec; a blob that is
	// not the key's, or was bound to another context, is a CannotOpen error.
	DecryptKey(ctx context.Context, blob []byte, ec map[string]string) ([]byte, error)
}
