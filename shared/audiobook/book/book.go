package book

// Book is a book's text and its chapters. See the package comment for the
// offset conventions.
type Book struct {
	Title  string
	Author string
	// Text is the book's text kept exactly; every offset refers to it.
	Text     string
	Chapters []Chapter
}

// Chapter is one chapter of a Book: Text[Start:End], heading included.
type Chapter struct {
	// Index is the chapter's position in Book.Chapters, from 0.
	Index int
	// Title is the heading as found (e.g. "CHAPTER I. Down the Rabbit-Hole",
	// or the EPUB table of contents' label), spaces collapsed.
	Title string
	// Start and End are byte offsets into Book.Text.
	Start, End int
}

// Body is the chapter's text.
func (c Chapter) Body(text string) string { return text[c.Start:c.End] }
