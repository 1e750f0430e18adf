package accounts

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/store"
)

// key is the primary key of an account: its id is the partition, like
// every key of the account's items.
func key(id string) map[string]types.AttributeValue { return store.Key(id, "ACCOUNT") }

// put stores the new account a: one PutItem that never overwrites.
func put(ctx context.Context, t store.Table, a Account) error {
	item, err := store.Marshal(a, key(a.ID))
	if err != nil {
		return err
	}
	if err := t.Commit(ctx, []store.Write{store.Put(item, "attribute_not_exists(PK)", nil)}); err != nil {
		return fmt.Errorf("put account: %w", err)
	}
	return nil
}

// replace stores a, changed from the account read at secret version read:
// one PutItem on the condition that the stored version is still read (an
// account from before versions has none, which is version 0).
func replace(ctx context.Context, t store.Table, a Account, read int) error {
	item, err := store.Marshal(a, key(a.ID))
	if err != nil {
		return err
	}
	cond := "attribute_exists(#PK) AND #secret_version = :read"
	if read == 0 {
		cond = "attribute_exists(#PK) AND (attribute_not_exists(#secret_version) OR #secret_version = :read)"
	}
	err = t.Commit(ctx, []store.Write{store.Put(item, cond, map[string]types.AttributeValue{":read": store.N(int64(read))})})
	if store.ConditionFailed(err) {
		return ErrChanged
	}
	if err != nil {
		return fmt.Errorf("update account: %w", err)
	}
	return nil
}

// get reads the account id: one GetItem.
func get(ctx context.Context, t store.Table, id string) (Account, error) {
	var a Account
	found, err := t.Get(ctx, key(id), &a, false)
	if err != nil {
		return Account{}, err
	}
	if !found {
		return Account{}, errs.NotFound(NotFoundMessage)
	}
	return a, nil
}
