// Package heapbound keeps a process's Go heap within a fixed margin of what
// it last found live, instead of Go's default of twice that.
//
// With the default collector (GOGC=100) the heap may grow to twice the live
// heap at the last collection, so a process's peak is twice the largest live
// heap any collection happened to see. Local ingest holds two pages at once,
// each at its fattest for an instant (the render, a PNG being encoded, its
// crops); a 15-page issue may never have a collection land
// on that instant, a 500-page one does. Bounding the growth to a margin
// makes the peak the live heap plus the margin, however long the run.
//
// After every collection the soft memory limit (debug.SetMemoryLimit) is set
// to the live heap, plus the runtime's own memory (stacks, metadata), plus
// the margin: the larger of a fixed margin and a quarter of the live heap.
// The quarter keeps the collector's work per allocated byte within four
// times the default when the live heap is large; the limit follows the live
// heap up after each collection, so a process that needs more than the last
// limit gets it at the next collection rather than collecting without end.
package heapbound

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// Bound is a running bound; Stop ends it.
type Bound struct {
	margin uint64

	mu      sync.Mutex // orders update against Stop: no limit is set after Stop
	stopped bool
	limit   int64 // the last soft limit set, in bytes
}

// Start bounds the heap's growth to margin bytes past the live heap (or a
// quarter of it, whichever is more) until Stop. It does nothing, and
// answers nil, when GOMEMLIMIT is set: the user's limit stands.
func Start(margin uint64) *Bound {
	if os.Getenv("GOMEMLIMIT") != "" {
		return nil
	}
	b := &Bound{margin: margin}
	b.update()
	b.arm()
	return b
}

// Stop ends the bound and lifts the limit.
func (b *Bound) Stop() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.stopped {
		b.stopped = true
		debug.SetMemoryLimit(math.MaxInt64)
	}
}

// Limit is the soft memory limit set after the last collection.
func (b *Bound) Limit() int64 {
	if b == nil {
		return math.MaxInt64
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.limit
}

// sentinel is garbage as soon as it is made; its finalizer runs after the
// collection that finds it, which is how the bound hears of each one. (It
// holds a pointer, so it is not batched with other tiny objects, whose
// finalizers may wait for their neighbours.)
type sentinel struct{ b *Bound }

func (b *Bound) arm() {
	runtime.SetFinalizer(&sentinel{b: b}, func(s *sentinel) {
		if s.b.update() {
			s.b.arm()
		}
	})
}

// update sets the limit from what the last collection found; false once
// the bound is stopped.
func (b *Bound) update() bool {
	m := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
	}
	metrics.Read(m)
	v := func(i int) uint64 {
		if m[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return m[i].Value.Uint64()
	}
	live := v(0)
	// What the runtime holds besides the heap: stacks, GC and span metadata,
	// buffers. The soft limit counts it too.
	heapMapped := v(2) + v(3) + v(4) + v(5)
	other := uint64(0)
	if total := v(1); total > heapMapped {
		other = total - heapMapped
	}
	limit := live + other + max(b.margin, live/4)
	if limit > math.MaxInt64 {
		limit = math.MaxInt64
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return false
	}
	debug.SetMemoryLimit(int64(limit))
	b.limit = int64(limit)
	return true
}
