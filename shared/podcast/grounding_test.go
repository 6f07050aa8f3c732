package podcast

import (
	"reflect"
	"testing"
)

var groundingArticle = Article{
	Title:  "The Harbour Bridge",
	Byline: "Jo Park",
	Paragraphs: []string{
		"The council of Westport voted on Tuesday to spend $3,200 on repairs. Mayor Maria Lopez said the bridge carries 1200 cars a day.",
		`Engineers from Atlas Works found rust on 40% of the beams. "We will fix it before the winter storms," said Lopez's deputy, Dr. Sam Okafor.`,
		"Work starts in May and should take 2.5 months.",
	},
}

func TestCheckGrounding(t *testing.T) {
	tests := []struct {
		name  string
		turns []string
		want  []Violation
	}{
		{
			name: "a grounded script passes",
			turns: []string{
				"Welcome. Today: The Harbour Bridge, by Jo Park.",
				"So Ben, the council in Westport voted to spend $3,200. That's according to Mayor Maria Lopez.",
				`Right, Ada. And Lopez's deputy said “we will fix it before the winter storms.” Engineers at Atlas Works found rust on 40% of beams.`,
				"I think the timing matters. It starts in May, on a Tuesday vote, and takes 2.5 months. Dr. Okafor agrees.",
			},
		},
		{
			name:  "numbers formatted differently pass",
			turns: []string{"It carries 1,200 cars a day, and repairs cost 3200 dollars, so 40 percent of beams."},
		},
		{
			name:  "an invented number is one violation",
			turns: []string{"Welcome.", "The council will spend $3,400 on repairs."},
			want:  []Violation{{Turn: 1, Kind: KindNumber, Text: "$3,400"}},
		},
		{
			name:  "an invented quote is one violation",
			turns: []string{`The deputy said "we will never fix the bridge" on Tuesday.`},
			want:  []Violation{{Turn: 0, Kind: KindQuote, Text: "we will never fix the bridge"}},
		},
		{
			name:  "an invented name is one violation",
			turns: []string{"Welcome.", "Back to you.", "The plan was drawn up by Peter Grant for the council."},
			want:  []Violation{{Turn: 2, Kind: KindName, Text: "Peter Grant"}},
		},
		{
			name:  "a single invented name mid-sentence is a violation",
			turns: []string{"The engineers work with Siemens on it."},
			want:  []Violation{{Turn: 0, Kind: KindName, Text: "Siemens"}},
		},
		{
			name:  "a name that extends a real one is a violation",
			turns: []string{"The mayor, Maria Lopez Garcia, agreed."},
			want:  []Violation{{Turn: 0, Kind: KindName, Text: "Maria Lopez Garcia"}},
		},
		{
			name:  "the same invention twice in a turn is listed once",
			turns: []string{"It cost 99 and then 99 again."},
			want:  []Violation{{Turn: 0, Kind: KindNumber, Text: "99"}},
		},
		{
			name:  "a short quoted word is not a quotation",
			turns: []string{`They call it the "old bridge" in Westport.`},
		},
		{
			name:  "quotes are compared ignoring case, spacing and trailing punctuation",
			turns: []string{`She said: "We   will fix it before the WINTER storms!"`},
		},
		{
			name:  "host names, months, days and I are allowed",
			turns: []string{"Well, Ada, I think work in May beats a start in June or on Friday. Ben agrees, I'm sure."},
		},
		{
			name:  "a decimal changed is a violation",
			turns: []string{"It takes 2.6 months."},
			want:  []Violation{{Turn: 0, Kind: KindNumber, Text: "2.6"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := Script{Title: groundingArticle.Title, Hosts: testHosts}
			for i, text := range tt.turns {
				script.Turns = append(script.Turns, Turn{Host: i % 2, Text: text})
			}
			got := CheckGrounding(groundingArticle, script)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestDeterministicScriptIsGrounded(t *testing.T) {
	script, err := DeterministicScript(groundingArticle, testHosts)
	if err != nil {
		t.Fatal(err)
	}
	if got := CheckGrounding(groundingArticle, script); len(got) != 0 {
		t.Errorf("the deterministic script has violations: %+v", got)
	}
}

func TestNormaliseNumber(t *testing.T) {
	tests := []struct{ a, b string }{
		{"1,200", "1200"},
		{"$3,200", "3200"},
		{"40%", "40"},
		{"2.50", "2.5"},
		{"1,000,000", "1000000"},
	}
	for _, tt := range tests {
		t.Run(tt.a+" is "+tt.b, func(t *testing.T) {
			if normaliseNumber(tt.a) != normaliseNumber(tt.b) {
				t.Errorf("%q → %q, %q → %q", tt.a, normaliseNumber(tt.a), tt.b, normaliseNumber(tt.b))
			}
		})
	}
}
