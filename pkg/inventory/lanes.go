package inventory

import (
	"context"
	"hash/fnv"
	"strconv"

	"github.com/multisell/multisell/pkg/queue"
)

// Lanes is how many message groups of the adjustments queue one account's adjustments are
// spread over: the lane of an adjustment is that of its first record (SKU and warehouse),
// so the adjustments of one record apply in order (those of a record that comes first in
// neither may cross, and the request ids on the record sort that out: a request accepted
// before the one that last set the record is superseded, a delta of one composes), and an
// account's adjustments of different records are applied Lanes at once (docs/inventory.md,
// "Throughput"). A FIFO queue applies one message of a group at a time, so the lanes, not the
// consumer's receivers, bound how many of an account's adjustments are under way: at 16 the
// consumer fell behind a load of 4 accounts, each lane's next message waiting for its
// batch's slowest; at 64 it keeps up (docs/scale.md).
const Lanes = 64

// lane is the message group of adj on the adjustments queue.
func lane(adj Adjustment) string {
	h := fnv.New32a()
	if len(adj.Items) > 0 {
		h.Write([]byte(adj.Items[0].SKU))
		h.Write([]byte{0x1f})
		h.Write([]byte(adj.Items[0].Warehouse))
	}
	return queue.Group("adjust", adj.Account, strconv.Itoa(int(h.Sum32()%Lanes)))
}

// send puts adj on the adjustments queue in its lane, deduplicated by dedup.
func (s Service) send(ctx context.Context, adj Adjustment, dedup string) error {
	return s.Adjustments.Send(ctx, lane(adj), dedup, adj)
}
