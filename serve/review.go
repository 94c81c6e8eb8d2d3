package serve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairnmem/cairn/review"
	"github.com/cairnmem/cairn/schema"
	"github.com/cairnmem/cairn/vault"
)

// ReviewCard is a memory waiting in the review inbox: a card with the
// evidence capture wrote it on.
type ReviewCard struct {
	Card
	Created    time.Time `json:"created"`
	Session    string    `json:"session,omitempty"`
	Rule       string    `json:"rule,omitempty"`
	Confidence float64   `json:"confidence,omitempty"`
}

// Inbox lists what capture wrote that no person has kept yet, oldest
// first.
func (s *Service) Inbox() ([]ReviewCard, error) {
	items, err := review.Pending(s.vaultList()...)
	if err != nil {
		return nil, err
	}
	out := make([]ReviewCard, 0, len(items))
	for _, it := range items {
		m := it.Memory
		c := ReviewCard{Card: Card{URI: m.URI.String(), Kind: string(m.Kind), Title: m.Title, Summary: m.L0(), Status: string(m.Status),
			Tags: m.Tags, Updated: m.Updated}, Created: m.Created}
		if m.Source != nil {
			c.Session, c.Rule = m.Source.Session, m.Source.Rule
		}
		if m.Confidence != nil {
			c.Confidence = *m.Confidence
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *Service) vaultList() []*vault.Vault {
	var out []*vault.Vault
	for _, sc := range s.scopes() {
		out = append(out, s.vault(sc))
	}
	return out
}

// ReviewInput is a decision on a memory in the inbox.
type ReviewInput struct {
	URI      string `json:"uri"`
	Decision string `json:"decision"` // keep or forget
	Why      string `json:"why,omitempty"`
	Session  string `json:"session,omitempty"`
}

// ReviewOutput is what a decision did.
type ReviewOutput struct {
	URI      string `json:"uri"`
	Decision string `json:"decision"`
	Commit   string `json:"commit"`
}

// Review keeps or forgets a memory from the inbox, in a commit.
func (s *Service) Review(ctx context.Context, in ReviewInput) (*ReviewOutput, error) {
	u, v, err := s.resolve(in.URI)
	if err != nil {
		return nil, err
	}
	out := &ReviewOutput{URI: u.String(), Decision: in.Decision}
	switch strings.ToLower(strings.TrimSpace(in.Decision)) {
	case "keep":
		res, err := review.Keep(ctx, v, []schema.URI{u}, s.meta(v, "review", in.Session), s.Now())
		if errors.Is(err, review.ErrReviewed) {
			return nil, fmt.Errorf("%w: %v", ErrBadRequest, err)
		}
		if err != nil {
			return nil, notFound(err)
		}
		out.Commit = res.Commit
	case "forget":
		res, err := review.Forget(ctx, v, u, in.Why, s.meta(v, "forget", in.Session))
		if err != nil {
			return nil, notFound(err)
		}
		out.Commit = res.Commit
	default:
		return nil, fmt.Errorf("%w: decision must be keep or forget, not %q", ErrBadRequest, in.Decision)
	}
	return out, nil
}
