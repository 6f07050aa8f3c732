package pdf

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// ErrNotSplit: pdfcpu cannot cut this PDF into pages that show as they do
// in the whole file; every page is read from the whole file instead.
var ErrNotSplit = errors.New("the PDF is not split into pages")

// SplitPages cuts a PDF into one PDF per page with pdfcpu, so that each page
// step reads only its own page. Each page (1-based) is handed to each in
// order, with its PDF or with why that page could not be cut on its own
// (the page is then read from the whole file). An error wrapping
// ErrNotSplit means no page was cut: pdfcpu cannot read the file (MuPDF
// repaired it at Inspect), or the file has what a page alone would lose.
// An error from each stops the split and is returned as it is.
func SplitPages(data []byte, each func(page int, single []byte, err error) error) error {
	lim := DefaultLimits()
	ctx, _, err := readContext(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("%w: pdfcpu cannot read it (%v)", ErrNotSplit, err)
	}
	return Info{parsed: ctx, limits: lim}.SplitPages(each)
}

// SplitPages is the package's SplitPages for the file Inspect returned i
// for: the pages are cut from what Inspect parsed, not from a second
// reading of the whole file (for a 500-page issue the second reading was
// Prepare's peak of memory). Only how pages are written is set on it.
func (i Info) SplitPages(each func(page int, single []byte, err error) error) error {
	ctx := i.parsed
	if i.limits.MaxContentBytes <= 0 {
		i.limits = DefaultLimits()
	}
	if ctx == nil {
		return fmt.Errorf("%w: pdfcpu cannot read it (%v)", ErrNotSplit, i.unparsed)
	}
	if why := wholeDocumentOnly(ctx); why != "" {
		return fmt.Errorf("%w: %s", ErrNotSplit, why)
	}
	// Compressing each page's objects into an object stream costs an eighth
	// of the split's time and saves a few kilobytes a page.
	ctx.Conf.WriteObjectStream = false
	for n := 1; n <= ctx.PageCount; n++ {
		var single []byte
		err := unpanic(func() (err error) {
			single, err = splitPage(ctx, n, i.limits)
			return err
		})
		if err := each(n, single, err); err != nil {
			return err
		}
	}
	return nil
}

// wholeDocumentOnly names what the document catalog holds that changes how
// its pages look, and that a page cut out by pdfcpu would lose: optional
// content (layers hidden by default would show). "" when there is none.
func wholeDocumentOnly(ctx *model.Context) string {
	root, err := ctx.Catalog()
	if err != nil {
		return fmt.Sprintf("its catalog cannot be read (%v)", err)
	}
	if _, ok := root.Find("OCProperties"); ok {
		return "it has optional content (layers), which a page cut out alone would lose"
	}
	if form, err := ctx.DereferenceDict(root["AcroForm"]); err == nil && form != nil {
		if need := form.BooleanEntry("NeedAppearances"); need != nil && *need {
			// MuPDF draws such fields from the form's defaults, which
			// pdfcpu does not carry over to a page.
			return "its form fields are drawn from the form's defaults (NeedAppearances), which a page cut out alone would lose"
		}
	}
	return ""
}

// splitPage writes page n of ctx as a PDF of its own: the page with what
// it inherits from the page tree (resources, boxes, rotation) and every
// object it uses. pdfcpu's ExtractPages decodes the page's whole drawing
// instructions under no limit of ours, so they are decoded under the
// page's content budget first (as CheckPage does): a page over it is not
// cut out but stays in the uploaded PDF, where its page step refuses it on
// its own.
func splitPage(ctx *model.Context, n int, lim Limits) ([]byte, error) {
	dict, _, inherited, err := ctx.PageDict(n, false)
	if err != nil {
		return nil, err
	}
	c := pageChecker{xref: ctx.XRefTable, page: n, lim: lim, seen: map[int]bool{}}
	if err := c.contents(dict); err != nil {
		return nil, err
	}
	one, err := pdfcpu.ExtractPages(ctx, []int{n}, false)
	if err != nil {
		return nil, err
	}
	// pdfcpu carries the inherited MediaBox, but not an inherited CropBox,
	// which is what MuPDF draws.
	if inherited != nil && inherited.CropBox != nil {
		if err := one.EnsurePageCount(); err != nil {
			return nil, err
		}
		dict, _, _, err := one.PageDict(1, false)
		if err != nil {
			return nil, err
		}
		if _, own := dict.Find("CropBox"); !own {
			dict["CropBox"] = inherited.CropBox.Array()
		}
	}
	if err := copyOutputIntents(ctx, one); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := api.WriteContext(one, &buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// copyOutputIntents gives the page the document's output intents: MuPDF
// converts CMYK with their ICC profile, and without it a page's colours
// come out a level off (seen on the FAA handbook sample).
func copyOutputIntents(from, to *model.Context) error {
	root, err := from.Catalog()
	if err != nil {
		return err
	}
	intents, ok := root.Find("OutputIntents")
	if !ok {
		return nil
	}
	copied, err := copyObject(from, to, intents.Clone(), map[int]int{})
	if err != nil {
		return fmt.Errorf("output intents: %w", err)
	}
	dest, err := to.Catalog()
	if err != nil {
		return err
	}
	dest["OutputIntents"] = copied
	return nil
}

// copyObject copies o, and every object it refers to, from one PDF into
// another (pdfcpu's own migration is not exported). done maps object
// numbers already copied to their new numbers.
func copyObject(from, to *model.Context, o types.Object, done map[int]int) (types.Object, error) {
	switch o := o.(type) {
	case types.IndirectRef:
		if n, ok := done[o.ObjectNumber.Value()]; ok {
			return *types.NewIndirectRef(n, 0), nil
		}
		target, err := from.Dereference(o)
		if err != nil {
			return nil, err
		}
		if target != nil {
			target = target.Clone()
		}
		n, err := to.InsertObject(target)
		if err != nil {
			return nil, err
		}
		done[o.ObjectNumber.Value()] = n
		// Copied in place: the inserted object is the same value.
		if _, err := copyObject(from, to, target, done); err != nil {
			return nil, err
		}
		return *types.NewIndirectRef(n, 0), nil
	case types.Dict:
		for k, v := range o {
			c, err := copyObject(from, to, v, done)
			if err != nil {
				return nil, err
			}
			o[k] = c
		}
		return o, nil
	case types.StreamDict:
		if _, err := copyObject(from, to, o.Dict, done); err != nil {
			return nil, err
		}
		return o, nil
	case types.Array:
		for i, v := range o {
			c, err := copyObject(from, to, v, done)
			if err != nil {
				return nil, err
			}
			o[i] = c
		}
		return o, nil
	}
	return o, nil
}
