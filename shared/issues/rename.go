package issues

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lectern/lectern/shared/magazine"
)

// titleLimit is the longest title a rename takes, in characters: the
// limit of an upload's title.
const titleLimit = 200

// Rename gives an issue a new title, trimmed, of 1 to titleLimit
// characters. It is allowed in every state: the title is not ingest's, and
// the issue record is written conditionally, so a step running meanwhile
// keeps its own fields.
func (s *Service) Rename(ctx context.Context, id, title string) (magazine.Issue, error) {
	title = strings.TrimSpace(title)
	if n := utf8.RuneCountInString(title); n == 0 || n > titleLimit {
		return magazine.Issue{}, fmt.Errorf("a title has 1 to %d characters besides spaces at either end; this one has %d: %w", titleLimit, n, ErrInvalid)
	}
	return s.Repo.Update(ctx, id, func(is *magazine.Issue) error {
		is.Title = title
		return nil
	})
}
