package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The multi-core reduce. Every state has AddParallel, which feeds one
// large batch on several goroutines and gives the same bits for any
// worker count and from run to run:
//
//   - Exact reductions (integer sums, min/max and summaries, counts) cut
//     the batch into one contiguous part per worker and merge the parts'
//     results in input order: the result is that of Add, whatever the
//     cut.
//   - Float sums cut the batch into shards of shardSize elements, a
//     number that does not depend on the worker count; each shard is
//     summed on its own in the backend's ADR-013 order and the shard sums
//     are merged in shard order, as SumState.Merge merges (ADR-104).
//
// Validation (and its panics) happens on the calling goroutine before any
// worker starts, and AddParallel returns only when every worker has
// finished. Below parallelMinBytes per worker the batch runs on the
// calling goroutine, through the same cut, so the bits do not depend on
// that either.

// shardSize is the number of elements in one shard of a parallel float
// sum. Changing it changes the bits of parallel float sums above it; it is
// a variable only so that tests can cut small inputs into many shards.
var shardSize = 1 << 16

// parallelMinBytes is the input each worker must have, at least, for a
// goroutine to pay for itself. Measured on the 2-vCPU machine of the
// ledger (int64 SumChecked, float64 Sum and Summarize, the input warm in
// its 32 MiB L3, two workers against the call): 12-39% slower at 1, 2, 4
// and 8 MiB of input, 6-10% faster at 16 MiB, 30-43% faster at 24 and
// 32 MiB. Below the L3's size one core already reads at the cache's
// rate, and a second one adds only its start-up. A variable so that tests
// can run small inputs through the workers.
var parallelMinBytes = 8 << 20

// workerCount is how many goroutines reduce n elements: the caller's
// choice (GOMAXPROCS when workers <= 0), at most one per minPerWorker
// elements and at most parts.
func workerCount(workers, n, minPerWorker, parts int) int {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if per := n / max(1, minPerWorker); per < workers {
		workers = per
	}
	return max(1, min(workers, parts))
}

// minPerWorker is parallelMinBytes in elements of T.
func minPerWorker[T Number]() int {
	var zero T
	return parallelMinBytes / int(unsafe.Sizeof(zero))
}

// fork calls work(k, lo, hi) for the k-th of w contiguous parts of
// [0, parts), on w goroutines, the calling one among them, and returns
// when all have returned.
func fork(parts, w int, work func(k, lo, hi int)) {
	if w <= 1 {
		work(0, 0, parts)
		return
	}
	var wg sync.WaitGroup
	for k := 1; k < w; k++ {
		wg.Go(func() { work(k, parts*k/w, parts*(k+1)/w) })
	}
	work(0, 0, parts/w)
	wg.Wait()
}

// reduceParts reduces the validated input (x, bits, off, sel, hasSel) in
// up to workers contiguous parts of at least minPer elements (or
// selection entries) with f, which receives each part as an input of its
// own (a slice of x with its bitmap span, or a slice of the selection over
// the whole of x), and returns the parts' results in input order.
func reduceParts[T Number, R any](x []T, bits []byte, off int, sel []uint32, hasSel bool, workers, minPer int,
	f func(x []T, bits []byte, off int, sel []uint32, hasSel bool) R) []R {
	n := len(x)
	if hasSel {
		n = len(sel)
	}
	return partsOf(n, workerCount(workers, n, minPer, n), func(lo, hi int) R {
		if hasSel {
			return f(x, bits, off, sel[lo:hi], true)
		}
		bs, o := bitSpan(bits, off+lo, hi-lo)
		return f(x[lo:hi], bs, o, nil, false)
	})
}

// partsOf returns part(lo, hi) for w contiguous parts of [0, n), in order,
// computed on w goroutines (the calling one among them).
func partsOf[R any](n, w int, part func(lo, hi int) R) []R {
	if w <= 1 {
		return []R{part(0, n)}
	}
	out := make([]R, w)
	fork(n, w, func(k, lo, hi int) { out[k] = part(lo, hi) })
	return out
}

// AddParallel feeds x, with the optional Mask m, to the state on up to
// workers goroutines (GOMAXPROCS when workers <= 0). It cuts x into shards
// of 65536 elements, sums each shard on its own and merges the shard sums
// into s in order, as [SumState.Merge] does: the bits depend on the
// backend and on the shard size, never on the number of workers. An x of
// at most one shard gives the state that Merge of x's own state gives
// (for an empty s, that of Add). A selected float sum is a strict fold, so
// a selection runs on the calling goroutine, as Add runs it.
//
// It panics as [Sum] does, before any goroutine starts.
func (s *SumState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // addSelected checks sel
	if hasSel {
		s.addSelected(x, bits, off, sel)
		return
	}
	if len(x) == 0 {
		return
	}
	b := active.Load()
	last := (len(x) - 1) / shardSize // the shard that stays open as the run
	w := workerCount(workers, len(x), minPerWorker[T](), last)
	// The closed shards' one-call sums (each what its own state's Sum
	// gives), on the workers; on the calling goroutine without a closure,
	// so that a batch of one shard allocates nothing.
	sums := make([]T, last)
	if w <= 1 {
		sumShards(b, x, bits, off, sums, 0, last)
	} else {
		fork(last, w, func(_, lo, hi int) { sumShards(b, x, bits, off, sums, lo, hi) })
	}
	// Merge them in order, as Merge would merge their states: the sum so
	// far, plus each shard's sum; then the last shard stays open as the
	// run.
	have := s.b != nil || s.carried
	var c T
	if have {
		c = s.Sum()
	}
	for k, v := range sums {
		if k == 0 && !have {
			c = v
		} else {
			c += v
		}
	}
	s.Reset()
	xs, bs, o := shardOf(x, bits, off, last)
	s.addRun(b, xs, bs, o)
	if have || last > 0 {
		s.carry, s.carried = c, true
	}
}

// shardOf is shard k of a float AddParallel's validated input: its
// elements and their bitmap span.
func shardOf[T constraints.Float](x []T, bits []byte, off, k int) ([]T, []byte, int) {
	start, end := k*shardSize, min(len(x), (k+1)*shardSize)
	bs, o := bitSpan(bits, off+start, end-start)
	return x[start:end], bs, o
}

// sumShards puts the one-call sums on b of shards lo..hi-1 in sums.
func sumShards[T constraints.Float](b *backend, x []T, bits []byte, off int, sums []T, lo, hi int) {
	for k := lo; k < hi; k++ {
		xs, bs, o := shardOf(x, bits, off, k)
		sums[k] = sumFloatOn(b, xs, bs, o)
	}
}

// AddParallel feeds x, with the optional Mask m, to the state on up to
// workers goroutines (GOMAXPROCS when workers <= 0), with the result of
// Add. It panics as [SumInt] does, before any goroutine starts.
func (s *IntSumState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	b := active.Load()
	for _, p := range reduceParts(x, bits, off, sel, hasSel, workers, minPerWorker[T](), func(x []T, bits []byte, off int, sel []uint32, hasSel bool) num.Int128 {
		return exactOn(b, x, bits, off, sel, hasSel)
	}) {
		s.sum = s.sum.Add128(p)
	}
}

// AddParallel feeds x, with the optional Mask m, to the state on up to
// workers goroutines (GOMAXPROCS when workers <= 0), with the result of
// Add. It panics as [SumUint] does, before any goroutine starts.
func (s *UintSumState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	b := active.Load()
	for _, p := range reduceParts(x, bits, off, sel, hasSel, workers, minPerWorker[T](), func(x []T, bits []byte, off int, sel []uint32, hasSel bool) num.Int128 {
		return exactOn(b, x, bits, off, sel, hasSel)
	}) {
		s.sum = s.sum.Add128(p)
	}
}

// summaryPart is the summary of one part of a parallel batch.
type summaryPart[T Number] struct {
	lo, hi       T
	count, nulls int
}

// AddParallel feeds x, with the optional Mask m, to the state on up to
// workers goroutines (GOMAXPROCS when workers <= 0), with the result of
// Add: the parts merge in input order, so the first of equal kernel.Extremes
// still wins. It panics as [Summarize] does, before any goroutine starts.
func (s *SummaryState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	b := active.Load()
	for _, p := range reduceParts(x, bits, off, sel, hasSel, workers, minPerWorker[T](), func(x []T, bits []byte, off int, sel []uint32, hasSel bool) summaryPart[T] {
		lo, hi, count, nulls := summarizeOn(b, x, bits, off, sel, hasSel, kernel.WantBoth)
		return summaryPart[T]{lo, hi, count, nulls}
	}) {
		s.add(p.lo, p.hi, p.count, p.nulls)
	}
}

// AddParallel counts the valid elements among n under the optional Mask m
// on up to workers goroutines (GOMAXPROCS when workers <= 0), with the
// result of Add. It panics as [CountValid] does, before any goroutine
// starts.
func (s *CountState) AddParallel(n int, workers int, m ...Mask) {
	if n < 0 || len(m) == 0 {
		s.Add(n, m...)
		return
	}
	bits, off, sel, hasSel := maskOf(n, m)
	if !hasSel && bits == nil {
		s.count += n
		return
	}
	b := active.Load()
	parts := n
	if hasSel {
		parts = len(sel)
	}
	// An element is one bit of input (or four bytes of selection); a
	// byte per element keeps the small counts on the calling goroutine.
	for _, c := range partsOf(parts, workerCount(workers, parts, parallelMinBytes, parts), func(lo, hi int) int {
		if hasSel {
			return countOn(b, n, bits, off, sel[lo:hi], true)
		}
		bs, o := bitSpan(bits, off+lo, hi-lo)
		return countOn(b, hi-lo, bs, o, nil, false)
	}) {
		s.count += c
	}
}
