package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"slices"
	"strings"
	"time"

	"github.com/lectern/lectern/shared/issues"
	"github.com/lectern/lectern/shared/magazine"
	"github.com/lectern/lectern/shared/pdf"
)

// SplitRecords says which pages of an issue Prepare stored as PDFs of their
// own (issues.Repo).
type SplitRecords interface {
	Split(ctx context.Context, id string) (issues.PageSplit, error)
}

// pagePDFs reads an issue's pages for one step: each page from its own PDF
// when Prepare stored one, else from the uploaded PDF (read at most once).
// A page step then reads kilobytes, not the whole upload (up to 200 MiB).
type pagePDFs struct {
	m      *Pages
	id     string
	split  issues.PageSplit
	source []byte
}

func (m *Pages) openPDFs(ctx context.Context, id string) (*pagePDFs, error) {
	p := &pagePDFs{m: m, id: id}
	if m.Splits == nil {
		return p, nil
	}
	split, err := m.Splits.Split(ctx, id)
	switch {
	case errors.Is(err, issues.ErrNotFound):
		// Ingested before pages were split: every page is in the upload.
	case err != nil:
		return nil, transient(fmt.Errorf("read how issue %s was split: %w", id, err))
	default:
		p.split = split
	}
	return p, nil
}

// page is the PDF that holds page n, and n's number in it.
func (p *pagePDFs) page(ctx context.Context, n int) ([]byte, int, error) {
	if p.split.Own(n) {
		data, err := p.m.read(ctx, p.m.Blobs, issues.PagePDFKey(p.id, n), p.m.Limits.MaxBytes)
		return data, 1, err
	}
	if p.source == nil {
		data, err := p.m.Source(ctx, p.id)
		if err != nil {
			return nil, 0, err
		}
		p.source = data
	}
	return p.source, n, nil
}

// last is want, or the last page when the issue's page count is known and
// smaller: a neighbour past the end is not looked for in the whole upload.
func (p *pagePDFs) last(want int) int {
	if p.split.Pages > 0 {
		return min(want, p.split.Pages)
	}
	return want
}

// render draws a page at dpi (pdf.Render) once its pixels fit in the
// process's render memory (Pages.reserve). The caller calls release when it
// is done with the pixels it works on at once (encoding them, reading
// them): the image itself may live on, in the render cache.
func (p *pagePDFs) render(ctx context.Context, page magazine.Page, dpi int) (img *image.RGBA, release func(), err error) {
	return p.draw(ctx, page, dpi, false, nil)
}

// draw is render, into bytes from pixels (nil: new ones); withText also
// reads the page's text layer in the same MuPDF pass (pdf.RenderWithText)
// and keeps it for text to hand out, unless it is kept already (Recognize
// reads a page's neighbours, so the next page's layer is often read before
// that page is drawn).
func (p *pagePDFs) draw(ctx context.Context, page magazine.Page, dpi int, withText bool, pixels pdf.Pixels) (img *image.RGBA, release func(), err error) {
	if withText {
		_, kept := p.m.texts.get(p.textKey(page.Number))
		withText = !kept
	}
	data, at, err := p.page(ctx, page.Number)
	if err != nil {
		return nil, nil, err
	}
	release, err = p.m.reserve(ctx, renderBytes(page, dpi))
	if err != nil {
		return nil, nil, err
	}
	if withText {
		var drawn pdf.Drawn
		if drawn, err = pdf.RenderWithText(ctx, data, at, dpi, p.m.Limits, pixels); err == nil {
			img = drawn.Image
			if drawn.TextErr == nil {
				p.m.texts.put(p.textKey(page.Number), cloneTextPage(drawn.Text), textCacheSize)
			}
		}
	} else {
		img, err = pdf.Render(ctx, data, at, dpi, p.m.Limits, pixels)
	}
	if err != nil {
		release()
		return nil, nil, pageNumbered(err, page.Number)
	}
	return img, release, nil
}

func (p *pagePDFs) textKey(n int) string { return fmt.Sprintf("%s/%d", p.id, n) }

// text reads page n's text layer (pdf.TextLayer). Recognize reads each page
// and its neighbours, so a layer read once is kept (Pages.texts) and handed
// out as a copy: callers may change what they get.
func (p *pagePDFs) text(ctx context.Context, n int) (magazine.TextPage, error) {
	key := p.textKey(n)
	if tp, ok := p.m.texts.get(key); ok {
		return cloneTextPage(tp), nil
	}
	data, at, err := p.page(ctx, n)
	if err != nil {
		return magazine.TextPage{}, err
	}
	tp, err := pdf.TextLayer(ctx, data, at, p.m.Limits)
	if err != nil {
		return tp, pageNumbered(err, n)
	}
	p.m.texts.put(key, cloneTextPage(tp), textCacheSize)
	return tp, nil
}

// cloneTextPage copies a text page down to its lines.
func cloneTextPage(tp magazine.TextPage) magazine.TextPage {
	tp.Blocks = slices.Clone(tp.Blocks)
	for i := range tp.Blocks {
		tp.Blocks[i].Lines = slices.Clone(tp.Blocks[i].Lines)
	}
	tp.Pictures = slices.Clone(tp.Pictures)
	return tp
}

// pageNumbered names the issue's page n in a page refusal made on the
// page's own PDF, where it is page 1.
func pageNumbered(err error, n int) error {
	var inv *pdf.InvalidInputError
	if !errors.As(err, &inv) || inv.Page == 0 || inv.Page == n {
		return err
	}
	named := *inv
	named.Page = n
	return &named
}

// splitMargin is the time Prepare keeps for its page records after
// splitting: pages not split by then are read from the uploaded PDF.
const splitMargin = 30 * time.Second

// splitPages cuts the uploaded PDF into one PDF per page and stores each
// at issues.PagePDFKey, recording which pages have one. A page pdfcpu cannot
// cut alone, or a file it cannot split at all, is read from the uploaded
// PDF instead (as before pages were split): the record's note says why.
// Only a failed store fails (for a retry).
func (s *Steps) splitPages(ctx context.Context, id string, info pdf.Info) error {
	pages := len(info.Pages)
	record := issues.PageSplit{Pages: pages}
	stored := make([]bool, pages+1)
	var whyNot []string
	errOutOfTime := errors.New("Prepare ran short of time")
	err := info.SplitPages(func(n int, single []byte, err error) error {
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < splitMargin {
			return errOutOfTime
		}
		if n > pages {
			return nil // pdfcpu counts more pages than Inspect: those are never asked for
		}
		if err != nil {
			whyNot = append(whyNot, fmt.Sprintf("page %d: %v", n, err))
			return nil
		}
		if err := s.Pages.Blobs.Put(ctx, issues.PagePDFKey(id, n), bytes.NewReader(single), "application/pdf"); err != nil {
			return transient(fmt.Errorf("store page %d of issue %s: %w", n, id, err))
		}
		stored[n] = true
		return nil
	})
	switch {
	case errors.Is(err, pdf.ErrNotSplit), errors.Is(err, errOutOfTime):
		whyNot = append(whyNot, err.Error())
	case err != nil:
		return err
	}
	for n := 1; n <= pages; n++ {
		if !stored[n] {
			record.Whole = append(record.Whole, n)
		}
	}
	if len(record.Whole) > 0 {
		record.Note = capText(fmt.Sprintf("%d of %d pages are read from the uploaded PDF: %s", len(record.Whole), pages, strings.Join(whyNot, "; ")))
	}
	if err := s.Repo.PutSplit(ctx, id, record); err != nil {
		return transient(err)
	}
	return nil
}
