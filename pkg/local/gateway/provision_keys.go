package gateway

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/kms"
	kmstypes "github.com/aws/aws-sdk-go-v2/service/kms/types"

	"github.com/multisell/multisell/pkg/local/template"
)

// provisionKeys creates the template's KMS keys and their aliases on the KMS emulator. A
// key is found again by its first alias (KMS gives a new key a random id), so a key the
// emulator kept from an earlier start is reused, and every key needs an alias. Each key's
// !Ref and !GetAtt .Arn / .KeyId, and each alias's !Ref (its name), resolve after it.
func (s *Stack) provisionKeys(ctx context.Context) error {
	for _, k := range s.template.Keys {
		if len(k.Aliases) == 0 {
			return fmt.Errorf("provision key %s: it has no %s, by which a restarted local stack finds it", k.LogicalID, template.TypeKMSAlias)
		}
		meta, err := s.ensureKey(ctx, k)
		if err != nil {
			return fmt.Errorf("provision key %s: %w", k.LogicalID, err)
		}
		id := aws.ToString(meta.KeyId)
		s.resolver.Refs[k.LogicalID] = id
		s.resolver.Attrs[k.LogicalID+".KeyId"] = id
		s.resolver.Attrs[k.LogicalID+".Arn"] = aws.ToString(meta.Arn)
		for _, a := range k.Aliases {
			s.resolver.Refs[a.LogicalID] = a.Name
		}
	}
	return nil
}

// ensureKey returns the key k's first alias names, creating the key, its aliases and its
// rotation when the alias names none.
func (s *Stack) ensureKey(ctx context.Context, k template.Key) (*kmstypes.KeyMetadata, error) {
	found, err := s.KMS.DescribeKey(ctx, &kms.DescribeKeyInput{KeyId: aws.String(k.Aliases[0].Name)})
	var notFound *kmstypes.NotFoundException
	switch {
	case err == nil:
		return found.KeyMetadata, nil
	case !errors.As(err, &notFound):
		return nil, fmt.Errorf("describe %s: %w", k.Aliases[0].Name, err)
	}
	created, err := s.KMS.CreateKey(ctx, &kms.CreateKeyInput{
		Description: aws.String(k.Description),
		KeySpec:     kmstypes.KeySpec(k.KeySpec),
		KeyUsage:    kmstypes.KeyUsageType(k.KeyUsage),
	})
	if err != nil {
		return nil, fmt.Errorf("create key: %w", err)
	}
	meta := created.KeyMetadata
	if k.Rotation {
		if _, err := s.KMS.EnableKeyRotation(ctx, &kms.EnableKeyRotationInput{KeyId: meta.KeyId}); err != nil {
			return nil, fmt.Errorf("enable rotation of %s: %w", aws.ToString(meta.KeyId), err)
		}
	}
	// The first alias last: until it exists, a new start creates the key again.
	for i := len(k.Aliases) - 1; i >= 0; i-- {
		name := k.Aliases[i].Name
		_, err := s.KMS.CreateAlias(ctx, &kms.CreateAliasInput{AliasName: aws.String(name), TargetKeyId: meta.KeyId})
		var exists *kmstypes.AlreadyExistsException
		if errors.As(err, &exists) {
			_, err = s.KMS.UpdateAlias(ctx, &kms.UpdateAliasInput{AliasName: aws.String(name), TargetKeyId: meta.KeyId})
		}
		if err != nil {
			return nil, fmt.Errorf("alias %s: %w", name, err)
		}
	}
	return meta, nil
}
