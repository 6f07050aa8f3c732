// Package voicetest is the voices.Store contract: one suite every adapter
// (SQLite, the DynamoDB voice table, another instance's library over HTTP)
// must pass, so the library behaves the same whichever store holds it.
package voicetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/lectern/lectern/shared/voices"
)

// Run runs every contract case; newStore returns an empty store for one case.
func Run(t *testing.T, newStore func(t *testing.T) voices.Store) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { c.run(t, newStore(t)) })
	}
}

// Cases is how many cases Run runs (infra/gate.json counts them).
func Cases() int { return len(cases) }

var ctx = context.Background()

var cases = []struct {
	name string
	run  func(t *testing.T, s voices.Store)
}{
	{"get missing is ErrNotFound", func(t *testing.T, s voices.Store) {
		if _, err := s.Get(ctx, "nobody"); !errors.Is(err, voices.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
	}},
	{"create then get round-trips every field at version 1", func(t *testing.T, s voices.Store) {
		want := Voice("clone-1", "Moira")
		want.Source, want.Description = voices.SourceClone, "Warm, slow.\nScottish storyteller."
		want.Consent = &voices.Consent{Confirmed: true, Statement: "I am Moira and I agree.", By: "Moira", At: at(3)}
		want.Preview = "voices/previews/abc.wav"
		got, err := s.Create(ctx, want)
		if err != nil {
			t.Fatal(err)
		}
		want.Version = 1
		same(t, got, want)
		same(t, mustGet(t, s, "clone-1"), want)
	}},
	{"create of a taken id is ErrExists and keeps the first", func(t *testing.T, s voices.Store) {
		mustCreate(t, s, Voice("a", "First"))
		if _, err := s.Create(ctx, Voice("a", "Second")); !errors.Is(err, voices.ErrExists) {
			t.Fatalf("got %v, want ErrExists", err)
		}
		if got := mustGet(t, s, "a"); got.Name != "First" {
			t.Fatalf("overwritten: %q", got.Name)
		}
	}},
	{"update with the stored version replaces and bumps the version", func(t *testing.T, s voices.Store) {
		v := mustCreate(t, s, Voice("a", "Before"))
		v.Name, v.Tags, v.Updated = "After", []string{"calm"}, at(9)
		got, err := s.Update(ctx, v)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != 2 {
			t.Fatalf("version %d, want 2", got.Version)
		}
		v.Version = 2
		same(t, mustGet(t, s, "a"), v)
	}},
	{"update with a stale version is ErrStale and keeps the voice", func(t *testing.T, s voices.Store) {
		v := mustCreate(t, s, Voice("a", "One"))
		v.Name = "Two"
		if _, err := s.Update(ctx, v); err != nil {
			t.Fatal(err)
		}
		v.Name = "Three" // still version 1
		if _, err := s.Update(ctx, v); !errors.Is(err, voices.ErrStale) {
			t.Fatalf("got %v, want ErrStale", err)
		}
		if got := mustGet(t, s, "a"); got.Name != "Two" || got.Version != 2 {
			t.Fatalf("got %q v%d", got.Name, got.Version)
		}
	}},
	{"update of a missing voice is ErrNotFound and creates nothing", func(t *testing.T, s voices.Store) {
		v := Voice("ghost", "Ghost")
		v.Version = 1
		if _, err := s.Update(ctx, v); !errors.Is(err, voices.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
		if _, err := s.Get(ctx, "ghost"); !errors.Is(err, voices.ErrNotFound) {
			t.Fatalf("created: %v", err)
		}
	}},
	{"concurrent updates of one version: exactly one wins", func(t *testing.T, s voices.Store) {
		v := mustCreate(t, s, Voice("a", "Start"))
		var wg sync.WaitGroup
		errs := make([]error, 6)
		for i := range errs {
			wg.Go(func() {
				w := v
				w.Name = fmt.Sprintf("Writer %d", i)
				_, errs[i] = s.Update(ctx, w)
			})
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, voices.ErrStale):
				t.Fatalf("unexpected error %v", err)
			}
		}
		if got := mustGet(t, s, "a"); won != 1 || got.Version != 2 {
			t.Fatalf("%d writers won, version %d", won, got.Version)
		}
	}},
	{"delete removes, and a second delete is ErrNotFound", func(t *testing.T, s voices.Store) {
		mustCreate(t, s, Voice("a", "A"))
		if err := s.Delete(ctx, "a", 0); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(ctx, "a"); !errors.Is(err, voices.ErrNotFound) {
			t.Fatalf("still there: %v", err)
		}
		if err := s.Delete(ctx, "a", 0); !errors.Is(err, voices.ErrNotFound) {
			t.Fatalf("second delete: %v", err)
		}
	}},
	{"delete of a stale version is ErrStale and keeps the voice", func(t *testing.T, s voices.Store) {
		v := mustCreate(t, s, Voice("a", "A"))
		if _, err := s.Update(ctx, v); err != nil {
			t.Fatal(err)
		}
		if err := s.Delete(ctx, "a", 1); !errors.Is(err, voices.ErrStale) {
			t.Fatalf("got %v, want ErrStale", err)
		}
		if err := s.Delete(ctx, "a", 2); err != nil {
			t.Fatalf("delete of the current version: %v", err)
		}
	}},
	{"import adds the absent voices only, and twice adds nothing", func(t *testing.T, s voices.Store) {
		edited := mustCreate(t, s, Voice("b", "Edited by hand"))
		batch := []voices.Voice{Voice("a", "A"), Voice("b", "B from the engine"), Voice("c", "C")}
		if n, err := s.Import(ctx, batch); err != nil || n != 2 {
			t.Fatalf("first import added %d (%v), want 2", n, err)
		}
		if n, err := s.Import(ctx, batch); err != nil || n != 0 {
			t.Fatalf("second import added %d (%v), want 0", n, err)
		}
		same(t, mustGet(t, s, "b"), edited)
		if got := mustGet(t, s, "c"); got.Version != 1 || got.Name != "C" {
			t.Fatalf("imported %+v", got)
		}
	}},
	{"concurrent imports add each voice once", func(t *testing.T, s voices.Store) {
		var batch []voices.Voice
		for i := range 30 {
			batch = append(batch, Voice(fmt.Sprintf("v%02d", i), fmt.Sprintf("Voice %d", i)))
		}
		var wg sync.WaitGroup
		added := make([]int, 3)
		for i := range added {
			wg.Go(func() {
				n, err := s.Import(ctx, batch)
				if err != nil {
					t.Error(err)
				}
				added[i] = n
			})
		}
		wg.Wait()
		if sum := added[0] + added[1] + added[2]; sum != 30 {
			t.Fatalf("imports added %v, %d in all, want 30", added, sum)
		}
		if r := search(t, s, voices.Query{Limit: 100}); r.Total != 30 {
			t.Fatalf("total %d", r.Total)
		}
	}},
	{"search text needs every word in name, description or tags, ignoring case", func(t *testing.T, s voices.Store) {
		a := Voice("a", "Old Sailor")
		b := Voice("b", "Narrator")
		b.Description = "A gruff SAILOR from Leith"
		c := Voice("c", "Plain")
		c.Tags = []string{"sailor", "calm"}
		d := Voice("d", "Quiet")
		for _, v := range []voices.Voice{a, b, c, d} {
			mustCreate(t, s, v)
		}
		ids(t, search(t, s, voices.Query{Text: "sAiLoR"}), "a", "b", "c")
		ids(t, search(t, s, voices.Query{Text: "sailor calm"}), "c")
		ids(t, search(t, s, voices.Query{Text: "ailo"}), "a", "b", "c")
		ids(t, search(t, s, voices.Query{Text: "leith"}), "b")
		ids(t, search(t, s, voices.Query{Text: "nobody"}))
	}},
	{"search filters language by subtag prefix and gender, age, source and engine exactly", func(t *testing.T, s voices.Store) {
		mk := func(id, lang string, g voices.Gender, a voices.Age, src voices.Source, engine string) {
			v := Voice(id, "Voice "+id)
			v.Language, v.Gender, v.Age, v.Source, v.Engine = lang, g, a, src, engine
			mustCreate(t, s, v)
		}
		mk("1", "en-us", voices.GenderFemale, voices.AgeYoung, voices.SourceEngine, "kokoro")
		mk("2", "en-gb", voices.GenderMale, voices.AgeOld, voices.SourceDesign, "kokoro")
		mk("3", "en", voices.GenderMale, voices.AgeOld, voices.SourceBuiltin, "espeak-ng")
		mk("4", "eng", voices.GenderNeutral, "", voices.SourceEngine, "Kokoro")
		ids(t, search(t, s, voices.Query{Language: "en"}), "1", "2", "3")
		ids(t, search(t, s, voices.Query{Language: "en-gb"}), "2")
		ids(t, search(t, s, voices.Query{Gender: voices.GenderMale}), "2", "3")
		ids(t, search(t, s, voices.Query{Age: voices.AgeOld, Source: voices.SourceDesign}), "2")
		ids(t, search(t, s, voices.Query{Engine: "kokoro"}), "1", "2")
		ids(t, search(t, s, voices.Query{Engine: "espeak-ng", Language: "en"}), "3")
	}},
	{"search pages with total, count, offset, has_more and next_offset", func(t *testing.T, s voices.Store) {
		for i := range 7 {
			mustCreate(t, s, Voice(fmt.Sprintf("v%d", i), fmt.Sprintf("Voice %d", i)))
		}
		r := search(t, s, voices.Query{Limit: 3, Offset: 3})
		ids(t, r, "v3", "v4", "v5")
		if r.Total != 7 || r.Count != 3 || r.Offset != 3 || !r.HasMore || r.NextOffset == nil || *r.NextOffset != 6 {
			t.Fatalf("page %+v", r)
		}
		r = search(t, s, voices.Query{Limit: 3, Offset: 6})
		if r.Total != 7 || r.Count != 1 || r.HasMore || r.NextOffset != nil {
			t.Fatalf("last page %+v", r)
		}
		r = search(t, s, voices.Query{Limit: 3, Offset: 50})
		if r.Total != 7 || r.Count != 0 || len(r.Items) != 0 || r.HasMore {
			t.Fatalf("page past the end %+v", r)
		}
	}},
	{"search puts voices named for the text first, then by name ignoring case, then id", func(t *testing.T, s voices.Store) {
		a := Voice("a", "zeta")
		a.Description = "a calm voice"
		for _, v := range []voices.Voice{a, Voice("b", "Calm Bob"), Voice("c", "calm anna"), Voice("d", "Calm anna")} {
			mustCreate(t, s, v)
		}
		ids(t, search(t, s, voices.Query{Text: "calm"}), "c", "d", "b", "a")
		ids(t, search(t, s, voices.Query{}), "c", "d", "b", "a")
	}},
	{"search agrees with the in-memory reference on a random library", func(t *testing.T, s voices.Store) {
		lib := RandomLibrary(rand.New(rand.NewPCG(7, 7)), 150)
		if n, err := s.Import(ctx, lib); err != nil || n != len(lib) {
			t.Fatalf("import: %d, %v", n, err)
		}
		for i := range lib {
			lib[i].Version = 1
		}
		r := rand.New(rand.NewPCG(8, 8))
		for i := range 40 {
			q, err := voices.NormalizeQuery(RandomQuery(r))
			if err != nil {
				t.Fatal(err)
			}
			want, got := voices.Search(lib, q), search(t, s, q)
			if !reflect.DeepEqual(idsOf(got), idsOf(want)) || got.Total != want.Total || got.HasMore != want.HasMore {
				t.Fatalf("query %d %+v: got %v of %d, want %v of %d", i, q, idsOf(got), got.Total, idsOf(want), want.Total)
			}
		}
	}},
	{"search hides a deleted voice and shows an edit at once", func(t *testing.T, s voices.Store) {
		v := mustCreate(t, s, Voice("a", "Before"))
		mustCreate(t, s, Voice("b", "Other"))
		v.Name = "After"
		if _, err := s.Update(ctx, v); err != nil {
			t.Fatal(err)
		}
		ids(t, search(t, s, voices.Query{Text: "after"}), "a")
		ids(t, search(t, s, voices.Query{Text: "before"}))
		if err := s.Delete(ctx, "b", 0); err != nil {
			t.Fatal(err)
		}
		ids(t, search(t, s, voices.Query{}), "a")
	}},
}

// Voice is a valid engine voice for tests.
func Voice(id, name string) voices.Voice {
	return voices.Voice{
		ID: id, Name: name, Language: "en-us", Accent: "American",
		Gender: voices.GenderFemale, Age: voices.AgeMiddleAged, Tags: []string{"warm"},
		Source: voices.SourceEngine, Engine: "kokoro", EngineVoice: "af_" + id,
		Created: at(1), Updated: at(2),
	}
}

func at(sec int) time.Time { return time.Date(2026, 1, 2, 3, 4, sec, 5000, time.UTC) }

var words = []string{"warm", "calm", "gruff", "bright", "narrator", "sailor", "anna", "bob", "deep", "soft", "Élodie", "straße"}

// RandomLibrary makes n valid voices with overlapping words and attributes,
// so searches select varied subsets.
func RandomLibrary(r *rand.Rand, n int) []voices.Voice {
	langs := []string{"en", "en-us", "en-gb", "fr-fr", "de", "eng"}
	engines := []string{"kokoro", "espeak-ng", "LocalAI"}
	out := make([]voices.Voice, n)
	for i := range out {
		v := Voice(fmt.Sprintf("r%04d", i), pick(r, words)+" "+pick(r, words))
		v.Description = pick(r, words) + " and " + pick(r, words)
		v.Tags = []string{pick(r, words), pick(r, words)}
		v.Language, v.Engine = pick(r, langs), pick(r, engines)
		v.Gender = pick(r, append(slices.Clone(voices.Genders), ""))
		v.Age = pick(r, append(slices.Clone(voices.Ages), ""))
		v.Source = pick(r, voices.Sources)
		if v.Source == voices.SourceClone {
			v.Consent = &voices.Consent{Confirmed: true, Statement: "yes", At: at(0)}
		}
		out[i] = voices.Normalize(v)
	}
	return out
}

// RandomQuery is a search of up to two words and a filter or two.
func RandomQuery(r *rand.Rand) voices.Query {
	q := voices.Query{Limit: 1 + r.IntN(30), Offset: r.IntN(3) * 10}
	for range r.IntN(3) {
		w := pick(r, words)
		if r.IntN(3) == 0 {
			w = w[:2] // a part of a word
		}
		q.Text += " " + w
	}
	if r.IntN(3) == 0 {
		q.Language = pick(r, []string{"en", "en-gb", "fr", "de"})
	}
	if r.IntN(3) == 0 {
		q.Gender = pick(r, voices.Genders)
	}
	if r.IntN(4) == 0 {
		q.Age = pick(r, voices.Ages)
	}
	if r.IntN(4) == 0 {
		q.Source = pick(r, voices.Sources)
	}
	if r.IntN(4) == 0 {
		q.Engine = pick(r, []string{"kokoro", "espeak-ng"})
	}
	return q
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func mustCreate(t *testing.T, s voices.Store, v voices.Voice) voices.Voice {
	t.Helper()
	got, err := s.Create(ctx, voices.Normalize(v))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func mustGet(t *testing.T, s voices.Store, id string) voices.Voice {
	t.Helper()
	v, err := s.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func search(t *testing.T, s voices.Store, q voices.Query) voices.Result {
	t.Helper()
	q, err := voices.NormalizeQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if r.Count != len(r.Items) {
		t.Fatalf("count %d for %d items", r.Count, len(r.Items))
	}
	return r
}

func idsOf(r voices.Result) []string {
	out := []string{}
	for _, v := range r.Items {
		out = append(out, v.ID)
	}
	return out
}

func ids(t *testing.T, r voices.Result, want ...string) {
	t.Helper()
	// A whole answer's total is its length; a page's is checked by its case.
	whole := r.Offset == 0 && !r.HasMore
	if got := idsOf(r); !slices.Equal(got, append([]string{}, want...)) || (whole && r.Total != len(want)) {
		t.Fatalf("got %v (total %d), want %v", got, r.Total, want)
	}
}

func same(t *testing.T, got, want voices.Voice) {
	t.Helper()
	want = voices.Normalize(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}
