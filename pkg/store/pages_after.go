package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/multisell/multisell/pkg/errs"
	"github.com/multisell/multisell/pkg/paging"
)

// PageOf reads the page p of the list q: by number, Page; by cursor, After.
func (t Table) PageOf(ctx context.Context, q PageQuery, p paging.Page) (Page, error) {
	if p.ByCursor() {
		return t.After(ctx, q, p.After, p.Limit)
	}
	return t.Page(ctx, q, p.Number, p.Limit)
}

// After reads the limit items of the list q that follow the cursor c (a
// cursor of q's account and List; the list's start for the zero Cursor):
// one Query from c's position, and nothing else (no count: Total is -1,
// no cursor item), so a walk by cursors reads each item once. The page's
// Next is where the Query stopped, nil when the list is over; the Query
// resumes strictly after it, so an item that stays in the list is read
// once by a walk whatever is written meanwhile. With a filter, a page may
// hold fewer than limit items and still have a Next.
func (t Table) After(ctx context.Context, q PageQuery, c *paging.Cursor, limit int) (Page, error) {
	pos, err := c.Position(q.Account, q.List)
	if err != nil {
		return Page{}, err
	}
	in := q.Input
	in.TableName = t.TableName()
	in.Limit = aws.Int32(int32(limit))
	if pos != nil {
		if in.ExclusiveStartKey, err = decodePosition(pos); err != nil {
			return Page{}, errs.Invalid(paging.ForgedCursorMessage)
		}
	}
	out, err := t.DB.Query(ctx, &in)
	if err != nil {
		return Page{}, fmt.Errorf("page of %s after a cursor: %w", q.List, err)
	}
	page := Page{Total: -1, Items: out.Items}
	if page.Items == nil {
		page.Items = []map[string]types.AttributeValue{}
	}
	if len(out.LastEvaluatedKey) > 0 {
		page.Next = nextCursor(q, out.LastEvaluatedKey)
	}
	return page, nil
}

// nextCursor is the cursor of q after the item at position key.
func nextCursor(q PageQuery, key map[string]types.AttributeValue) *paging.Cursor {
	return paging.NewCursor(q.Account, q.List, encodePosition(key))
}

// encodePosition is an item's position (its key attributes, strings or
// numbers) as bytes: JSON of each attribute's type letter and value.
func encodePosition(key map[string]types.AttributeValue) []byte {
	m := make(map[string]string, len(key))
	for k, v := range key {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			m[k] = "S" + v.Value
		case *types.AttributeValueMemberN:
			m[k] = "N" + v.Value
		}
	}
	b, _ := json.Marshal(m) // a map of strings always marshals
	return b
}

// decodePosition is the key encodePosition encoded.
func decodePosition(b []byte) (map[string]types.AttributeValue, error) {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil || len(m) == 0 {
		return nil, fmt.Errorf("position %q: not a key", b)
	}
	key := make(map[string]types.AttributeValue, len(m))
	for k, v := range m {
		switch {
		case len(v) > 0 && v[0] == 'S':
			key[k] = S(v[1:])
		case len(v) > 0 && v[0] == 'N':
			key[k] = &types.AttributeValueMemberN{Value: v[1:]}
		default:
			return nil, fmt.Errorf("position %q: attribute %s has no type", b, k)
		}
	}
	return key, nil
}
