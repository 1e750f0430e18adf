package listings

import (
	"context"
	"fmt"
	"strings"

	"github.com/multisell/multisell/pkg/store"
)

// Recount sets the counts of the listing lists, all listings and each
// channel's, to their sizes (docs/operations.md): for an account whose
// listings were written before the counts. It reads the listings'
// partition once (strongly consistent, projected on the sort key, which
// starts with the channel), and counts every channel of the account, so
// that one without listings is set to 0. The counts are exact only while
// no listing is created or deleted; running it again is harmless.
func (s Service) Recount(ctx context.Context, account string) error {
	chs, err := s.Channels.List(ctx, account)
	if err != nil {
		return err
	}
	items, err := s.Table.Project(ctx, pk(account), store.AttrSK)
	if err != nil {
		return fmt.Errorf("recount the listings: %w", err)
	}
	want := store.Counts{allCount: int64(len(items))}
	for _, ch := range chs {
		want[channelCount(ch.UUID)] = 0
	}
	for _, it := range items {
		channel, _, _ := strings.Cut(it.Text(store.AttrSK), store.Sep)
		want.Add(channelCount(channel), 1)
	}
	if err := s.Table.SetCounts(ctx, account, want); err != nil {
		return fmt.Errorf("recount the listings: %w", err)
	}
	return nil
}
