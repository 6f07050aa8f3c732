package pdf

/*
#cgo CFLAGS: -I${SRCDIR}/third_party/mupdf/include
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mupdf/fitz.h>
#ifdef __GLIBC__
#include <malloc.h>

// MuPDF's memory comes from malloc on whichever thread runs the page, and
// glibc gives each new thread an arena of its own (up to eight per core),
// each keeping what it freed: over a long issue the process held more and
// more. As many arenas as cores is what the page passes running at once
// (one per core) need.
//
// Blocks from 128 KiB up (a page's display list, fonts, decoded pictures) are
// mapped on their own and unmapped when freed. glibc's own threshold starts
// there too but rises to the largest block freed so far (up to 32 MiB), after
// which such blocks come from the arenas, where the holes they leave grew the
// process page after page on a long issue. Setting it fixes it in place.
__attribute__((constructor)) static void lectern_arenas(void) {
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	mallopt(M_ARENA_MAX, cores > 2 ? (int)cores : 2);
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
	mallopt(M_TRIM_THRESHOLD, 1 << 20);
}
#endif

typedef struct {
	unsigned char *data;
	size_t len;
	int w, h;           // render size in pixels
	float pw, ph;       // page size in points
	int errors;         // errors MuPDF recovered from while running the page
	char *error;        // set when the call failed
	char *first_error;  // the first error MuPDF recovered from, if any
	size_t names_at;    // structured text: where the font names start in data
	int over_budget;    // MuPDF was refused memory past the budget
	size_t wanted;      // the largest request refused
} lectern_result;

// lectern_budget bounds the memory one MuPDF context holds at once. MuPDF
// asks its allocator for every byte it uses (a picture's samples, a pixmap,
// its cache), so refusing requests past the budget turns a picture that
// declares billions of pixels into a failed allocation, not gigabytes.
typedef struct {
	size_t used, limit;
	size_t retry;   // a refused request MuPDF may still retry after emptying its cache
	int refused;    // requests refused for good
	size_t wanted;  // the largest request refused
} lectern_budget;

// Each block carries its size ahead of it; 16 bytes keep malloc's alignment.
#define LECTERN_HEADER 16

// lectern_settle notes a request: MuPDF answers a refusal by emptying its
// cache and asking again for the same size, so only a refusal followed by a
// different request (or by none) was final.
static void lectern_settle(lectern_budget *b, size_t size) {
	if (b->retry && b->retry != size)
		b->refused++;
	b->retry = 0;
}

static int lectern_fits(lectern_budget *b, size_t size) {
	if (size <= b->limit && b->used <= b->limit - size)
		return 1;
	b->retry = size;
	if (size > b->wanted)
		b->wanted = size;
	return 0;
}

static void *lectern_malloc(void *user, size_t size) {
	lectern_budget *b = user;
	lectern_settle(b, size);
	if (!lectern_fits(b, size))
		return NULL;
	unsigned char *p = malloc(size + LECTERN_HEADER);
	if (!p)
		return NULL;
	*(size_t *)p = size;
	b->used += size;
	return p + LECTERN_HEADER;
}

static void lectern_free(void *user, void *ptr) {
	lectern_budget *b = user;
	if (!ptr)
		return;
	unsigned char *p = (unsigned char *)ptr - LECTERN_HEADER;
	b->used -= *(size_t *)p;
	free(p);
}

static void *lectern_realloc(void *user, void *old, size_t size) {
	lectern_budget *b = user;
	if (!old)
		return lectern_malloc(user, size);
	if (size == 0) {
		lectern_free(user, old);
		return NULL;
	}
	lectern_settle(b, size);
	unsigned char *p = (unsigned char *)old - LECTERN_HEADER;
	size_t had = *(size_t *)p;
	b->used -= had;
	if (!lectern_fits(b, size)) {
		b->used += had;
		return NULL;
	}
	unsigned char *q = realloc(p, size + LECTERN_HEADER);
	if (!q) {
		b->used += had;
		return NULL;
	}
	*(size_t *)q = size;
	b->used += size;
	return q + LECTERN_HEADER;
}

// lectern_context makes a MuPDF context whose every allocation counts
// against b. Its cache gets a quarter of the budget, so most of the budget
// is left for the page itself.
static fz_context *lectern_context(lectern_budget *b, size_t limit) {
	memset(b, 0, sizeof *b);
	b->limit = limit;
	fz_alloc_context alloc = { b, lectern_malloc, lectern_realloc, lectern_free };
	return fz_new_context(&alloc, NULL, limit / 4);
}

// lectern_over says whether MuPDF was refused memory for good.
static int lectern_over(lectern_budget *b) {
	return b->refused > 0 || b->retry != 0;
}

// lectern_glyph is one record of a page's structured text, in reading
// order: a text block starts, a line starts, a character, a picture.
enum { LECTERN_BLOCK = 1, LECTERN_LINE = 2, LECTERN_CHAR = 3, LECTERN_IMAGE = 4 };
typedef struct {
	int kind;
	int c;                // the character (LECTERN_CHAR)
	int font;             // index into the font names; -1 when unknown
	float x0, y0, x1, y1; // the character's quad as a box, or the picture's box
	float size;           // font size
} lectern_glyph;

#define LECTERN_MAX_FONTS 1024

// lectern_stext walks MuPDF's structured text (blocks → lines → chars) into
// glyph records in buf and the fonts' names, each ending in a NUL, in names.
static void lectern_stext(fz_context *ctx, fz_stext_page *text, fz_buffer *buf, fz_buffer *names) {
	fz_font *fonts[LECTERN_MAX_FONTS];
	int nfonts = 0, last = -1;
	for (fz_stext_block *b = text->first_block; b; b = b->next) {
		lectern_glyph g;
		memset(&g, 0, sizeof g);
		g.font = -1;
		if (b->type == FZ_STEXT_BLOCK_IMAGE) {
			g.kind = LECTERN_IMAGE;
			g.x0 = b->bbox.x0; g.y0 = b->bbox.y0; g.x1 = b->bbox.x1; g.y1 = b->bbox.y1;
			fz_append_data(ctx, buf, &g, sizeof g);
			continue;
		}
		if (b->type != FZ_STEXT_BLOCK_TEXT)
			continue;
		g.kind = LECTERN_BLOCK;
		fz_append_data(ctx, buf, &g, sizeof g);
		for (fz_stext_line *l = b->u.t.first_line; l; l = l->next) {
			g.kind = LECTERN_LINE;
			fz_append_data(ctx, buf, &g, sizeof g);
			for (fz_stext_char *ch = l->first_char; ch; ch = ch->next) {
				if (last < 0 || fonts[last] != ch->font) {
					last = -1;
					for (int i = 0; i < nfonts; i++)
						if (fonts[i] == ch->font) { last = i; break; }
					if (last < 0 && nfonts < LECTERN_MAX_FONTS && ch->font) {
						// The name as MuPDF prints it: without a subset tag.
						const char *name = fz_font_name(ctx, ch->font);
						const char *plus = strchr(name, '+');
						name = plus ? plus + 1 : name;
						fz_append_data(ctx, names, name, strlen(name) + 1);
						fonts[nfonts] = ch->font;
						last = nfonts++;
					}
				}
				fz_rect box = fz_rect_from_quad(ch->quad);
				g.kind = LECTERN_CHAR;
				g.c = ch->c;
				g.font = last;
				g.x0 = box.x0; g.y0 = box.y0; g.x1 = box.x1; g.y1 = box.y1;
				g.size = ch->size;
				fz_append_data(ctx, buf, &g, sizeof g);
			}
			g.c = 0; g.font = -1; g.size = 0;
			g.x0 = g.y0 = g.x1 = g.y1 = 0;
		}
	}
}

// MuPDF reports the errors it recovers from (a damaged stream, a bad image)
// through these callbacks instead of stderr; the page result keeps a count
// and the first message so a damaged page can be named.
static void lectern_on_error(void *user, const char *message) {
	lectern_result *r = user;
	r->errors++;
	if (!r->first_error) {
		size_t n = strlen(message) + 1;
		r->first_error = malloc(n);
		if (r->first_error) memcpy(r->first_error, message, n);
	}
}

static void lectern_on_warning(void *user, const char *message) {}

static char *lectern_strdup(const char *s) {
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d) memcpy(d, s, n);
	return d;
}

// lectern_open opens an in-memory PDF. A file whose trailer leads MuPDF to
// no pages (a trailer without /Root, which readers repair by scanning the
// objects) is opened again with its startxref hidden, so MuPDF rebuilds
// the cross-reference table from the objects themselves. *copy holds the
// altered bytes, which must outlive the document.
static fz_document *lectern_open(fz_context *ctx, const unsigned char *pdf, size_t n, fz_stream **stm, unsigned char **copy) {
	*stm = fz_open_memory(ctx, pdf, n);
	fz_document *doc = fz_open_document_with_stream(ctx, "application/pdf", *stm);
	if (fz_needs_password(ctx, doc) || fz_count_pages(ctx, doc) > 0)
		return doc;
	size_t from = n > 1024 ? n - 1024 : 0;
	unsigned char *at = NULL;
	for (size_t i = from; i + 9 <= n; i++)
		if (memcmp(pdf + i, "startxref", 9) == 0)
			at = (unsigned char *)pdf + i;
	if (!at)
		return doc;
	fz_drop_document(ctx, doc);
	fz_drop_stream(ctx, *stm);
	*stm = NULL;
	*copy = fz_malloc(ctx, n);
	memcpy(*copy, pdf, n);
	(*copy)[at - pdf + 5] = 'X'; // "startXref": no longer found
	*stm = fz_open_memory(ctx, *copy, n);
	return fz_open_document_with_stream(ctx, "application/pdf", *stm);
}

// lectern_cjk_font stands in for MuPDF's CJK fonts, which the static build
// leaves out. Without one, a PDF that names a CJK font without embedding it
// fails to load that font and MuPDF reads its two-byte codes as Latin-1
// (mojibake). A system CJK font is used when installed, so the glyphs also
// render; else a base-14 font, so the text still decodes through the font's
// CMap to Unicode, though its glyphs do not render.
static fz_font *lectern_cjk_font(fz_context *ctx, const char *name, int ordering, int serif) {
	static const char *paths[] = {
		"/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
		"/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
		"/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
		NULL,
	};
	fz_font *font = NULL;
	fz_var(font);
	for (int i = 0; paths[i] && !font; i++) {
		if (access(paths[i], R_OK) != 0)
			continue;
		fz_try(ctx)
			font = fz_new_font_from_file(ctx, NULL, paths[i], 0, 0);
		fz_catch(ctx)
			font = NULL;
	}
	if (!font) {
		fz_try(ctx)
			font = fz_new_base14_font(ctx, serif ? "Times-Roman" : "Helvetica");
		fz_catch(ctx)
			font = NULL;
	}
	return font;
}

// lectern_pass is one MuPDF pass over one page of an in-memory PDF, with a
// context of its own (so passes are independent and may run in parallel)
// and what the pass found in r.
typedef struct {
	lectern_budget budget;
	fz_context *ctx;
	fz_stream *stm;
	fz_document *doc;
	fz_page *page;
	unsigned char *copy;
	fz_rect bounds;
	fz_irect box;    // the render's pixel box (renders)
	fz_matrix ctm;
	lectern_result r;
} lectern_pass;

// lectern_finish records a failure caught in a pass: its message, unless
// MuPDF was refused memory, which is the failure then.
static void lectern_finish(lectern_pass *ps, int failed) {
	if (failed) {
		free(ps->r.data);
		ps->r.data = NULL;
		ps->r.len = 0;
		if (!ps->r.error)
			ps->r.error = lectern_strdup(fz_caught_message(ps->ctx));
		ps->r.errors = 0; // the failure itself is reported, not counted
	}
	// A page MuPDF was refused memory for fails even when MuPDF went on
	// without the part it could not hold: what it drew is not the page.
	if (lectern_over(&ps->budget)) {
		ps->r.over_budget = 1;
		ps->r.wanted = ps->budget.wanted;
		free(ps->r.data);
		ps->r.data = NULL;
		ps->r.len = 0;
	}
}

// lectern_load makes a pass's context and loads its page (0-based). A
// failure is in r.error (or r.over_budget); NULL only when the pass itself
// could not be allocated. lectern_unload frees it either way.
static lectern_pass *lectern_load(const unsigned char *pdf, size_t n, int page_no, size_t max_memory) {
	lectern_pass *ps = calloc(1, sizeof *ps);
	if (!ps)
		return NULL;
	ps->ctx = lectern_context(&ps->budget, max_memory);
	if (!ps->ctx) {
		ps->r.error = lectern_strdup("cannot create a MuPDF context");
		return ps;
	}
	fz_context *ctx = ps->ctx;
	int failed = 0;
	fz_var(failed);
	fz_set_error_callback(ctx, lectern_on_error, &ps->r);
	fz_set_warning_callback(ctx, lectern_on_warning, &ps->r);
	fz_install_load_system_font_funcs(ctx, NULL, lectern_cjk_font, NULL);
	fz_try(ctx) {
		fz_register_document_handlers(ctx);
		ps->doc = lectern_open(ctx, pdf, n, &ps->stm, &ps->copy);
		if (fz_needs_password(ctx, ps->doc))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the PDF is encrypted");
		ps->page = fz_load_page(ctx, ps->doc, page_no);
		ps->bounds = fz_bound_page(ctx, ps->page);
		ps->r.pw = ps->bounds.x1 - ps->bounds.x0;
		ps->r.ph = ps->bounds.y1 - ps->bounds.y0;
	}
	fz_catch(ctx) {
		failed = 1;
	}
	lectern_finish(ps, failed);
	return ps;
}

static int lectern_failed(lectern_pass *ps) {
	return ps->r.error || ps->r.over_budget;
}

// lectern_unload drops the page, its document and the context, and frees
// the pass; its result's strings and data are the caller's to free.
static void lectern_unload(lectern_pass *ps) {
	if (!ps)
		return;
	if (ps->ctx) {
		fz_drop_page(ps->ctx, ps->page);
		fz_drop_document(ps->ctx, ps->doc);
		fz_drop_stream(ps->ctx, ps->stm);
		fz_free(ps->ctx, ps->copy);
		fz_drop_context(ps->ctx);
	}
	free(ps);
}

// lectern_text_page runs a loaded page as structured text: glyph records in
// r.data, then the font names from r.names_at. The cookie lets the caller
// abort a page that takes too long.
static void lectern_text_page(lectern_pass *ps, fz_cookie *cookie) {
	if (lectern_failed(ps))
		return;
	fz_context *ctx = ps->ctx;
	lectern_result *r = &ps->r;
	fz_stext_page *text = NULL;
	fz_device *dev = NULL;
	fz_buffer *buf = NULL;
	fz_buffer *names = NULL;
	int failed = 0;
	fz_var(text); fz_var(dev); fz_var(buf); fz_var(names); fz_var(failed);
	fz_try(ctx) {
		text = fz_new_stext_page(ctx, ps->bounds);
		fz_stext_options opts;
		memset(&opts, 0, sizeof opts);
		opts.flags = FZ_STEXT_PRESERVE_IMAGES;
		dev = fz_new_stext_device(ctx, text, &opts);
		fz_run_page(ctx, ps->page, dev, fz_identity, cookie);
		fz_close_device(ctx, dev);
		buf = fz_new_buffer(ctx, 8192);
		names = fz_new_buffer(ctx, 256);
		lectern_stext(ctx, text, buf, names);
		unsigned char *d = NULL, *nd = NULL;
		size_t len = fz_buffer_storage(ctx, buf, &d);
		size_t nlen = fz_buffer_storage(ctx, names, &nd);
		r->data = malloc(len + nlen + 1);
		if (!r->data)
			fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory");
		if (len) memcpy(r->data, d, len);
		if (nlen) memcpy(r->data + len, nd, nlen);
		r->len = len + nlen;
		r->names_at = len;
		if (cookie)
			r->errors += cookie->errors;
	}
	fz_always(ctx) {
		fz_drop_buffer(ctx, names);
		fz_drop_buffer(ctx, buf);
		fz_drop_device(ctx, dev);
		fz_drop_stext_page(ctx, text);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	lectern_finish(ps, failed);
}

// lectern_render_size sizes the render of a loaded page at dpi (r.w, r.h)
// and refuses one over max_pixels, so the caller can allocate the pixels
// lectern_render_into draws into. A clip (cw, ch > 0: points from the
// page's top-left corner) renders only that part of the page: the draw
// device draws nothing outside the pixel box.
static void lectern_render_size(lectern_pass *ps, int dpi, long long max_pixels, float cx, float cy, float cw, float ch) {
	if (lectern_failed(ps))
		return;
	ps->ctm = fz_scale(dpi / 72.0f, dpi / 72.0f);
	fz_rect area = ps->bounds;
	if (cw > 0 && ch > 0) {
		fz_rect clip = { ps->bounds.x0 + cx, ps->bounds.y0 + cy, ps->bounds.x0 + cx + cw, ps->bounds.y0 + cy + ch };
		area = fz_intersect_rect(area, clip);
	}
	ps->box = fz_round_rect(fz_transform_rect(area, ps->ctm));
	long long w = (long long)ps->box.x1 - ps->box.x0, h = (long long)ps->box.y1 - ps->box.y0;
	if (w <= 0 || h <= 0 || w * h > max_pixels) {
		// MuPDF's own formatter has no %lld: the message is made here.
		char msg[160];
		snprintf(msg, sizeof msg, "a render of %lld x %lld pixels is over the budget of %lld pixels", w, h, max_pixels);
		ps->r.error = lectern_strdup(msg);
		return;
	}
	ps->r.w = (int)w;
	ps->r.h = (int)h;
}

// lectern_render_into draws a sized page into samples, w*h*4 bytes that the
// caller owns: opaque RGBA, the layout of Go's image.RGBA, drawn in place
// rather than drawn into MuPDF's memory and copied out. MuPDF does not keep
// the samples: its pixmap over them is dropped before this returns.
static void lectern_render_into(lectern_pass *ps, unsigned char *samples, fz_cookie *cookie) {
	if (lectern_failed(ps))
		return;
	fz_context *ctx = ps->ctx;
	fz_pixmap *pix = NULL;
	fz_device *dev = NULL;
	int failed = 0;
	fz_var(pix); fz_var(dev); fz_var(failed);
	fz_try(ctx) {
		pix = fz_new_pixmap_with_bbox_and_data(ctx, fz_device_rgb(ctx), ps->box, NULL, 1, samples);
		// Opaque white paper, so alpha stays 255 whatever is drawn over it.
		fz_clear_pixmap_with_value(ctx, pix, 0xff);
		dev = fz_new_draw_device(ctx, ps->ctm, pix);
		fz_run_page(ctx, ps->page, dev, fz_identity, cookie);
		fz_close_device(ctx, dev);
		// Blending over the paper can round its alpha down to 254 (seen
		// under transparency groups); the page is opaque, as drawn without
		// alpha it would be.
		size_t n = (size_t)ps->r.w * ps->r.h * 4;
		for (size_t i = 3; i < n; i += 4)
			samples[i] = 0xff;
		if (cookie)
			ps->r.errors += cookie->errors;
	}
	fz_always(ctx) {
		fz_drop_device(ctx, dev);
		fz_drop_pixmap(ctx, pix);
	}
	fz_catch(ctx) {
		failed = 1;
	}
	lectern_finish(ps, failed);
}

// lectern_inspect opens an in-memory PDF with MuPDF (repairing it if need
// be), counts its pages and, when there are at most max_pages, loads each
// one and stores its size in points in boxes (w, h pairs; malloc'd). Returns
// the page count, or -1 with error set; -2 when the PDF needs a password.
static int lectern_inspect(const unsigned char *pdf, size_t n, int max_pages, size_t max_memory, float **boxes, char **error) {
	*boxes = NULL;
	*error = NULL;
	lectern_budget budget;
	fz_context *ctx = lectern_context(&budget, max_memory);
	if (!ctx) {
		*error = lectern_strdup("cannot create a MuPDF context");
		return -1;
	}
	fz_set_warning_callback(ctx, lectern_on_warning, NULL);
	fz_set_error_callback(ctx, lectern_on_warning, NULL);
	fz_stream *stm = NULL;
	fz_document *doc = NULL;
	fz_page *page = NULL;
	float *b = NULL;
	unsigned char *copy = NULL;
	int count = -1;
	fz_var(stm); fz_var(doc); fz_var(page); fz_var(b); fz_var(count); fz_var(copy);
	fz_install_load_system_font_funcs(ctx, NULL, lectern_cjk_font, NULL);
	fz_try(ctx) {
		fz_register_document_handlers(ctx);
		doc = lectern_open(ctx, pdf, n, &stm, &copy);
		if (fz_needs_password(ctx, doc)) {
			count = -2;
		} else {
			count = fz_count_pages(ctx, doc);
			if (count > 0 && count <= max_pages) {
				b = fz_malloc(ctx, sizeof(float) * 2 * count);
				for (int i = 0; i < count; i++) {
					page = fz_load_page(ctx, doc, i);
					fz_rect r = fz_bound_page(ctx, page);
					b[2*i] = r.x1 - r.x0;
					b[2*i+1] = r.y1 - r.y0;
					fz_drop_page(ctx, page);
					page = NULL;
				}
			}
		}
	}
	fz_always(ctx) {
		fz_drop_page(ctx, page);
		fz_drop_document(ctx, doc);
		fz_drop_stream(ctx, stm);
		fz_free(ctx, copy);
	}
	fz_catch(ctx) {
		fz_free(ctx, b);
		b = NULL;
		count = -1;
		*error = lectern_strdup(fz_caught_message(ctx));
	}
	if (b) {
		*boxes = malloc(sizeof(float) * 2 * count);
		if (*boxes) memcpy(*boxes, b, sizeof(float) * 2 * count);
		fz_free(ctx, b);
	}
	fz_drop_context(ctx);
	return count;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	// go-fitz carries the static MuPDF build this file links against; the
	// headers in ./mupdf are the same version's (1.24.9), copied unchanged.
	_ "github.com/gen2brain/go-fitz"
)

// The glyph records the shim writes are read in text.go (stextGlyph); the
// two layouts must agree.
const (
	_ = uint(C.sizeof_lectern_glyph - glyphSize)
	_ = uint(glyphSize - C.sizeof_lectern_glyph)
)

// MuPDFVersion is the version of the MuPDF this build links.
func MuPDFVersion() (string, error) { return C.FZ_VERSION, nil }

// runPage runs MuPDF on one page (0-based): its structured text, a render
// at want.dpi as opaque RGBA samples drawn straight into Go memory
// (image.RGBA's layout), or both. When ctx ends, MuPDF's cookie is set to
// abort, so a hostile page cannot hold a worker: the call returns soon
// after. MuPDF holds at most maxMemory bytes at once; past that its
// allocations fail and the page fails with a *memoryError.
func runPage(ctx context.Context, pdf []byte, page int, want passWant, maxPixels, maxMemory int64) (pageRun, error) {
	if len(pdf) == 0 {
		return pageRun{}, errors.New("empty PDF")
	}
	// MuPDF keeps pointers into the bytes while it runs, so they live in C
	// memory rather than being pinned Go memory.
	cpdf := C.CBytes(pdf)
	defer C.free(cpdf)
	cookie := (*C.fz_cookie)(C.calloc(1, C.size_t(unsafe.Sizeof(C.fz_cookie{}))))
	defer C.free(unsafe.Pointer(cookie))

	type outcome struct {
		run pageRun
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		runtime.LockOSThread() // MuPDF's setjmp/longjmp must stay on one thread
		defer runtime.UnlockOSThread()
		run, err := pass(cpdf, len(pdf), page, want, maxPixels, maxMemory, cookie)
		done <- outcome{run, err}
	}()
	select {
	case out := <-done:
		return out.run, out.err
	case <-ctx.Done():
		// Writing the abort flag is how MuPDF is meant to be stopped from
		// another thread; the page loop polls it.
		*(*C.int)(unsafe.Pointer(&cookie.abort)) = 1
		<-done
		return pageRun{}, fmt.Errorf("%w (%v)", errAborted, ctx.Err())
	}
}

// pass is runPage's MuPDF work, on one OS thread: load the page; for a
// render, size it, allocate the Go pixels and draw into them; for the text,
// run the page through MuPDF's structured text. A render that also reads
// the text reads it from the page already loaded, its fonts already read,
// and keeps the render when only the text fails.
func pass(cpdf unsafe.Pointer, n, page int, want passWant, maxPixels, maxMemory int64, cookie *C.fz_cookie) (pageRun, error) {
	ps := C.lectern_load((*C.uchar)(cpdf), C.size_t(n), C.int(page), C.size_t(maxMemory))
	if ps == nil {
		return pageRun{}, errors.New("cannot allocate a MuPDF pass")
	}
	defer C.lectern_unload(ps)
	res := &ps.r
	defer func() {
		C.free(unsafe.Pointer(res.data))
		C.free(unsafe.Pointer(res.error))
		C.free(unsafe.Pointer(res.first_error))
	}()
	var run pageRun
	if want.dpi > 0 {
		c := want.clip
		C.lectern_render_size(ps, C.int(want.dpi), C.longlong(maxPixels), C.float(c[0]), C.float(c[1]), C.float(c[2]), C.float(c[3]))
		if C.lectern_failed(ps) == 0 {
			run.pixels = want.pixels.get(int(res.w) * int(res.h) * 4)
			// The pixels hold no Go pointers and MuPDF lets go of them
			// before the call returns, so they may be passed as they are.
			C.lectern_render_into(ps, (*C.uchar)(unsafe.Pointer(&run.pixels[0])), cookie)
		}
	} else {
		C.lectern_text_page(ps, cookie)
	}
	if err := passFailure(res, maxMemory); err != nil {
		return pageRun{}, err
	}
	run.w, run.h = int(res.w), int(res.h)
	run.width, run.height = float64(res.pw), float64(res.ph)
	run.errors, run.firstError = int(res.errors), C.GoString(res.first_error)
	if want.dpi > 0 && want.text {
		// The cookie counts the render's recovered errors already.
		*(*C.int)(unsafe.Pointer(&cookie.errors)) = 0
		C.lectern_text_page(ps, cookie)
		run.textErr = passFailure(res, maxMemory)
	}
	if (want.dpi == 0 || want.text) && run.textErr == nil {
		run.text = C.GoBytes(unsafe.Pointer(res.data), C.int(res.len))
		run.namesAt = int(res.names_at)
	}
	return run, nil
}

// passFailure is the pass's failure so far, or nil.
func passFailure(res *C.lectern_result, maxMemory int64) error {
	if res.over_budget != 0 {
		return &memoryError{wanted: int64(res.wanted), budget: maxMemory}
	}
	if res.error != nil {
		return errors.New(C.GoString(res.error))
	}
	return nil
}

// inspectMuPDF opens a PDF with MuPDF, which repairs what it can (a broken
// cross-reference table, wrong object offsets), and returns its page boxes.
// Every page must load. Pages beyond maxPages are counted, not loaded. MuPDF
// holds at most maxMemory bytes at once.
func inspectMuPDF(pdf []byte, maxPages int, maxMemory int64) (count int, boxes []PageBox, err error) {
	if len(pdf) == 0 {
		return 0, nil, errors.New("empty PDF")
	}
	cpdf := C.CBytes(pdf)
	defer C.free(cpdf)
	var cboxes *C.float
	var cerr *C.char
	runtime.LockOSThread() // MuPDF's setjmp/longjmp must stay on one thread
	n := int(C.lectern_inspect((*C.uchar)(cpdf), C.size_t(len(pdf)), C.int(maxPages), C.size_t(maxMemory), &cboxes, &cerr))
	runtime.UnlockOSThread()
	defer C.free(unsafe.Pointer(cboxes))
	defer C.free(unsafe.Pointer(cerr))
	switch {
	case n == -2:
		return 0, nil, errMuPDFPassword
	case n < 0:
		return 0, nil, errors.New(C.GoString(cerr))
	}
	if cboxes != nil {
		f := unsafe.Slice((*float32)(unsafe.Pointer(cboxes)), 2*n)
		for i := range n {
			boxes = append(boxes, PageBox{Width: float64(f[2*i]), Height: float64(f[2*i+1])})
		}
	}
	return n, boxes, nil
}
