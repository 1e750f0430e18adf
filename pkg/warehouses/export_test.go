package warehouses

import (
	"context"
	"time"

	"github.com/multisell/multisell/pkg/isotime"
	"github.com/multisell/multisell/pkg/store"
)

// CreateElsewhere stores a new warehouse of the account as another process
// would: this process's copy of the account's list is not dropped.
func CreateElsewhere(ctx context.Context, t store.Table, account, name string) (string, error) {
	w := newWarehouse(store.NewID(), isotime.Format(time.Now()), 1, Input{Text: map[string]string{"name": name}})
	return w.UUID, put(ctx, t, account, w)
}
