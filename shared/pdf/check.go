package pdf

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// maxFormDepth bounds how deeply nested form XObjects are followed; a
// self-referencing form would otherwise loop.
const maxFormDepth = 8

// CheckPage looks at one page (1-based) with pdfcpu before MuPDF decodes
// anything: every embedded image's declared size against MaxImagePixels (a
// decompression bomb declares far more pixels than its bytes hold), inline
// images (BI … ID … EI in the drawing instructions) included, and the
// page's drawing instructions decoded under MaxContentBytes. A content stream
// that cannot be decoded makes the page broken. Only that page is refused.
// A file pdfcpu cannot read at all (Inspect accepted it on MuPDF's word) is
// not checked here.
func CheckPage(data []byte, page int, lim Limits) error {
	conf := pdfcpuConfig()
	var ctx *model.Context
	err := unpanic(func() (err error) {
		ctx, err = api.ReadContext(bytes.NewReader(data), conf)
		if err == nil {
			err = ctx.EnsurePageCount()
		}
		return err
	})
	if err != nil {
		// Only a file MuPDF opened and loaded every page of passes Inspect
		// without pdfcpu; MuPDF's render budget and page timeout still
		// bound each page.
		return nil
	}
	if misdecrypted(ctx) {
		// What pdfcpu would decode is ciphertext (Inspect sent the file to
		// MuPDF, which decrypts it); MuPDF's budgets bound the page.
		return nil
	}
	if err := unpanic(func() error { return checkPage(ctx, page, lim) }); err != nil {
		var inv *InvalidInputError
		if errors.As(err, &inv) {
			return err
		}
		return invalid(ReasonBrokenPage, page, "the page cannot be checked: %v", err)
	}
	return nil
}

// unpanic runs a pdfcpu call, turning a panic into an error: pdfcpu panics
// on some hostile files (a catalog without /Pages), and one upload must not
// take a worker down.
func unpanic(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("pdfcpu failed on this file (%v)", r)
		}
	}()
	return fn()
}

func checkPage(ctx *model.Context, page int, lim Limits) error {
	if page < 1 || page > ctx.PageCount {
		return invalid(ReasonBrokenPage, page, "the PDF has %d pages", ctx.PageCount)
	}
	dict, _, inherited, err := ctx.PageDict(page, false)
	if errors.Is(err, filter.ErrDecodeLimitExceeded) {
		return invalid(ReasonContentSize, page, "an object the page uses decodes to more than %s (%v)", humanBytes(maxObjectDecode), err)
	}
	if err != nil || dict == nil {
		return invalid(ReasonBrokenPage, page, "the page object cannot be read: %v", err)
	}
	c := pageChecker{xref: ctx.XRefTable, page: page, lim: lim, seen: map[int]bool{}}
	if err := c.contents(dict); err != nil {
		return err
	}
	var res types.Dict
	if inherited != nil {
		res = inherited.Resources
	}
	return c.resources(res, 0)
}

type pageChecker struct {
	xref *model.XRefTable
	page int
	lim  Limits
	seen map[int]bool // object numbers already checked
}

func (c *pageChecker) contents(page types.Dict) error {
	obj, found := page.Find("Contents")
	if !found {
		return nil // a blank page
	}
	// /Contents may be a stream, an array of streams, or a reference to
	// either: an indirect array is as valid as a direct one.
	obj, err := c.xref.Dereference(obj)
	if obj == nil && err == nil {
		return nil // /Contents null: a blank page
	}
	if err != nil {
		return invalid(ReasonBrokenPage, c.page, "the page contents cannot be read: %v", err)
	}
	var streams []types.Object
	switch o := obj.(type) {
	case types.Array:
		streams = o
	default:
		streams = []types.Object{o}
	}
	var total int64
	for _, s := range streams {
		o, err := c.xref.Dereference(s)
		if err != nil {
			return invalid(ReasonBrokenPage, c.page, "a content stream cannot be read: %v", err)
		}
		sd, ok := o.(types.StreamDict)
		if !ok {
			return invalid(ReasonBrokenPage, c.page, "the page contents are not a stream")
		}
		if overBudget(sd, c.lim.MaxContentBytes-total) {
			return invalid(ReasonContentSize, c.page, "the drawing instructions decode to more than %s", humanBytes(c.lim.MaxContentBytes))
		}
		if err := sd.DecodeWithLimit(c.lim.MaxContentBytes - total); err != nil {
			if errors.Is(err, filter.ErrDecodeLimitExceeded) {
				return invalid(ReasonContentSize, c.page, "the drawing instructions decode to more than %s", humanBytes(c.lim.MaxContentBytes))
			}
			return invalid(ReasonBrokenPage, c.page, "a content stream cannot be decoded: %v", err)
		}
		total += int64(len(sd.Content))
		if err := c.inline(sd.Content, "the page"); err != nil {
			return err
		}
	}
	return nil
}

// overBudget reports whether a stream compressed only with FlateDecode (as
// drawing instructions nearly always are) decodes to more than budget
// bytes, counting them as they are inflated rather than holding them:
// pdfcpu's decode under a limit buffers up to the limit, and doubles its
// buffer on the way. A stream it cannot tell of (other filters, bad data)
// is left to the decode.
func overBudget(sd types.StreamDict, budget int64) bool {
	if len(sd.FilterPipeline) == 0 {
		return int64(len(sd.Raw)) > budget
	}
	var r io.Reader = bytes.NewReader(sd.Raw)
	for _, f := range sd.FilterPipeline {
		if f.Name != filter.Flate || len(f.DecodeParms) > 0 {
			return false
		}
		z, err := zlib.NewReader(r)
		if err != nil {
			return false
		}
		r = z
	}
	n, _ := io.Copy(io.Discard, io.LimitReader(r, budget+1))
	return n > budget
}

// inline checks the inline images of decoded drawing instructions.
func (c *pageChecker) inline(content []byte, where string) error {
	return InlineImages(content, func(w, h int64) error {
		if w*h > c.lim.MaxImagePixels {
			return invalid(ReasonImageBudget, c.page, "an inline picture in %s declares %d×%d pixels, over the limit of %d million (a decompression bomb, or a scan far finer than needed)",
				where, w, h, c.lim.MaxImagePixels/1_000_000)
		}
		return nil
	})
}

func (c *pageChecker) resources(res types.Dict, depth int) error {
	if res == nil || depth > maxFormDepth {
		return nil
	}
	xobjs, err := c.xref.DereferenceDict(res["XObject"])
	if err != nil || xobjs == nil {
		return nil // no pictures or forms
	}
	for name, ref := range xobjs {
		if ir, ok := ref.(types.IndirectRef); ok {
			if c.seen[ir.ObjectNumber.Value()] {
				continue
			}
			c.seen[ir.ObjectNumber.Value()] = true
		}
		o, err := c.xref.Dereference(ref)
		if err != nil {
			return invalid(ReasonBrokenPage, c.page, "picture %s cannot be read: %v", name, err)
		}
		sd, ok := o.(types.StreamDict)
		if !ok {
			continue
		}
		switch sub := sd.Subtype(); {
		case sub != nil && *sub == "Image":
			w, h := intEntry(sd.Dict, "Width"), intEntry(sd.Dict, "Height")
			if w <= 0 || h <= 0 {
				// A picture without a declared size cannot be a bomb and
				// MuPDF skips what it cannot draw: not this check's concern.
				continue
			}
			if int64(w)*int64(h) > c.lim.MaxImagePixels {
				return invalid(ReasonImageBudget, c.page, "picture %s declares %d×%d pixels, over the limit of %d million (a decompression bomb, or a scan far finer than needed)",
					name, w, h, c.lim.MaxImagePixels/1_000_000)
			}
		case sub != nil && *sub == "Form":
			// A form's own drawing instructions may hold inline pictures;
			// one that cannot be decoded is MuPDF's to skip.
			if sd.DecodeWithLimit(c.lim.MaxContentBytes) == nil {
				if err := c.inline(sd.Content, "form "+name); err != nil {
					return err
				}
			}
			inner, _ := c.xref.DereferenceDict(sd.Dict["Resources"])
			if err := c.resources(inner, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

func intEntry(d types.Dict, key string) int {
	switch v := d[key].(type) {
	case types.Integer:
		return v.Value()
	case types.Float:
		return int(v.Value())
	}
	return 0
}
