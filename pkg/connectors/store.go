package connectors

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/store"
)

// The runtime's items, one partition per account (kind CONN), keyed by channel:
//
//	SK <channel>␟rate␟<op>  a bucket: tat, iv (see bucket), ttl a day after tat
//	SK <channel>␟token      the access token: sealed, exp (ms), creds (the digest of the sealed
//	                        credentials it was got with), lease (ms, an exchange under way),
//	                        refusals (the channel's refusals in a row); a rotating channel's
//	                        newest refresh token: refresh (sealed), refresh_creds (the digest of
//	                        the credentials it descends from), refresh_gen (1 for the first
//	                        stored, one more at each rotation; rotation.go)
//	SK <channel>␟poll       the poll: cursor, and a walk under way: since, page, seen
//	                        (position), lease (ms), owner, polled_at
const kindConnector = "CONN"

// itemID names one of the runtime's items of a channel: what is "token", "poll" or
// "rate" and the operation.
type itemID struct {
	account, channel string
	what             []string
}

// bucketID, tokenID and pollID name a channel's items.
func bucketID(account, channel, op string) itemID {
	return itemID{account, channel, []string{"rate", op}}
}
func tokenID(account, channel string) itemID { return itemID{account, channel, []string{"token"}} }
func pollID(account, channel string) itemID  { return itemID{account, channel, []string{"poll"}} }

// sk is the item's sort key.
func (id itemID) sk() string { return store.Join(append([]string{id.channel}, id.what...)...) }

// key is the item's primary key.
func (id itemID) key() map[string]types.AttributeValue {
	return store.Key(store.PK(id.account, kindConnector), id.sk())
}

// text is the item's key as one string.
func (id itemID) text() string { return id.account + store.Sep + id.sk() }

// bucketTTL is how long an idle bucket's item stays: after a day a full bucket is the same
// as none.
const bucketTTL = 24 * time.Hour

// update runs u on the item id with the given return values; on a failed condition it
// returns the stored item (as the error carries it, else a consistent read) and
// errConditionFailed.
func (r *Runtime) update(ctx context.Context, id itemID, u store.Update, ret types.ReturnValue) (store.Image, error) {
	in := u.Input(r.Table, id.key())
	in.ReturnValues = ret
	in.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	out, err := r.Table.DB.UpdateItem(ctx, in)
	if err == nil {
		return store.ImageOf(out.Attributes), nil
	}
	var ccf *types.ConditionalCheckFailedException
	if !errors.As(err, &ccf) {
		return store.Image{}, err
	}
	if ccf.Item != nil {
		return store.ImageOf(ccf.Item), errConditionFailed
	}
	img, rerr := r.Table.Item(ctx, id.key(), true)
	if rerr != nil {
		return store.Image{}, rerr
	}
	return img, errConditionFailed
}

// errConditionFailed is update's failed condition.
var errConditionFailed = errors.New("condition failed")

// takeToken takes n tokens of the bucket id, which the caller believes is b, at now (ms),
// b.takeN having said there are. It returns the bucket as stored after the take, or, when
// the stored bucket is not b as believed (another instance took tokens, or a rate header
// changed its interval), the stored bucket and false.
func (r *Runtime) takeToken(ctx context.Context, id itemID, b bucket, burst, n int, now int64) (bucket, bool, error) {
	next, _ := b.takeN(burst, n, now)
	n = min(max(n, 1), max(burst, 1))
	var u store.Update
	u.Value(":iv", store.N(b.iv))
	u.Value(":now", store.N(now))
	u.SetValue(store.AttrTTL, store.N((next+bucketTTL.Milliseconds())/1000))
	if b.tat <= now {
		// A full bucket: the take starts it again from now.
		u.SetValue("tat", store.N(next))
		u.Set = append(u.Set, "#iv = :iv")
		u.Condition = "(attribute_not_exists(#iv) OR #iv = :iv) AND (attribute_not_exists(#tat) OR #tat <= :now)"
	} else {
		// A bucket taken from: n intervals more, if the level allows.
		u.Set = append(u.Set, "#tat = #tat + :cost")
		u.Value(":cost", store.N(int64(n)*b.iv))
		u.Value(":limit", store.N(now+int64(max(burst, 1)-n)*b.iv))
		u.Condition = "#iv = :iv AND #tat > :now AND #tat <= :limit"
	}
	img, err := r.update(ctx, id, u, types.ReturnValueAllNew)
	switch {
	case errors.Is(err, errConditionFailed):
		return bucket{tat: img.Int("tat"), iv: img.Int("iv")}, false, nil
	case err != nil:
		return bucket{}, false, fmt.Errorf("take a token: %w", err)
	}
	return bucket{tat: img.Int("tat"), iv: img.Int("iv")}, true, nil
}

// blockBucket closes the bucket id until tat (ms, see bucket.blocked), unless it is closed
// longer already; iv is the interval a bucket without one starts with.
func (r *Runtime) blockBucket(ctx context.Context, id itemID, tat, iv int64) error {
	var u store.Update
	u.SetValue("tat", store.N(tat))
	u.SetValue(store.AttrTTL, store.N((tat+bucketTTL.Milliseconds())/1000))
	u.Set = append(u.Set, "#iv = if_not_exists(#iv, :iv)")
	u.Value(":iv", store.N(iv))
	u.Condition = "attribute_not_exists(#tat) OR #tat < :tat"
	if _, err := r.update(ctx, id, u, types.ReturnValueNone); err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("block a bucket: %w", err)
	}
	return nil
}

// setInterval stores the interval the channel's rate header states.
func (r *Runtime) setInterval(ctx context.Context, id itemID, iv int64) error {
	var u store.Update
	u.SetValue("iv", store.N(iv))
	if _, err := r.update(ctx, id, u, types.ReturnValueNone); err != nil {
		return fmt.Errorf("set a bucket's rate: %w", err)
	}
	return nil
}

// putBucket sets the bucket id to b, whatever it held (a level the channel stated).
func (r *Runtime) putBucket(ctx context.Context, id itemID, b bucket) error {
	var u store.Update
	u.SetValue("tat", store.N(b.tat))
	u.SetValue("iv", store.N(b.iv))
	u.SetValue(store.AttrTTL, store.N((b.tat+bucketTTL.Milliseconds())/1000))
	_, err := r.update(ctx, id, u, types.ReturnValueNone)
	return err
}

// tokenItem is the stored access token of a channel.
type tokenItem struct {
	Sealed   []byte `dynamodbav:"sealed"`
	Exp      int64  `dynamodbav:"exp"`
	Creds    string `dynamodbav:"creds"`
	Lease    int64  `dynamodbav:"lease"`
	Refusals int64  `dynamodbav:"refusals"`
	// Refresh is a rotating channel's newest refresh token, sealed; RefreshCreds the digest
	// of the credentials it descends from, RefreshGen its generation (rotation.go).
	Refresh      []byte `dynamodbav:"refresh"`
	RefreshCreds string `dynamodbav:"refresh_creds"`
	RefreshGen   int64  `dynamodbav:"refresh_gen"`
}

// readToken reads the channel's token item (consistent: an exchange just stored may be it).
func (r *Runtime) readToken(ctx context.Context, id itemID) (tokenItem, error) {
	var it tokenItem
	if _, err := r.Table.Get(ctx, id.key(), &it, true); err != nil {
		return tokenItem{}, fmt.Errorf("read the access token: %w", err)
	}
	return it, nil
}

// claim takes the lease of the item id until until (ms) if nobody holds one at now and cond
// (a condition on the item, "" for none) holds, with the item's other changes in u; it
// returns the item after (with ret) and whether it took the lease.
func (r *Runtime) claim(ctx context.Context, id itemID, u store.Update, cond string, now, until int64, ret types.ReturnValue) (store.Image, bool, error) {
	u.SetValue("lease", store.N(until))
	u.Value(":now", store.N(now))
	u.Condition = "(attribute_not_exists(#lease) OR #lease < :now)"
	if cond != "" {
		u.Condition += " AND (" + cond + ")"
	}
	img, err := r.update(ctx, id, u, ret)
	switch {
	case errors.Is(err, errConditionFailed):
		return store.Image{}, false, nil
	case err != nil:
		return store.Image{}, false, err
	}
	return img, true, nil
}

// claimExchange takes the lease of a token exchange until until (ms) if nobody holds one at
// now and no token is stored that is fresh (expiring after fresh) and got with the
// credentials creds (their sealedDigest); it returns the item as the claim left it, and
// whether it took the lease.
func (r *Runtime) claimExchange(ctx context.Context, id itemID, creds string, now, until, fresh int64) (tokenItem, bool, error) {
	var u store.Update
	u.Value(":fresh", store.N(fresh))
	u.Value(":creds", store.S(creds))
	img, ok, err := r.claim(ctx, id, u, "attribute_not_exists(#exp) OR #exp <= :fresh OR attribute_not_exists(#creds) OR #creds <> :creds", now, until, types.ReturnValueAllNew)
	if err != nil {
		return tokenItem{}, false, fmt.Errorf("claim a token exchange: %w", err)
	}
	if !ok {
		return tokenItem{}, false, nil
	}
	var it tokenItem
	if err := img.Decode(&it); err != nil {
		return tokenItem{}, false, fmt.Errorf("read the claimed token item: %w", err)
	}
	return it, true, nil
}

// putToken stores a sealed access token expiring at exp (ms), ends the exchange's lease and
// the refusals in a row.
func (r *Runtime) putToken(ctx context.Context, id itemID, sealed []byte, creds string, exp int64) error {
	u := store.Update{Remove: []string{"lease"}}
	u.SetValue("sealed", &types.AttributeValueMemberB{Value: sealed})
	u.SetValue("creds", store.S(creds))
	u.SetValue("exp", store.N(exp))
	u.SetValue("refusals", store.N(0))
	if _, err := r.update(ctx, id, u, types.ReturnValueNone); err != nil {
		return fmt.Errorf("store the access token: %w", err)
	}
	return nil
}

// rotated is what a rotating exchange stores: the sealed access token expiring at exp (ms)
// and refresh token, got with the credentials creds, by the exchange that held the lease
// lease (ms) and spent the refresh token of generation gen (0: the credentials' own).
type rotated struct {
	access, refresh []byte
	creds           string
	exp, lease, gen int64
}

// putRotated stores t as putToken stores an access token, with its refresh token as
// generation t.gen+1, if the lease is still t's or, when it is not (it expired and another
// instance claimed it), nobody stored a refresh token since the one t spent: either way t's is
// the newest. Otherwise it stores nothing and returns errConditionFailed.
func (r *Runtime) putRotated(ctx context.Context, id itemID, t rotated) error {
	u := store.Update{Remove: []string{"lease"}}
	u.SetValue("sealed", &types.AttributeValueMemberB{Value: t.access})
	u.SetValue("creds", store.S(t.creds))
	u.SetValue("exp", store.N(t.exp))
	u.SetValue("refusals", store.N(0))
	u.SetValue("refresh", &types.AttributeValueMemberB{Value: t.refresh})
	u.SetValue("refresh_creds", store.S(t.creds))
	u.SetValue("refresh_gen", store.N(t.gen+1))
	u.Value(":mine", store.N(t.lease))
	u.Condition = "#lease = :mine OR attribute_not_exists(#refresh_gen)"
	if t.gen > 0 {
		u.Value(":gen", store.N(t.gen))
		u.Condition = "#lease = :mine OR #refresh_gen = :gen"
	}
	_, err := r.update(ctx, id, u, types.ReturnValueNone)
	if err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("store the rotated tokens: %w", err)
	}
	return err
}

// release ends the exchange's lease that expires at lease (ms), if it is still that one.
func (r *Runtime) release(ctx context.Context, id itemID, lease int64) error {
	u := store.Update{Remove: []string{"lease"}, Condition: "#lease = :mine"}
	u.Value(":mine", store.N(lease))
	if err := r.write(ctx, id, u); err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("end the token exchange: %w", err)
	}
	return nil
}

// refuse counts one refusal of the channel: the cached token is dropped with the lease, and
// the refusals in a row so far are returned.
func (r *Runtime) refuse(ctx context.Context, id itemID) (int64, error) {
	u := store.Update{Add: []string{"#refusals :one"}, Remove: []string{"sealed", "exp", "lease"}}
	u.Value(":one", store.N(1))
	img, err := r.update(ctx, id, u, types.ReturnValueUpdatedNew)
	if err != nil {
		return 0, fmt.Errorf("count a refusal: %w", err)
	}
	return img.Int("refusals"), nil
}

// accept ends the refusals in a row after a call the channel accepted.
func (r *Runtime) accept(ctx context.Context, id itemID) error {
	u := store.Update{Remove: []string{"refusals"}}
	u.Condition = "#refusals > :zero"
	u.Value(":zero", store.N(0))
	if _, err := r.update(ctx, id, u, types.ReturnValueNone); err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("reset the refusals: %w", err)
	}
	return nil
}

// claimPoll takes the poll lease of a channel for owner until until (ms) if nobody holds one
// at now, and returns the stored position (a zero cursor: none yet); ok is false when
// another holds it.
func (r *Runtime) claimPoll(ctx context.Context, id itemID, owner string, now, until int64) (pos position, ok bool, err error) {
	var u store.Update
	u.SetValue("owner", store.S(owner))
	img, ok, err := r.claim(ctx, id, u, "", now, until, types.ReturnValueAllNew)
	if err != nil {
		return position{}, false, fmt.Errorf("claim the poll: %w", err)
	}
	if !ok {
		return position{}, false, nil
	}
	if pos, err = positionOf(img); err != nil {
		return position{}, false, err
	}
	return pos, true, nil
}

// endPoll ends owner's poll lease, storing the position pos (keep false: the stored one
// stays as it is) and polledAt (a successful poll's time) when it is not zero. A lease
// that is no longer owner's (it expired and another poll took it) is an error, and nothing is
// stored.
func (r *Runtime) endPoll(ctx context.Context, id itemID, owner string, pos position, keep bool, polledAt time.Time) error {
	u := store.Update{Remove: []string{"lease", "owner"}}
	if !keep {
		pos.write(&u)
	}
	if !polledAt.IsZero() {
		u.SetValue("polled_at", store.S(polledAt.UTC().Format(time.RFC3339)))
	}
	u.Value(":me", store.S(owner))
	u.Condition = "#owner = :me"
	_, err := r.update(ctx, id, u, types.ReturnValueNone)
	if errors.Is(err, errConditionFailed) {
		return errors.New("end the poll: the lease was lost")
	}
	if err != nil {
		return fmt.Errorf("end the poll: %w", err)
	}
	return nil
}

// write applies u to the item id, returning nothing of it.
func (r *Runtime) write(ctx context.Context, id itemID, u store.Update) error {
	_, err := r.update(ctx, id, u, types.ReturnValueNone)
	return err
}

// dropToken removes the cached access token that expires at exp (ms; 0: whichever is
// cached), keeping the lease and the refusals; a token stored since (another expiry) stays.
func (r *Runtime) dropToken(ctx context.Context, id itemID, exp int64) error {
	u := store.Update{Remove: []string{"sealed", "exp"}}
	if exp != 0 {
		u.Condition = "#exp = :exp"
		u.Value(":exp", store.N(exp))
	}
	if err := r.write(ctx, id, u); err != nil && !errors.Is(err, errConditionFailed) {
		return fmt.Errorf("drop the refused access token: %w", err)
	}
	return nil
}
