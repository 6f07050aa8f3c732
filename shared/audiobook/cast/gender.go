package cast

import (
	"strings"
	"unicode"
)

// Gender evidence beyond honorifics and pronoun votes: a kinship noun just
// before a name ("her brother Tom", "his wife Mary") and, when nothing in
// the book says, a small lexicon of common English given names.

// kinNouns say the gender of the name that follows them.
var kinNouns = map[string]string{
	"brother": "male", "father": "male", "son": "male", "husband": "male", "uncle": "male",
	"nephew": "male", "grandfather": "male", "grandson": "male",
	"sister": "female", "mother": "female", "daughter": "female", "wife": "female", "aunt": "female",
	"niece": "female", "grandmother": "female", "granddaughter": "female",
}

// kinBefore is the gender a kinship noun right before offset start says
// ("her brother Tom"), or "".
func kinBefore(text string, start int) string {
	s := strings.TrimRightFunc(text[max(0, start-24):start], unicode.IsSpace)
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	w := strings.ToLower(s[i+1:])
	if i >= 0 && !unicode.IsSpace(rune(s[i])) {
		return "" // "brother, Tom" or "brother. Tom": not one phrase
	}
	return kinNouns[w]
}

// givenNameGender is the gender a common English given name usually has,
// for the given name of p (its first word, when p has no article and no
// title, or a given-name title such as Lady or Sir), or "".
func givenNameGender(p phrase) string {
	if p.Article || len(p.Words) == 0 || p.Title != "" && surnameTitles[p.Title] {
		return ""
	}
	return givenNames[strings.ToLower(p.Words[0])]
}

var givenNames = func() map[string]string {
	m := map[string]string{}
	for _, n := range strings.Fields(femaleNames) {
		m[n] = "female"
	}
	for _, n := range strings.Fields(maleNames) {
		m[n] = "male"
	}
	return m
}()

// Common English given names (and a few common European ones) by their
// usual gender; names used for both (Leslie, Robin, Jean) are left out.
const femaleNames = `
abigail ada adela adelaide adele agatha agnes alice alicia amelia amy angela ann anna annabel anne annie
arabella augusta barbara beatrice becky bella bertha bessie betsy betty biddy blanche bridget caroline
cassandra catherine cecilia cecily celia charlotte christina clara clarissa constance cora cynthia daisy
diana dinah dolly dora dorothea dorothy edith edna eleanor elinor eliza elizabeth ella ellen elsie emily
emma esther ethel eugenia eva eve evelina fanny fannie flora florence frances georgiana gertrude grace
gwendolen hannah harriet hattie helen helena henrietta hester hetty hilda honoria ida irene isabel
isabella isabelle jane janet jemima jennie jenny jessie joan josephine judith julia juliet julie kate
katharine katherine kathleen katie kitty laura lavinia leonora letitia letty lilian lilia lily lizzie
lottie louisa louise lucilla lucinda lucy lydia mabel madeleine maggie margaret maria marian marianne
marie marilla marion martha mary matilda maud may meg mildred millicent milly minnie miriam molly muriel
nancy nell nellie nelly nina nora olive olivia pamela patty pauline peggy penelope philippa phoebe polly
priscilla rachel rebecca rosa rosalind rosamond rose ruth sally sarah selina sibyl sophia sophie sophy
stella susan susanna susie sybil sylvia theresa ursula vera victoria violet winifred
`

const maleNames = `
aaron abel abraham adam albert alexander alfred algernon allan alan ambrose amos andrew angus anthony
antony archibald archie arthur augustus basil ben benjamin bernard bertie bill billy bob bobby cecil
charles charley charlie christopher clement colin cyril dan daniel david dick donald douglas duncan
edgar edmund edward edwin ernest eugene ezra felix francis frank fred freddy frederic frederick gabriel
geoffrey george gerald gilbert gregory guy harold harry harvey henry herbert hiram horace howard hubert
hugh humphrey isaac ivan jack jacob jake james jasper jem jim jimmy joe john johnnie johnny jonathan joseph
julian julius kenneth larry lawrence leonard lewis lionel louis luke malcolm mark martin matthew maurice
michael mike moses nathaniel ned neville nicholas noah noel oliver oscar owen patrick paul percy peter
philip ralph randolph raymond reginald richard robert roger roland rupert samuel sam seth sidney silas
simon solomon stanley stephen ted teddy theodore thomas tim timothy toby tom tommy victor vincent walter
wilfred will william willie willy
`

// subjectPronounAfter is pronounAfter at offset end with "him" passed
// over like "her": after a name, "him" is most often someone else
// ("Brett smiled at him"), while he, his, she and hers refer back to it.
func subjectPronounAfter(text string, end int) string {
	toks := tokenize(text, end, min(len(text), end+80))
	kept := toks[:0]
	for _, t := range toks {
		if !strings.EqualFold(t.Text, "him") {
			kept = append(kept, t)
		}
	}
	return pronounAfter(kept, 0)
}

// titleCounts counts, per name word (lower case), the gendered titles the
// text writes before it: Mr. Winterbourne, Mrs. Bennet, Lady Brett Ashley
// (for Brett and for Ashley).
type titleCounts map[string][2]int // {male, female}

// minTitleUses is how often a name word must carry titles of one gender
// only to give a bare name of it that gender.
const minTitleUses = 2

func surnameTitleGenders(names []occurrence) titleCounts {
	tc := titleCounts{}
	for _, o := range names {
		p := o.P
		g := honorifics[p.Title]
		if p.Title == "" || p.Article || g == "" {
			continue
		}
		for _, w := range p.Words {
			if connectors[w] {
				continue
			}
			k := strings.ToLower(w)
			c := tc[k]
			if g == "male" {
				c[0]++
			} else {
				c[1]++
			}
			tc[k] = c
		}
	}
	return tc
}

// of is the gender a bare name has when the text titles it with one gender
// only ("Mr. Winterbourne", never Mrs. or Miss; "Lady Brett"), else "".
func (tc titleCounts) of(p phrase) string {
	if p.Title != "" || p.Article || len(p.Words) != 1 {
		return ""
	}
	c := tc[strings.ToLower(p.Words[0])]
	switch {
	case c[0] >= minTitleUses && c[1] == 0:
		return "male"
	case c[1] >= minTitleUses && c[0] == 0:
		return "female"
	}
	return ""
}
