package pipeline

import (
	"image"
	"slices"
	"sync"
)

// drawnRenders hands the renders Draw made to the page's later steps in the
// same process (FindPictures on a scan, the figure pass) without decoding
// their PNGs, and recycles their pixels: Refine is the ingest's last reader
// of a render, and once it retires the render and every borrower has let
// go, the bytes are drawn into again by a later page. A 150-DPI page is 8
// MiB of pixels; drawing every page into fresh memory made most of the
// garbage that set the process's peak.
type drawnRenders struct {
	mu      sync.Mutex
	entries []*drawnEntry // most recent last
	spare   [][]byte      // pixels no render uses, for the next ones
}

type drawnEntry struct {
	key       string
	img       *image.RGBA
	borrowers int
	retired   bool // no longer handed out; recycled when the last borrower returns it
}

// drawnKept bounds the renders kept for pages whose later steps have not
// come (a page that failed before Refine): enough for the pages the Map
// runs at once. spareKept bounds the pixels kept for reuse.
const (
	drawnKept = 8
	spareKept = 2
)

// put hands out img under key until retire; a render put again replaces
// the old one.
func (d *drawnRenders) put(key string, img *image.RGBA) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.retireLocked(key)
	d.entries = append(d.entries, &drawnEntry{key: key, img: img})
	for len(d.entries) > drawnKept {
		d.retireLocked(d.entries[0].key)
	}
}

// borrow returns the render under key, if it is kept, and what gives it back.
func (d *drawnRenders) borrow(key string) (*image.RGBA, func(), bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	i := slices.IndexFunc(d.entries, func(e *drawnEntry) bool { return e.key == key })
	if i < 0 {
		return nil, nil, false
	}
	e := d.entries[i]
	e.borrowers++
	return e.img, sync.OnceFunc(func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		e.borrowers--
		d.recycleLocked(e)
	}), true
}

// retire stops handing out the render under key; its pixels are reused once
// no borrower holds them.
func (d *drawnRenders) retire(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.retireLocked(key)
}

func (d *drawnRenders) retireLocked(key string) {
	i := slices.IndexFunc(d.entries, func(e *drawnEntry) bool { return e.key == key })
	if i < 0 {
		return
	}
	e := d.entries[i]
	d.entries = slices.Delete(d.entries, i, i+1)
	e.retired = true
	d.recycleLocked(e)
}

func (d *drawnRenders) recycleLocked(e *drawnEntry) {
	if !e.retired || e.borrowers > 0 || e.img == nil {
		return
	}
	pix := e.img.Pix
	e.img = nil
	if len(d.spare) < spareKept {
		d.spare = append(d.spare, pix)
		return
	}
	// Keep the larger: it can take any page the smaller could.
	if i := slices.IndexFunc(d.spare, func(b []byte) bool { return cap(b) < cap(pix) }); i >= 0 {
		d.spare[i] = pix
	}
}

// pixels gives a render n bytes: the smallest spare that holds them, else
// new ones (pdf.Pixels).
func (d *drawnRenders) pixels(n int) []byte {
	d.mu.Lock()
	defer d.mu.Unlock()
	best := -1
	for i, b := range d.spare {
		if cap(b) >= n && (best < 0 || cap(b) < cap(d.spare[best])) {
			best = i
		}
	}
	if best < 0 {
		return make([]byte, n)
	}
	b := d.spare[best][:n]
	d.spare = slices.Delete(d.spare, best, best+1)
	return b
}
