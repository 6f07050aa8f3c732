package cast

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lectern/lectern/shared/fault"
)

// Errors of the cast edits.
var (
	// ErrNoCharacter: an edit names a character id the cast lacks.
	ErrNoCharacter = fault.New(fault.NotFound, "no such character")
	// ErrBadEdit: an edit that breaks a rule of the cast (an empty or
	// taken name, an alias the character lacks, a character merged into
	// itself).
	ErrBadEdit = fault.New(fault.Invalid, "invalid cast edit")
)

// MaxNameBytes bounds a character's name or alias.
const MaxNameBytes = 200

// The cast edits below take a cast and answer a new one: the input is not
// changed. Ids stay put (voices and stored items are keyed by them); a new
// character gets the slug of its name, made unique.

// MergeCharacters folds the character goneID into keepID: gone's name and
// aliases become keep's aliases, their mentions add up, keep's gender
// stays unless it is unknown (then gone's), and the narrator flag is kept
// if either had it. gone leaves the cast.
func MergeCharacters(chars []Character, keepID, goneID string) ([]Character, error) {
	k, err := findCharacter(chars, keepID)
	if err != nil {
		return nil, err
	}
	g, err := findCharacter(chars, goneID)
	if err != nil {
		return nil, err
	}
	if k == g {
		return nil, fmt.Errorf("%w: %s cannot be merged into itself", ErrBadEdit, keepID)
	}
	out := cloneCast(chars)
	keep, gone := &out[k], out[g]
	keep.Aliases = uniqueNames(append(keep.Aliases, gone.Names()...), keep.Name)
	keep.Mentions += gone.Mentions
	keep.Narrator = keep.Narrator || gone.Narrator
	if keep.Gender == "" {
		keep.Gender = gone.Gender
	}
	return slices.Delete(out, g, g+1), nil
}

// SplitAlias makes one of a character's aliases a character of its own
// (two people a name merged, "Mr. Ashby" and "Mr. Robert Ashby"). The new
// character takes the gender of the one it leaves (the user can change
// it), no mentions until counted again (Mentions), and is not the narrator.
func SplitAlias(chars []Character, id, alias string) ([]Character, Character, error) {
	i, err := findCharacter(chars, id)
	if err != nil {
		return nil, Character{}, err
	}
	a := slices.IndexFunc(chars[i].Aliases, func(n string) bool { return normKey(n) == normKey(alias) })
	if a < 0 {
		return nil, Character{}, fmt.Errorf("%w: %s has no alias %q", ErrBadEdit, chars[i].Name, alias)
	}
	out := cloneCast(chars)
	name := out[i].Aliases[a]
	out[i].Aliases = slices.Delete(out[i].Aliases, a, a+1)
	c := Character{ID: freeSlug(out, name), Name: name, Aliases: []string{}, Gender: out[i].Gender}
	return append(out, c), c, nil
}

// RenameCharacter gives a character another name; the old name becomes an
// alias, so lines and tags that use it still find the character. Renaming
// to one of its own aliases swaps the two; a name another character holds
// (as name or alias) is refused.
func RenameCharacter(chars []Character, id, newName string) ([]Character, error) {
	i, err := findCharacter(chars, id)
	if err != nil {
		return nil, err
	}
	name, err := checkName(newName)
	if err != nil {
		return nil, err
	}
	for j, c := range chars {
		if j != i && slices.ContainsFunc(c.Names(), func(n string) bool { return normKey(n) == normKey(name) }) {
			return nil, fmt.Errorf("%w: %q is already a name of %s", ErrBadEdit, name, c.Name)
		}
	}
	out := cloneCast(chars)
	c := &out[i]
	if c.Name == name {
		return out, nil
	}
	rest := slices.DeleteFunc(slices.Clone(c.Aliases), func(n string) bool { return normKey(n) == normKey(name) })
	if normKey(c.Name) != normKey(name) {
		rest = append(rest, c.Name) // a change of case or dots only replaces the name
	}
	c.Name, c.Aliases = name, uniqueNames(rest, name)
	return out, nil
}

// SetGender sets a character's gender: female, male or "" (unknown).
func SetGender(chars []Character, id, gender string) ([]Character, error) {
	i, err := findCharacter(chars, id)
	if err != nil {
		return nil, err
	}
	if gender != "" && gender != "female" && gender != "male" {
		return nil, fmt.Errorf("%w: gender %q is not female, male or empty", ErrBadEdit, gender)
	}
	out := cloneCast(chars)
	out[i].Gender = gender
	return out, nil
}

// Mentions counts the times any of c's names is written in text as whole
// words, as a character a split made is counted.
func Mentions(text string, c Character) int {
	n := 0
	for _, name := range c.Names() {
		n += countIn(text, name)
	}
	return n
}

func findCharacter(chars []Character, id string) (int, error) {
	if i := slices.IndexFunc(chars, func(c Character) bool { return c.ID == id }); i >= 0 {
		return i, nil
	}
	return -1, fmt.Errorf("%w: %q", ErrNoCharacter, id)
}

// checkName trims a name and refuses an empty or overlong one.
func checkName(name string) (string, error) {
	name = strings.Join(strings.Fields(name), " ")
	switch {
	case normKey(name) == "":
		return "", fmt.Errorf("%w: a name cannot be empty", ErrBadEdit)
	case len(name) > MaxNameBytes:
		return "", fmt.Errorf("%w: a name has at most %d bytes", ErrBadEdit, MaxNameBytes)
	}
	return name, nil
}

// cloneCast copies a cast deep enough that edits leave the input alone.
func cloneCast(chars []Character) []Character {
	out := make([]Character, len(chars))
	for i, c := range chars {
		c.Aliases = slices.Clone(c.Aliases)
		if c.Aliases == nil {
			c.Aliases = []string{}
		}
		out[i] = c
	}
	return out
}

// freeSlug is the slug of name, numbered when the cast has it already.
func freeSlug(chars []Character, name string) string {
	base := strings.TrimRight(slug(name)[:min(len(slug(name)), 80)], "-")
	id := base
	for n := 2; slices.ContainsFunc(chars, func(c Character) bool { return c.ID == id }); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}
