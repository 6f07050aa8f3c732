package cast

import (
	"errors"
	"reflect"
	"testing"
)

func editCast() []Character {
	return []Character{
		{ID: "mr-ashby", Name: "Mr. Ashby", Aliases: []string{"Ashby", "Mr. Robert Ashby"}, Gender: "male", Mentions: 30},
		{ID: "eleanor", Name: "Eleanor", Aliases: []string{"Miss Price"}, Gender: "female", Mentions: 20},
		{ID: "nell", Name: "Nell", Aliases: []string{}, Mentions: 5},
		{ID: "narrator", Name: "Narrator", Aliases: []string{}, Narrator: true, Mentions: 2},
	}
}

func TestMergeCharacters(t *testing.T) {
	cases := []struct {
		name        string
		keep, gone  string
		want        []Character
		wantErr     error
		wantGoneOut bool
	}{
		{name: "the gone name and its aliases become aliases, mentions add, gender stays", keep: "eleanor", gone: "nell",
			want: []Character{editCast()[0], {ID: "eleanor", Name: "Eleanor", Aliases: []string{"Miss Price", "Nell"}, Gender: "female", Mentions: 25}, editCast()[3]}},
		{name: "an unknown gender takes the merged one's and the narrator flag follows", keep: "nell", gone: "narrator",
			want: []Character{editCast()[0], editCast()[1], {ID: "nell", Name: "Nell", Aliases: []string{"Narrator"}, Mentions: 7, Narrator: true}}},
		{name: "a merge into itself is refused", keep: "nell", gone: "nell", wantErr: ErrBadEdit},
		{name: "an unknown kept id is refused", keep: "nobody", gone: "nell", wantErr: ErrNoCharacter},
		{name: "an unknown merged id is refused", keep: "nell", gone: "nobody", wantErr: ErrNoCharacter},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := editCast()
			got, err := MergeCharacters(in, tc.keep, tc.gone)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(in, editCast()) {
				t.Fatalf("the input changed: %+v", in)
			}
			if tc.wantErr == nil && !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestSplitAlias(t *testing.T) {
	cases := []struct {
		name    string
		id      string
		alias   string
		want    []Character
		wantNew Character
		wantErr error
	}{
		{name: "an alias becomes a character of its own with the gender of the one it leaves", id: "mr-ashby", alias: "mr. robert ashby",
			want: []Character{{ID: "mr-ashby", Name: "Mr. Ashby", Aliases: []string{"Ashby"}, Gender: "male", Mentions: 30},
				editCast()[1], editCast()[2], editCast()[3],
				{ID: "mr-robert-ashby", Name: "Mr. Robert Ashby", Aliases: []string{}, Gender: "male"}},
			wantNew: Character{ID: "mr-robert-ashby", Name: "Mr. Robert Ashby", Aliases: []string{}, Gender: "male"}},
		{name: "a taken id is numbered", id: "eleanor", alias: "Miss Price",
			wantNew: Character{ID: "miss-price", Name: "Miss Price", Aliases: []string{}, Gender: "female"}},
		{name: "an alias the character lacks is refused", id: "eleanor", alias: "Nell", wantErr: ErrBadEdit},
		{name: "the character's own name is not an alias", id: "eleanor", alias: "Eleanor", wantErr: ErrBadEdit},
		{name: "an unknown id is refused", id: "nobody", alias: "Ashby", wantErr: ErrNoCharacter},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := editCast()
			got, c, err := SplitAlias(in, tc.id, tc.alias)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(in, editCast()) {
				t.Fatalf("the input changed: %+v", in)
			}
			if tc.wantErr != nil {
				return
			}
			if !reflect.DeepEqual(c, tc.wantNew) {
				t.Fatalf("new %+v, want %+v", c, tc.wantNew)
			}
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
	// The slug of a split name already used as an id is numbered.
	in := append(editCast(), Character{ID: "ashby", Name: "Ashby (the uncle)"})
	_, c, err := SplitAlias(in, "mr-ashby", "Ashby")
	if err != nil || c.ID != "ashby-2" {
		t.Fatalf("split Ashby: %+v %v, want id ashby-2", c, err)
	}
}

func TestRenameCharacter(t *testing.T) {
	cases := []struct {
		name    string
		id, to  string
		want    Character
		wantErr error
	}{
		{name: "the old name is kept as an alias", id: "nell", to: "  Eleanor   Hartley ",
			want: Character{ID: "nell", Name: "Eleanor Hartley", Aliases: []string{"Nell"}, Mentions: 5}},
		{name: "renaming to an own alias swaps the two", id: "eleanor", to: "Miss Price",
			want: Character{ID: "eleanor", Name: "Miss Price", Aliases: []string{"Eleanor"}, Gender: "female", Mentions: 20}},
		{name: "a change of case only replaces the name", id: "nell", to: "NELL",
			want: Character{ID: "nell", Name: "NELL", Mentions: 5}},
		{name: "the same name changes nothing", id: "nell", to: "Nell",
			want: Character{ID: "nell", Name: "Nell", Aliases: []string{}, Mentions: 5}},
		{name: "a name another character holds is refused", id: "nell", to: "the eleanor", wantErr: ErrBadEdit},
		{name: "an alias of another character is refused", id: "nell", to: "Miss Price", wantErr: ErrBadEdit},
		{name: "an empty name is refused", id: "nell", to: "  ", wantErr: ErrBadEdit},
		{name: "an overlong name is refused", id: "nell", to: string(make([]byte, MaxNameBytes+1)) + "x", wantErr: ErrBadEdit},
		{name: "an unknown id is refused", id: "nobody", to: "Nell", wantErr: ErrNoCharacter},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := editCast()
			got, err := RenameCharacter(in, tc.id, tc.to)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err %v, want %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(in, editCast()) {
				t.Fatalf("the input changed: %+v", in)
			}
			if tc.wantErr != nil {
				return
			}
			i, _ := findCharacter(got, tc.id)
			if !reflect.DeepEqual(got[i], tc.want) {
				t.Fatalf("got  %+v\nwant %+v", got[i], tc.want)
			}
		})
	}
}

func TestSetGender(t *testing.T) {
	got, err := SetGender(editCast(), "nell", "female")
	if err != nil || got[2].Gender != "female" {
		t.Fatalf("%+v %v", got[2], err)
	}
	if _, err := SetGender(editCast(), "nell", "other"); !errors.Is(err, ErrBadEdit) {
		t.Fatalf("gender other: %v", err)
	}
	if _, err := SetGender(editCast(), "nobody", ""); !errors.Is(err, ErrNoCharacter) {
		t.Fatalf("unknown id: %v", err)
	}
}

func TestMentionsCountsEveryName(t *testing.T) {
	text := "Nell came in. Eleanor sat down; Miss Price smiled at nell's cousin. Nelly left."
	c := Character{Name: "Eleanor", Aliases: []string{"Miss Price", "Nell"}}
	if n := Mentions(text, c); n != 3 {
		t.Fatalf("mentions %d, want 3 (Nell, Eleanor, Miss Price; not nell's lower case? not Nelly)", n)
	}
}
