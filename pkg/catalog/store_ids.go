package catalog

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// idBlock is how many product ids one call to an account's counter
// reserves for the process: a creation takes the next one without a write
// of its own, and the counter is written once per idBlock creations.
const idBlock = 50

// idRange is the ids a process reserved and has not handed out yet:
// next to last, inclusive.
type idRange struct{ next, last int64 }

// reserved holds the process's unused ids per table and account. Its lock
// is held while a block is reserved, so two creations never reserve two
// blocks where one is enough.
var reserved = struct {
	sync.Mutex
	ids map[string]idRange
}{ids: map[string]idRange{}}

// nextID returns an unused product id of the account: the next of the ids
// this process reserved, or the first of a new block taken from the
// account's counter (one UpdateItem, ADD next idBlock). An id is never
// handed out twice; ids of a block the process does not use are skipped.
func nextID(ctx context.Context, t store.Table, account string) (int64, error) {
	reserved.Lock()
	defer reserved.Unlock()
	key := store.Join(t.Name, account)
	r, ok := reserved.ids[key]
	if !ok || r.next > r.last {
		last, err := reserveIDs(ctx, t, account)
		if err != nil {
			return 0, err
		}
		r = idRange{next: last - idBlock + 1, last: last}
	}
	id := r.next
	r.next++
	reserved.ids[key] = r
	return id, nil
}

// reserveIDs moves the account's counter on by idBlock and returns its new
// value, the last id of the block reserved.
func reserveIDs(ctx context.Context, t store.Table, account string) (int64, error) {
	u := store.Update{Add: []string{"#next :block"}}
	u.Value(":block", store.N(idBlock))
	in := u.Input(t, store.Key(store.PK(account, kindSequence), "product_id"))
	in.ReturnValues = types.ReturnValueUpdatedNew
	out, err := t.DB.UpdateItem(ctx, in)
	if err != nil {
		return 0, fmt.Errorf("reserve product ids: %w", err)
	}
	n, ok := out.Attributes["next"].(*types.AttributeValueMemberN)
	if !ok {
		return 0, fmt.Errorf("reserve product ids: no counter returned")
	}
	last, err := strconv.ParseInt(n.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("reserve product ids: %w", err)
	}
	return last, nil
}
