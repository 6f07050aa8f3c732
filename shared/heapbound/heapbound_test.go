package heapbound

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

const mib = 1 << 20

// heapMetrics reads the heap's objects (live and not yet swept) and the
// number of collections so far.
func heapMetrics() (objects, cycles uint64) {
	m := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(m)
	return m[0].Value.Uint64(), m[1].Value.Uint64()
}

// churn allocates total bytes of garbage in chunks and writes each, as a
// page pass does with its pixels, and answers the most the heap held at
// once. (Writing matters: a loop that only allocates outruns the collector's
// marking, and what it allocates meanwhile counts as live.)
func churn(total int) (peak uint64) {
	pattern := filled(256 << 10)
	var keep []byte
	for range total / len(pattern) {
		keep = make([]byte, len(pattern))
		copy(keep, pattern)
		if objects, _ := heapMetrics(); objects > peak {
			peak = objects
		}
	}
	runtime.KeepAlive(keep)
	return peak
}

// filled is n bytes written through (copy writes them as one range, which
// the race detector checks at once rather than byte by byte).
func filled(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// The tests below change the process's memory limit and collector, so none
// runs in parallel.

func TestTheHeapGrowsOnlyTheMarginPastWhatIsLive(t *testing.T) {
	live := filled(96 * mib)
	runtime.GC()

	unbounded := churn(600 * mib)

	b := Start(8 * mib)
	defer b.Stop()
	runtime.GC() // the bound hears of it and sets the limit
	bounded := churn(600 * mib)
	runtime.KeepAlive(live)

	// Go's default lets the heap reach about twice the live heap (192 MiB,
	// more with garbage not yet swept); bounded, the goal is 96 + max(8,
	// 96/4) = 120 MiB. The collector runs while the program allocates and
	// frees only when it sweeps: 24 MiB of slack.
	t.Logf("peak heap: %d MiB unbounded, %d MiB bounded (live 96 MiB); limit %d MiB", unbounded/mib, bounded/mib, b.Limit()/mib)
	if want := uint64(96+24+24) * mib; bounded > want {
		t.Errorf("bounded heap peaked at %d MiB, want at most %d MiB", bounded/mib, want/mib)
	}
	if unbounded < 170*mib {
		t.Errorf("unbounded heap peaked at %d MiB; the test expects Go's default to let it near 192 MiB, or it shows nothing", unbounded/mib)
	}
}

func TestALiveHeapPastTheLimitIsNotCollectedWithoutEnd(t *testing.T) {
	b := Start(4 * mib)
	defer b.Stop()
	runtime.GC()

	// The live heap jumps far past the limit set when it was small.
	pattern := filled(mib)
	var live [][]byte
	for range 192 {
		chunk := make([]byte, mib)
		copy(chunk, pattern)
		live = append(live, chunk)
	}
	_, start := heapMetrics()
	churn(256 * mib)
	_, end := heapMetrics()
	runtime.KeepAlive(live)

	// The limit follows the live heap up after a collection, and with 192
	// MiB live the margin is a quarter of it (48 MiB): about 256/48 ≈ 6
	// collections for 256 MiB of garbage. A limit stuck below the live heap
	// would collect after every few allocations (hundreds of cycles).
	if cycles := end - start; cycles > 16 {
		t.Errorf("%d collections for 256 MiB of garbage over 192 MiB live; want about 6", cycles)
	}
	if after := b.Limit(); after < (192+40)*mib {
		t.Errorf("limit %d MiB with 192 MiB live: it did not follow the live heap up (want it and about a quarter more)", after/mib)
	}
}

func TestStopLiftsTheLimit(t *testing.T) {
	b := Start(8 * mib)
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got == math.MaxInt64 {
		t.Fatal("no memory limit while bounded")
	}
	b.Stop()
	b.Stop() // twice is harmless
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after Stop = %d, want none", got)
	}
	runtime.GC() // a finalizer armed before Stop must not set it again
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after collections following Stop = %d, want none", got)
	}
}

func TestAUsersGOMEMLIMITStands(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := debug.SetMemoryLimit(-1)
	b := Start(8 * mib)
	if b != nil {
		b.Stop()
		t.Fatal("Start bounded the heap though GOMEMLIMIT is set")
	}
	runtime.GC()
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("limit = %d, want it left at %d", got, before)
	}
	b.Stop() // a nil bound stops harmlessly
}
