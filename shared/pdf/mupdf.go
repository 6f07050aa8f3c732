package pdf

/*
#cgo CFLAGS: -I${SRCDIR}/third_party/mupdf/include
#include <stdlib.h>
#include <string.h>
#include <mupdf/fitz.h>

typedef struct {
	unsigned char *data;
	size_t len;
	int w, h;           // render size in pixels
	float pw, ph;       // page size in points
	int errors;         // errors MuPDF recovered from while running the page
	char *error;        // set when the call failed
	char *first_error;  // the first error MuPDF recovered from, if any
} lectern_result;

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

// lectern_page runs one page of an in-memory PDF through MuPDF: as
// structured-text XML (dpi == 0) or as an RGB render at dpi. Each call has its
// own context, so calls are independent and may run in parallel; the cookie
// lets the caller abort a page that takes too long.
static lectern_result lectern_page(const unsigned char *pdf, size_t n, int page_no, int dpi, long long max_pixels, fz_cookie *cookie) {
	lectern_result r;
	memset(&r, 0, sizeof r);
	fz_context *ctx = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
	if (!ctx) {
		r.error = lectern_strdup("cannot create a MuPDF context");
		return r;
	}
	fz_set_error_callback(ctx, lectern_on_error, &r);
	fz_set_warning_callback(ctx, lectern_on_warning, &r);
	fz_stream *stm = NULL;
	fz_document *doc = NULL;
	fz_page *page = NULL;
	fz_stext_page *text = NULL;
	fz_device *dev = NULL;
	fz_buffer *buf = NULL;
	fz_output *out = NULL;
	fz_pixmap *pix = NULL;
	fz_var(stm); fz_var(doc); fz_var(page); fz_var(text); fz_var(dev); fz_var(buf); fz_var(out); fz_var(pix);
	fz_try(ctx) {
		fz_register_document_handlers(ctx);
		stm = fz_open_memory(ctx, pdf, n);
		doc = fz_open_document_with_stream(ctx, "application/pdf", stm);
		if (fz_needs_password(ctx, doc))
			fz_throw(ctx, FZ_ERROR_GENERIC, "the PDF is encrypted");
		page = fz_load_page(ctx, doc, page_no);
		fz_rect bounds = fz_bound_page(ctx, page);
		r.pw = bounds.x1 - bounds.x0;
		r.ph = bounds.y1 - bounds.y0;
		if (dpi == 0) {
			text = fz_new_stext_page(ctx, bounds);
			fz_stext_options opts;
			memset(&opts, 0, sizeof opts);
			opts.flags = FZ_STEXT_PRESERVE_IMAGES;
			dev = fz_new_stext_device(ctx, text, &opts);
			fz_run_page(ctx, page, dev, fz_identity, cookie);
			fz_close_device(ctx, dev);
			buf = fz_new_buffer(ctx, 8192);
			out = fz_new_output_with_buffer(ctx, buf);
			fz_print_stext_page_as_xml(ctx, out, text, page_no);
			fz_close_output(ctx, out);
			unsigned char *d = NULL;
			size_t len = fz_buffer_storage(ctx, buf, &d);
			r.data = malloc(len ? len : 1);
			if (!r.data)
				fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory");
			memcpy(r.data, d, len);
			r.len = len;
		} else {
			fz_matrix ctm = fz_scale(dpi / 72.0f, dpi / 72.0f);
			fz_irect box = fz_round_rect(fz_transform_rect(bounds, ctm));
			long long pixels = (long long)(box.x1 - box.x0) * (long long)(box.y1 - box.y0);
			if (pixels <= 0 || pixels > max_pixels)
				fz_throw(ctx, FZ_ERROR_LIMIT, "render of %d x %d pixels is over the budget of %lld", box.x1 - box.x0, box.y1 - box.y0, max_pixels);
			pix = fz_new_pixmap_with_bbox(ctx, fz_device_rgb(ctx), box, NULL, 0);
			fz_clear_pixmap_with_value(ctx, pix, 0xff);
			dev = fz_new_draw_device(ctx, ctm, pix);
			fz_run_page(ctx, page, dev, fz_identity, cookie);
			fz_close_device(ctx, dev);
			r.w = fz_pixmap_width(ctx, pix);
			r.h = fz_pixmap_height(ctx, pix);
			size_t stride = fz_pixmap_stride(ctx, pix);
			r.len = (size_t)r.w * 3 * r.h;
			r.data = malloc(r.len ? r.len : 1);
			if (!r.data)
				fz_throw(ctx, FZ_ERROR_GENERIC, "out of memory");
			unsigned char *s = fz_pixmap_samples(ctx, pix);
			for (int y = 0; y < r.h; y++)
				memcpy(r.data + (size_t)y * r.w * 3, s + (size_t)y * stride, (size_t)r.w * 3);
		}
		if (cookie)
			r.errors += cookie->errors;
	}
	fz_always(ctx) {
		fz_drop_output(ctx, out);
		fz_drop_buffer(ctx, buf);
		fz_drop_device(ctx, dev);
		fz_drop_stext_page(ctx, text);
		fz_drop_pixmap(ctx, pix);
		fz_drop_page(ctx, page);
		fz_drop_document(ctx, doc);
		fz_drop_stream(ctx, stm);
	}
	fz_catch(ctx) {
		free(r.data);
		r.data = NULL;
		r.len = 0;
		r.error = lectern_strdup(fz_caught_message(ctx));
		r.errors = 0; // the failure itself is reported, not counted
	}
	fz_drop_context(ctx);
	return r;
}
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime"
	"unsafe"

	// go-fitz carries the static MuPDF build this file links against; the
	// headers in ./mupdf are the same version's (1.24.9), copied unchanged.
	_ "github.com/gen2brain/go-fitz"
)

// pageRun is what one MuPDF pass over a page produced.
type pageRun struct {
	data          []byte
	w, h          int     // render pixels (render passes only)
	width, height float64 // page size in points
	errors        int     // errors MuPDF recovered from (a broken content stream, a bad image)
	firstError    string  // the first of them
}

// errAborted is returned when the context ended and MuPDF was told to stop.
var errAborted = errors.New("stopped: the page took too long")

// runPage runs MuPDF on one page (0-based). dpi 0 extracts structured text;
// otherwise it renders RGB at dpi. When ctx ends, MuPDF's cookie is set to
// abort, so a hostile page cannot hold a worker: the call returns soon after.
func runPage(ctx context.Context, pdf []byte, page, dpi int, maxPixels int64) (pageRun, error) {
	if len(pdf) == 0 {
		return pageRun{}, errors.New("empty PDF")
	}
	// MuPDF keeps pointers into the bytes while it runs, so they live in C
	// memory rather than being pinned Go memory.
	cpdf := C.CBytes(pdf)
	defer C.free(cpdf)
	cookie := (*C.fz_cookie)(C.calloc(1, C.size_t(unsafe.Sizeof(C.fz_cookie{}))))
	defer C.free(unsafe.Pointer(cookie))

	done := make(chan C.lectern_result, 1)
	go func() {
		runtime.LockOSThread() // MuPDF's setjmp/longjmp must stay on one thread
		defer runtime.UnlockOSThread()
		done <- C.lectern_page((*C.uchar)(cpdf), C.size_t(len(pdf)), C.int(page), C.int(dpi), C.longlong(maxPixels), cookie)
	}()
	var res C.lectern_result
	aborted := false
	select {
	case res = <-done:
	case <-ctx.Done():
		// Writing the abort flag is how MuPDF is meant to be stopped from
		// another thread; the page loop polls it.
		*(*C.int)(unsafe.Pointer(&cookie.abort)) = 1
		aborted = true
		res = <-done
	}
	defer C.free(unsafe.Pointer(res.data))
	defer C.free(unsafe.Pointer(res.error))
	defer C.free(unsafe.Pointer(res.first_error))
	if aborted {
		return pageRun{}, fmt.Errorf("%w (%v)", errAborted, ctx.Err())
	}
	if res.error != nil {
		return pageRun{}, errors.New(C.GoString(res.error))
	}
	return pageRun{
		data:       C.GoBytes(unsafe.Pointer(res.data), C.int(res.len)),
		w:          int(res.w),
		h:          int(res.h),
		width:      float64(res.pw),
		height:     float64(res.ph),
		errors:     int(res.errors),
		firstError: C.GoString(res.first_error),
	}, nil
}

// rgbImage wraps packed RGB samples as an image.
func rgbImage(run pageRun) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, run.w, run.h))
	for i, j := 0, 0; i+2 < len(run.data); i, j = i+3, j+4 {
		img.Pix[j], img.Pix[j+1], img.Pix[j+2], img.Pix[j+3] = run.data[i], run.data[i+1], run.data[i+2], 0xff
	}
	return img
}
