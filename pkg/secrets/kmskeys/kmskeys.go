// Package kmskeys is secrets.Keys over the KMS SDK: the only package that touches it. It is
// a package of its own so that only the functions that seal or open secrets link the KMS
// client (pkg/app/kmsclient; docs/decisions.md).
package kmskeys

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/multisell/multisell/pkg/secrets"
)

// Keys is the KMS key secrets are sealed under: a client and the key's id, ARN, alias name
// or alias ARN (CREDENTIALS_KEY_ID).
type Keys struct {
	Client *kms.Client
	KeyID  string
}

// New is the key keyID over a KMS client built with awsCfg, at endpoint when it is set
// (the local stack's emulator).
func New(awsCfg aws.Config, endpoint, keyID string) Keys {
	return Keys{KeyID: keyID, Client: kms.NewFromConfig(awsCfg, func(o *kms.Options) {
		if endpoint != "" {
			o.BaseEndpoint = aws.String(endpoint)
		}
	})}
}

// DataKey implements secrets.Keys with GenerateDataKey.
func (k Keys) DataKey(ctx context.Context, ec map[string]string) (plain, blob []byte, err error) {
	out, err := k.Client.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
		KeyId: aws.String(k.KeyID), KeySpec: kmstypes.DataKeySpecAes256, EncryptionContext: ec,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("kms GenerateDataKey: %w", err)
	}
	return out.Plaintext, out.CiphertextBlob, nil
}

// DecryptKey implements secrets.Keys with Decrypt; a blob that is not the key's, or was
// bound to another context, is secrets.CannotOpen.
func (k Keys) DecryptKey(ctx context.Context, blob []byte, ec map[string]string) ([]byte, error) {
	out, err := k.Client.Decrypt(ctx, &kms.DecryptInput{
		KeyId: aws.String(k.KeyID), CiphertextBlob: blob, EncryptionContext: ec,
	})
	var (
		invalid   *kmstypes.InvalidCiphertextException
		incorrect *kmstypes.IncorrectKeyException
	)
	switch {
	case errors.As(err, &invalid), errors.As(err, &incorrect):
		return nil, secrets.CannotOpen(fmt.Errorf("kms Decrypt: %w", err))
	case err != nil:
		return nil, fmt.Errorf("kms Decrypt: %w", err)
	}
	return out.Plaintext, nil
}
