package audiobookapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/lectern/lectern/shared/audiobook"
	"github.com/lectern/lectern/shared/httpapi"
)

// CastEditOutput answers a cast edit: the book as saved (its new revision
// in the ETag) and how many lines changed speaker.
type CastEditOutput struct {
	ETag string `header:"ETag" doc:"the book's new revision"`
	Body CastEditView
}

// CastEditView is the book after a cast edit.
type CastEditView struct {
	BookView
	ChangedLines int `json:"changed_lines" doc:"dialogue lines whose speaker the edit and the re-attribution changed"`
}

// CastEditInput is what every cast edit carries: the book, the revision it
// was read at and the character it edits.
type CastEditInput struct {
	BookPath
	Character string `path:"character" pattern:"^[a-z0-9][a-z0-9-]{0,99}$" doc:"the character's id"`
	IfMatch   string `header:"If-Match" required:"true" doc:"the book's revision (ETag) the edit was made on"`
}

const castEditNote = " The lines are attributed again by rules with the edited cast: a line set by hand keeps its speaker, " +
	"an LLM answer is kept while its speaker is in the cast and no explicit tag now names another. " +
	"Needs the book's revision in If-Match (another answers 409 and changes nothing); refused with 409 while a cast job runs."

// castEdit runs one cast edit on the revision If-Match names and answers
// with the book's view.
func castEdit(ctx context.Context, svc *audiobook.Service, ifMatch string, edit func(rev int64) (audiobook.CastEdited, error)) (*CastEditOutput, error) {
	rev, err := revisionOf(ifMatch)
	if err != nil {
		return nil, err
	}
	e, err := edit(rev)
	if err != nil {
		return nil, err
	}
	v, err := view(ctx, svc, e.Book, http.StatusOK)
	if err != nil {
		return nil, err
	}
	return &CastEditOutput{ETag: v.ETag, Body: CastEditView{BookView: v.Body, ChangedLines: e.Changed}}, nil
}

func mergeCharacters(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "merge-book-characters", Method: http.MethodPost, Path: bookPath + "/cast/{character}/merge",
		Summary: "Merge another character into this one: its name and aliases become aliases, its lines this character's; " +
			"this character keeps its voice (else takes the other's)." + castEditNote,
		Tags: tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		CastEditInput
		Body struct {
			From string `json:"from" pattern:"^[a-z0-9][a-z0-9-]{0,99}$" doc:"the id of the character merged into this one; it leaves the cast"`
		}
	}) (*CastEditOutput, error) {
		return castEdit(ctx, svc, in.IfMatch, func(rev int64) (audiobook.CastEdited, error) {
			return svc.MergeCharacters(ctx, in.Book, rev, in.Character, in.Body.From)
		})
	})
}

func splitAlias(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "split-character-alias", Method: http.MethodPost, Path: bookPath + "/cast/{character}/split",
		Summary: "Split one of a character's aliases off as a character of its own (same gender until changed, no voice): " +
			"lines tagged with that name become its lines." + castEditNote,
		Tags: tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		CastEditInput
		Body struct {
			Alias string `json:"alias" minLength:"1" maxLength:"200" doc:"one of the character's aliases"`
		}
	}) (*CastEditOutput, error) {
		return castEdit(ctx, svc, in.IfMatch, func(rev int64) (audiobook.CastEdited, error) {
			return svc.SplitAlias(ctx, in.Book, rev, in.Character, in.Body.Alias)
		})
	})
}

func renameCharacter(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "rename-book-character", Method: http.MethodPut, Path: bookPath + "/cast/{character}/name",
		Summary: "Rename a character; the old name stays as an alias and its lines follow. A name another character holds answers 422." + castEditNote,
		Tags:    tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		CastEditInput
		Body struct {
			Name string `json:"name" minLength:"1" maxLength:"200" doc:"the new name"`
		}
	}) (*CastEditOutput, error) {
		return castEdit(ctx, svc, in.IfMatch, func(rev int64) (audiobook.CastEdited, error) {
			return svc.RenameCharacter(ctx, in.Book, rev, in.Character, in.Body.Name)
		})
	})
}

func setGender(svc *audiobook.Service) httpapi.Operation {
	return httpapi.Op(huma.Operation{
		OperationID: "set-character-gender", Method: http.MethodPut, Path: bookPath + "/cast/{character}/gender",
		Summary: "Set a character's gender (female, male, or empty for unknown): pronoun tags (\"said she\") are resolved again." + castEditNote,
		Tags:    tags, MaxBodyBytes: httpapi.DefaultMaxBody,
	}, func(ctx context.Context, in *struct {
		CastEditInput
		Body struct {
			Gender string `json:"gender" enum:"female,male," doc:"female, male, or empty for unknown"`
		}
	}) (*CastEditOutput, error) {
		return castEdit(ctx, svc, in.IfMatch, func(rev int64) (audiobook.CastEdited, error) {
			return svc.SetGender(ctx, in.Book, rev, in.Character, in.Body.Gender)
		})
	})
}
