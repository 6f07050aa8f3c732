// Package pdf is the adapter between magazine PDFs and the ingest pipeline:
// it validates an upload with pdfcpu (Inspect), checks each page against the
// limits before MuPDF touches it, renders pages and reads their text layer
// with MuPDF. Every MuPDF call runs under a context whose end aborts MuPDF,
// so a hostile page costs at most its timeout.
package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/filter"

	"github.com/lectern/lectern/shared/fault"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Limits bound what one upload and one page may cost. The README states the
// defaults.
type Limits struct {
	MaxBytes        int64         // size of the PDF file
	MaxPages        int           // pages in one PDF
	MaxRenderPixels int64         // pixels of one page render (at any DPI)
	MaxImagePixels  int64         // declared pixels of one embedded image
	MaxContentBytes int64         // decoded content stream bytes of one page
	MaxMemoryBytes  int64         // memory MuPDF may hold at once for one page
	PageTimeout     time.Duration // one MuPDF pass over one page
}

// DefaultLimits: 200 MiB and 500 pages per PDF; a page render at most 60
// million pixels (a tabloid page at 300 DPI is 17 million); an embedded image
// at most 150 million declared pixels (a 600 DPI scan of a tabloid page is 67
// million); 64 MiB of decoded drawing instructions per page; 512 MiB of
// memory for MuPDF per page (a 60-million-pixel render is 180 MB, a
// 150-million-pixel RGB picture 450 MB); 60 s per page.
func DefaultLimits() Limits {
	return Limits{
		MaxBytes:        200 << 20,
		MaxPages:        500,
		MaxRenderPixels: 60_000_000,
		MaxImagePixels:  150_000_000,
		MaxContentBytes: 64 << 20,
		MaxMemoryBytes:  512 << 20,
		PageTimeout:     60 * time.Second,
	}
}

// Reason names why an upload or a page was refused.
type Reason string

const (
	ReasonNotPDF       Reason = "not-a-pdf"
	ReasonCorrupt      Reason = "corrupt"
	ReasonEncrypted    Reason = "encrypted"
	ReasonNoPages      Reason = "no-pages"
	ReasonTooManyPages Reason = "too-many-pages"
	ReasonTooLarge     Reason = "too-large"
	ReasonBrokenPage   Reason = "broken-page"
	ReasonImageBudget  Reason = "image-over-budget" // a decompression bomb, or a scan far finer than needed
	ReasonRenderBudget Reason = "render-over-budget"
	ReasonContentSize  Reason = "content-over-budget"
	ReasonMemoryBudget Reason = "memory-over-budget"
	ReasonTimeout      Reason = "timeout"
)

// InvalidInputError is an upload or page the pipeline refuses for good;
// retrying cannot help. Step Functions matches on its type name.
type InvalidInputError struct {
	Reason Reason
	Page   int // 1-based; 0 for the whole file
	Detail string
}

func (e *InvalidInputError) Error() string {
	if e.Page > 0 {
		return fmt.Sprintf("page %d: %s: %s", e.Page, e.Reason, e.Detail)
	}
	return fmt.Sprintf("%s: %s", e.Reason, e.Detail)
}

// Explanation is the refusal as a user reads it: what is wrong with the
// file and what to do; Error() stays the technical cause.
func (e *InvalidInputError) Explanation() string {
	what, ok := explanations[e.Reason]
	if !ok {
		return ""
	}
	if e.Page > 0 {
		return fmt.Sprintf("Page %d: %s", e.Page, what)
	}
	return what
}

// ExplainText is Explanation for a refusal known only by its text, as it
// reaches the issue record after crossing Step Functions ("corrupt: …",
// "page 3: timeout: …"); "" when text is not a refusal's.
func ExplainText(text string) string {
	e := InvalidInputError{}
	if n, err := fmt.Sscanf(text, "page %d: ", &e.Page); n == 1 && err == nil {
		_, text, _ = strings.Cut(text, ": ")
	}
	reason, _, ok := strings.Cut(text, ": ")
	if !ok {
		return ""
	}
	e.Reason = Reason(reason)
	return e.Explanation()
}

var explanations = map[Reason]string{
	ReasonNotPDF:       "This file is not a PDF. Upload the issue as a PDF file.",
	ReasonCorrupt:      "This PDF is damaged or cut short, so its pages cannot be read. Download or export it again and upload the new copy.",
	ReasonEncrypted:    "This PDF is locked with a password. Remove the password (save an unlocked copy) and upload that.",
	ReasonNoPages:      "This PDF has no pages. Check that it is the right file.",
	ReasonTooManyPages: "This PDF has more pages than Lectern takes. Split it into parts and upload them one by one.",
	ReasonTooLarge:     "This PDF is larger than Lectern takes. Upload a smaller file, or split it into parts.",
	ReasonBrokenPage:   "This page is damaged and could not be read. The other pages are kept; a new copy of the PDF may fix it.",
	ReasonImageBudget:  "A picture on this page is too large to decode safely. A copy of the PDF saved with smaller pictures will read.",
	ReasonRenderBudget: "This page is too large to draw safely. A copy of the PDF with smaller pages will read.",
	ReasonContentSize:  "This page holds too many drawing instructions to read safely. A simplified copy of the PDF will read.",
	ReasonMemoryBudget: "This page needs more memory than Lectern allows for one page. A simplified copy of the PDF will read.",
	ReasonTimeout:      "This page took too long to read and was stopped. A simplified copy of the PDF will read.",
}

// Kind files the refusal: too large, or invalid.
func (e *InvalidInputError) Kind() fault.Kind {
	if e.Reason == ReasonTooLarge {
		return fault.TooLarge
	}
	return fault.Invalid
}

func invalid(reason Reason, page int, format string, args ...any) *InvalidInputError {
	return &InvalidInputError{Reason: reason, Page: page, Detail: fmt.Sprintf(format, args...)}
}

// PageBox is one page's size in points, after its rotation.
type PageBox struct {
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
}

// Info is what Inspect learns of a valid PDF.
type Info struct {
	Pages []PageBox
	Title string
	// parsed is pdfcpu's reading of the file, when pdfcpu could read it:
	// Info.SplitPages cuts pages from it rather than parse the file again.
	parsed *model.Context
	// unparsed is why pdfcpu could not read it (MuPDF repaired it).
	unparsed error
	// limits are those Inspect checked the file against; the split holds
	// each page to them before pdfcpu decodes its drawing instructions.
	limits Limits
}

// Inspect validates a whole PDF with pdfcpu and returns its page boxes. A
// file pdfcpu finds corrupt is still accepted when MuPDF opens it and loads
// every page (MuPDF repairs broken cross-reference tables as readers do). It
// refuses, with an *InvalidInputError: a file over the size limit, one that
// is not a PDF, a corrupt or encrypted one, one with no pages or more than
// the page limit.
func Inspect(data []byte, lim Limits) (Info, error) {
	return InspectFile(bytes.NewReader(data), int64(len(data)), lim)
}

// InspectFile is Inspect for a PDF of size bytes read from file as it is
// needed, so a long issue is never held in memory whole: pdfcpu keeps its
// objects, not the file's bytes. pdfcpu goes on reading file for the
// returned Info's SplitPages, so file stays open until the split is done.
func InspectFile(file io.ReadSeeker, size int64, lim Limits) (Info, error) {
	if err := CheckSize(size, lim); err != nil {
		return Info{}, err
	}
	// The header may follow a little junk (readers allow 1 KiB of it).
	head, err := readSpan(file, 0, min(size, 1024))
	if err != nil {
		return Info{}, err
	}
	if !bytes.Contains(head, []byte("%PDF-")) {
		return Info{}, invalid(ReasonNotPDF, 0, "the file does not start with a PDF header")
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return Info{}, err
	}
	ctx, readable, err := readContext(file)
	var inv *InvalidInputError
	if errors.As(err, &inv) && inv.Reason == ReasonCorrupt {
		// pdfcpu is strict; a file MuPDF opens, repairing it if need be,
		// and whose every page it loads is what readers show: ingest it.
		return inspectRepaired(file, size, lim, inv)
	}
	if err != nil {
		return Info{}, err
	}
	if misdecrypted(ctx) {
		// What pdfcpu would split and check is ciphertext: MuPDF, which
		// decrypts with the empty user password, reads the file instead.
		return inspectRepaired(file, size, lim, invalid(ReasonCorrupt, 0, "the file is encrypted and its cross-reference table damaged"))
	}
	if ctx.PageCount == 0 {
		return Info{}, invalid(ReasonNoPages, 0, "the PDF has no pages")
	}
	if ctx.PageCount > lim.MaxPages {
		return Info{}, invalid(ReasonTooManyPages, 0, "the PDF has %d pages; the limit is %d", ctx.PageCount, lim.MaxPages)
	}
	var dims []types.Dim
	err = unpanic(func() (err error) {
		dims, err = ctx.PageDims()
		return err
	})
	if err != nil {
		return inspectRepaired(file, size, lim, invalid(ReasonCorrupt, 0, "page boxes: %v", err))
	}
	if !readable {
		// The page steps read the file as it is, without pdfcpu's stand-ins:
		// every page would fail there.
		return Info{}, invalid(ReasonCorrupt, 0, "the page tree names %d pages but none of their objects is in the file: it is damaged or cut short", ctx.PageCount)
	}
	info := Info{Pages: make([]PageBox, len(dims)), parsed: ctx, limits: lim}
	for i, d := range dims {
		info.Pages[i] = PageBox{Width: d.Width, Height: d.Height}
	}
	if ctx.Title != "" {
		info.Title = ctx.Title
	}
	return info, nil
}

// CheckSize refuses a file over the size limit, naming its real size.
func CheckSize(size int64, lim Limits) error {
	if size > lim.MaxBytes {
		return TooLarge(size, lim)
	}
	return nil
}

// TooLarge is the refusal of a file over the size limit; size < 0 when the
// file was read only as far as the limit.
func TooLarge(size int64, lim Limits) *InvalidInputError {
	if size < 0 {
		return invalid(ReasonTooLarge, 0, "the file is larger than the limit of %s", humanBytes(lim.MaxBytes))
	}
	return invalid(ReasonTooLarge, 0, "the file is %s; the limit is %s", exactBytes(size), exactBytes(lim.MaxBytes))
}

// exactBytes is humanBytes with the exact count when it was rounded, so a
// file one byte over the limit does not read as the limit itself.
func exactBytes(n int64) string {
	if n < 1<<10 {
		return humanBytes(n)
	}
	return fmt.Sprintf("%s (%d bytes)", humanBytes(n), n)
}

// inspectRepaired is Inspect for a file pdfcpu refused as corrupt: MuPDF
// must open it and load every page, else pdfcpu's refusal stands. MuPDF
// reads it from memory: such files are rare, and within the size limit.
func inspectRepaired(file io.ReadSeeker, size int64, lim Limits, refused *InvalidInputError) (Info, error) {
	// A file cut short (no end-of-file marker near its end) may have lost
	// pages MuPDF cannot know of: pdfcpu's refusal stands.
	tail, err := readSpan(file, max(0, size-1024), min(size, 1024))
	if err != nil {
		return Info{}, err
	}
	if !bytes.Contains(tail, []byte("%%EOF")) {
		return Info{}, refused
	}
	data, err := readSpan(file, 0, size)
	if err != nil {
		return Info{}, err
	}
	n, boxes, err := inspectMuPDF(data, lim.MaxPages, lim.MaxMemoryBytes)
	switch {
	case errors.Is(err, errMuPDFPassword):
		return Info{}, needsPassword()
	case err != nil:
		return Info{}, refused
	case n == 0:
		return Info{}, invalid(ReasonNoPages, 0, "the PDF has no pages")
	case n > lim.MaxPages:
		return Info{}, invalid(ReasonTooManyPages, 0, "the PDF has %d pages; the limit is %d", n, lim.MaxPages)
	}
	return Info{Pages: boxes, unparsed: refused}, nil
}

// needsPassword is the refusal of a file that opens only with a password.
// An encrypted file that opens without one (a password only for changing
// it, or "no copying" restrictions) is decrypted and read as any other.
func needsPassword() *InvalidInputError {
	return invalid(ReasonEncrypted, 0, "the PDF needs a password to open; upload a copy saved without its password")
}

// misdecrypted reports whether pdfcpu reads an encrypted file's streams as
// ciphertext: when it rebuilds a damaged cross-reference table it keeps the
// encryption but derives a wrong key, and every page then fails with a
// zlib error (or, under RC4 without compression, reads as nothing). The
// first page's drawing instructions are the test: they must decode, and
// read as text rather than noise. MuPDF decrypts such files correctly.
func misdecrypted(ctx *model.Context) bool {
	if ctx.E == nil && ctx.Encrypt == nil {
		return false
	}
	var sd types.StreamDict
	err := unpanic(func() error {
		dict, _, _, err := ctx.PageDict(1, false)
		if err != nil || dict == nil {
			return errors.New("no first page")
		}
		o, _ := dict.Find("Contents")
		obj, err := ctx.Dereference(o)
		if arr, ok := obj.(types.Array); ok && err == nil && len(arr) > 0 {
			obj, err = ctx.Dereference(arr[0])
		}
		var ok bool
		if sd, ok = obj.(types.StreamDict); !ok || err != nil {
			return errors.New("no content stream")
		}
		return nil
	})
	if err != nil {
		return false // nothing to judge by: a blank first page
	}
	switch err := sd.DecodeWithLimit(maxObjectDecode); {
	case errors.Is(err, filter.ErrDecodeLimitExceeded):
		return false // decodes, and at length: the page budget judges it
	case err != nil:
		return true
	}
	head := sd.Content[:min(len(sd.Content), 4096)]
	noise := 0
	for _, b := range head {
		if b >= 0x7f || b < 0x20 && !strings.ContainsRune("\n\r\t\f\x00", rune(b)) {
			noise++
		}
	}
	// Drawing instructions are operators and numbers, with at most some
	// binary strings; ciphertext is noise in about 60% of its bytes.
	return noise*3 > len(head)
}

// readSpan reads n bytes of file from offset at.
func readSpan(file io.ReadSeeker, at, n int64) ([]byte, error) {
	if _, err := file.Seek(at, io.SeekStart); err != nil {
		return nil, fmt.Errorf("read the PDF: %w", err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(file, b); err != nil {
		return nil, fmt.Errorf("read the PDF: %w", err)
	}
	return b, nil
}

// readContext reads and validates a PDF with pdfcpu. readable says whether
// at least one page object is in the file as it is: pdfcpu's relaxed
// validation stands in an empty page for a page object the file lost (a file
// cut short keeps its page tree, the pages come later), so this is looked at
// before validation.
func readContext(file io.ReadSeeker) (ctx *model.Context, readable bool, err error) {
	conf := pdfcpuConfig()
	err = unpanic(func() (err error) {
		if ctx, err = api.ReadContext(file, conf); err != nil {
			return fmt.Errorf("read context: %w", err)
		}
		// As CheckPage will read it: the page count from the tree as it is.
		readable = ctx.EnsurePageCount() == nil && anyPageReadable(ctx)
		dropMetadataBomb(ctx)
		if err := api.ValidateContext(ctx); err != nil {
			return fmt.Errorf("validate: %w", err)
		}
		return nil
	})
	if err != nil {
		if errors.Is(err, pdfcpu.ErrWrongPassword) || strings.Contains(err.Error(), "correct password") {
			return nil, false, needsPassword()
		}
		return nil, false, invalid(ReasonCorrupt, 0, "%v", err)
	}
	return ctx, readable, nil
}

// maxObjectDecode bounds each stream pdfcpu decodes on its own (object
// streams, cross-reference streams): pdfcpu's default is 512 MiB a filter,
// and a stream compressed twice took 2.6 GiB before any page budget
// applied. A real object stream holds a few hundred objects in well under
// a megabyte; a page using an object over it fails alone (or MuPDF reads
// the file, when pdfcpu cannot read it at all). Drawing
// instructions have their own budget (Limits.MaxContentBytes).
const maxObjectDecode = 16 << 20

// pdfcpuConfig is how every reading of an upload by pdfcpu is set up. Real
// magazines break small rules of the PDF spec all the time; relaxed
// validation still refuses files whose structure cannot be trusted.
func pdfcpuConfig() *model.Configuration {
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.Limits.MaxDecodeBytes = maxObjectDecode
	return conf
}

// dropMetadataBomb removes the catalog's XMP metadata when it decodes to
// more than maxObjectDecode: pdfcpu's validation decodes it whole under no
// limit but its own (512 MiB a filter), and nothing here reads it.
func dropMetadataBomb(ctx *model.Context) {
	root, err := ctx.Catalog()
	if err != nil {
		return
	}
	if sd, _, err := ctx.DereferenceStreamDict(root["Metadata"]); err == nil && sd != nil && overBudget(*sd, maxObjectDecode) {
		delete(root, "Metadata")
	}
}

// anyPageReadable reports whether some page object of the page tree can be
// read (the first that can ends the search).
func anyPageReadable(ctx *model.Context) bool {
	for n := 1; n <= ctx.PageCount; n++ {
		if dict, _, _, err := ctx.PageDict(n, false); err == nil && dict != nil {
			return true
		}
	}
	return false
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
