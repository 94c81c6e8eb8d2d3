package review

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ErrReviewed marks a memory that is not waiting for review.
var ErrReviewed = errors.New("not in the review inbox")

// Item is a memory waiting for review.
type Item struct {
	Memory *schema.Memory
	Vault  *vault.Vault
}

// Pending lists the captured memories of the vaults no person has kept,
// current ones only, oldest first: the order they were learned in.
func Pending(vaults ...*vault.Vault) ([]Item, error) {
	var out []Item
	for _, v := range vaults {
		if v == nil {
			continue
		}
		entries, err := v.List(vault.ListOptions{Parse: true})
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Err != nil || e.Memory == nil || !e.Memory.NeedsReview() || !e.Memory.Status.Current() {
				continue
			}
			e.Memory.URI = e.URI
			out = append(out, Item{Memory: e.Memory, Vault: v})
		}
	}
	slices.SortStableFunc(out, func(a, b Item) int {
		if c := a.Memory.Created.Compare(b.Memory.Created); c != 0 {
			return c
		}
		return strings.Compare(a.Memory.URI.String(), b.Memory.URI.String())
	})
	return out, nil
}

// Keep stamps memories reviewed, in one commit.
func Keep(ctx context.Context, v *vault.Vault, uris []schema.URI, meta vault.CommitMeta, now time.Time) (vault.CommitResult, error) {
	if meta.Verb == "" {
		meta.Verb = "review"
	}
	if meta.Subject == "" {
		meta.Subject = fmt.Sprintf("review: keep %s", strings.Join(uriStrings(uris), ", "))
	}
	return v.Update(ctx, meta, func(tx *vault.Tx) error {
		for _, u := range uris {
			m, err := tx.Read(u)
			if err != nil {
				return err
			}
			if !m.NeedsReview() {
				return fmt.Errorf("%w: %s", ErrReviewed, u)
			}
			m.Reviewed = schema.Timestamp(now)
			if err := tx.Put(m); err != nil {
				return err
			}
		}
		return nil
	})
}

// Forget removes a memory the person does not want, in one commit that
// says why.
func Forget(ctx context.Context, v *vault.Vault, uri schema.URI, why string, meta vault.CommitMeta) (vault.CommitResult, error) {
	if meta.Verb == "" {
		meta.Verb = "forget"
	}
	why = strings.TrimSpace(why)
	if why == "" {
		why = "not worth keeping (review)"
	}
	meta.Body = why
	return v.Forget(ctx, uri, meta)
}

func uriStrings(us []schema.URI) []string {
	out := make([]string, len(us))
	for i, u := range us {
		out[i] = u.String()
	}
	return out
}
