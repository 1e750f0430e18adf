package secrets

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"
)

// Keys is the KMS key secrets are sealed under: a client and the key's id, ARN, alias name
// or alias ARN (CREDENTIALS_KEY_ID). This is the only file that touches the KMS SDK.
type Keys struct {
	Client *kms.Client
	KeyID  string
}

// dataKey asks KMS for a new AES-256 data key bound to ec, and returns it in clear (the
// caller clears it) and encrypted under the key.
func (k Keys) dataKey(ctx context.Context, ec map[string]string) (plain, blob []byte, err error) {
	out, err := k.Client.GenerateDataKey(ctx, &kms.GenerateDataKeyInput{
		KeyId: aws.String(k.KeyID), KeySpec: kmstypes.DataKeySpecAes256, EncryptionContext: ec,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("kms GenerateDataKey: %w", err)
	}
	return out.Plaintext, out.CiphertextBlob, nil
}

// decryptKey asks KMS to decrypt the data key blob with the key and ec; a blob that is not
// the key's, or was bound to another context, is cannotOpen.
func (k Keys) decryptKey(ctx context.Context, blob []byte, ec map[string]string) ([]byte, error) {
	out, err := k.Client.Decrypt(ctx, &kms.DecryptInput{
		KeyId: aws.String(k.KeyID), CiphertextBlob: blob, EncryptionContext: ec,
	})
	var (
		invalid   *kmstypes.InvalidCiphertextException
		incorrect *kmstypes.IncorrectKeyException
	)
	switch {
	case errors.As(err, &invalid), errors.As(err, &incorrect):
		return nil, cannotOpen(fmt.Errorf("kms Decrypt: %w", err))
	case err != nil:
		return nil, fmt.Errorf("kms Decrypt: %w", err)
	}
	return out.Plaintext, nil
}
