package quiver

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// AddParallel for the grouped states, with the determinism rules of the
// one-call states (ADR-104): validation on the calling goroutine before
// any worker starts; exact reductions cut the visited rows into one
// contiguous part per worker, reduce each into a state of its own and
// merge the parts in input order (the result of Add, whatever the cut);
// the float sum cuts them into shards of 65536 rows, a size that does not
// depend on the worker count, sums each shard on its own and merges the
// shard sums in shard order (so the bits depend on the shard size, never
// on the number of workers). Each part or shard needs tables for every
// group, so the call allocates a state per worker.

// groupPart is one contiguous part of a validated grouped batch: rows
// lo..hi-1 of x, or entries lo..hi-1 of the selection.
func groupPart[T Number](x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, lo, hi int) ([]T, []uint32, []byte, int, []uint32) {
	if hasSel {
		return x, ids, bits, off, sel[lo:hi]
	}
	bs, o := bitSpan(bits, off+lo, hi-lo)
	return x[lo:hi], ids[lo:hi], bs, o, nil
}

// groupVisited is the number of rows a validated batch visits.
func groupVisited(n int, sel []uint32, hasSel bool) int {
	if hasSel {
		return len(sel)
	}
	return n
}

// groupWorkers is the worker count for a grouped batch of n visited rows
// of T in s groups: parallelMinBytes of input per worker, and at least
// as many rows as the tables a worker has to allocate and merge.
func groupWorkers[T Number](workers, n, groups int) int {
	return workerCount(workers, n, max(minPerWorker[T](), 4*groups), n)
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0): the visited rows are cut into
// shards of 65536, each shard's group sums are computed on their own
// (each group's strict fold from +0.0) and added to s's, group by group,
// in shard order, as [GroupSumState.Merge] merges. The bits depend on the
// shard size, never on the worker count; a batch of at most one shard
// gives what Merge of the batch's own state gives. It panics as Add does,
// before any goroutine starts.
func (s *GroupSumState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupSumState.AddParallel", len(x), ids, len(s.sums))
	n := groupVisited(len(x), sel, hasSel)
	shards := (n + shardSize - 1) / shardSize
	w := groupWorkers[T](workers, n, len(s.sums))
	w = min(w, shards)
	if w <= 1 {
		// One shard at a time, on the calling goroutine, into one table.
		tab := make([]T, len(s.sums))
		for k := range shards {
			xs, is, bs, o, ss := groupPart(x, ids, bits, off, sel, hasSel, k*shardSize, min(n, (k+1)*shardSize))
			clear(tab)
			kernel.GroupSumFloat(tab, xs, is, bs, o, ss, hasSel)
			for g, v := range tab {
				s.sums[g] += v
			}
		}
		return
	}
	// Rounds of w shards: worker j sums shard r*w+j into table j, then the
	// tables are added in shard order.
	tabs := make([][]T, w)
	for j := range tabs {
		tabs[j] = make([]T, len(s.sums))
	}
	for r := 0; r < shards; r += w {
		k := min(w, shards-r)
		fork(k, k, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				xs, is, bs, o, ss := groupPart(x, ids, bits, off, sel, hasSel, (r+j)*shardSize, min(n, (r+j+1)*shardSize))
				clear(tabs[j])
				kernel.GroupSumFloat(tabs[j], xs, is, bs, o, ss, hasSel)
			}
		})
		for j := range k {
			for g, v := range tabs[j] {
				s.sums[g] += v
			}
		}
	}
}

// groupParallel cuts a validated batch of n visited rows into w
// contiguous parts, calls add(k, part) for part k on its own goroutine and
// then merge(k) for k in input order on the calling goroutine.
func groupParallel[T Number](x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, w int,
	add func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32), merge func(k int)) {
	n := groupVisited(len(x), sel, hasSel)
	fork(n, w, func(k, lo, hi int) {
		xs, is, bs, o, ss := groupPart(x, ids, bits, off, sel, hasSel, lo, hi)
		add(k, xs, is, bs, o, ss)
	})
	for k := range w {
		merge(k)
	}
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0), with the result of Add. It
// panics as Add does, before any goroutine starts.
func (s *GroupIntSumState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupIntSumState.AddParallel", len(x), ids, len(s.e.ex))
	groupExactParallel(&s.e, x, ids, bits, off, sel, hasSel, workers)
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0), with the result of Add. It
// panics as Add does, before any goroutine starts.
func (s *GroupUintSumState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupUintSumState.AddParallel", len(x), ids, len(s.e.ex))
	groupExactParallel(&s.e, x, ids, bits, off, sel, hasSel, workers)
}

func groupExactParallel[T constraints.Integer](e *groupExact, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, workers int) {
	w := groupWorkers[T](workers, groupVisited(len(x), sel, hasSel), len(e.ex))
	if w <= 1 {
		groupExactAdd(e, x, ids, bits, off, sel, hasSel, "")
		return
	}
	parts := make([]groupExact, w)
	groupParallel(x, ids, bits, off, sel, hasSel, w,
		func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32) {
			parts[k].grow("AddParallel", len(e.ex))
			groupExactAdd(&parts[k], x, ids, bits, off, sel, hasSel, "")
		},
		func(k int) { e.merge(&parts[k]) })
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0), with the result of Add: the
// parts merge in input order, so the first of equal extremes still wins.
// It panics as Add does, before any goroutine starts.
func (s *GroupSummaryState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupSummaryState.AddParallel", len(x), ids, len(s.cells))
	w := groupWorkers[T](workers, groupVisited(len(x), sel, hasSel), len(s.cells))
	if w <= 1 {
		kernel.GroupSummary(s.cells, x, ids, bits, off, sel, hasSel)
		return
	}
	parts := make([]GroupSummaryState[T], w)
	groupParallel(x, ids, bits, off, sel, hasSel, w,
		func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32) {
			p := &parts[k]
			p.Grow(len(s.cells))
			kernel.GroupSummary(p.cells, x, ids, bits, off, sel, hasSel)
		},
		func(k int) { s.Merge(&parts[k]) })
}

// AddParallel counts as Add does, on up to workers goroutines (GOMAXPROCS
// when workers <= 0), with the result of Add. It panics as Add does,
// before any goroutine starts.
func (s *GroupCountState) AddParallel(ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(ids), m)
	groupIDs("GroupCountState.AddParallel", len(ids), ids, len(s.count))
	w := groupWorkers[uint32](workers, groupVisited(len(ids), sel, hasSel), len(s.count))
	if w <= 1 {
		s.add(ids, bits, off, sel, hasSel)
		return
	}
	parts := make([]GroupCountState, w)
	groupParallel(ids, ids, bits, off, sel, hasSel, w,
		func(k int, x []uint32, ids []uint32, bits []byte, off int, sel []uint32) {
			p := &parts[k]
			p.Grow(len(s.count))
			p.add(ids, bits, off, sel, hasSel)
		},
		func(k int) { s.Merge(&parts[k]) })
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0); the sums are exact, so the
// result is that of Add for any worker count. It panics as Add does,
// before any goroutine starts.
func (s *GroupSumReproducibleState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupSumReproducibleState.AddParallel", len(x), ids, len(s.acc))
	n := groupVisited(len(x), sel, hasSel)
	w := workerCount(workers, n, max(reproMinPerWorker, 64*len(s.acc)), n)
	if w <= 1 {
		s.addValidated(x, ids, bits, off, sel, hasSel)
		return
	}
	parts := make([]GroupSumReproducibleState[T], w)
	groupParallel(x, ids, bits, off, sel, hasSel, w,
		func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32) {
			p := &parts[k]
			p.Grow(len(s.acc))
			p.addValidated(x, ids, bits, off, sel, hasSel)
		},
		func(k int) { s.Merge(&parts[k]) })
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0), with the result of Add: the
// parts merge in input order, so the first of equal values still wins.
// It panics as Add does, before any goroutine starts.
func (s *GroupMinState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupMinState.AddParallel", len(x), ids, len(s.acc))
	w := groupWorkers[T](workers, groupVisited(len(x), sel, hasSel), len(s.acc))
	if w <= 1 {
		kernel.GroupMin(s.acc, x, ids, bits, off, sel, hasSel)
		return
	}
	parts := make([]GroupMinState[T], w)
	groupParallel(x, ids, bits, off, sel, hasSel, w,
		func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32) {
			p := &parts[k]
			p.Grow(len(s.acc))
			kernel.GroupMin(p.acc, x, ids, bits, off, sel, hasSel)
		},
		func(k int) { s.Merge(&parts[k]) })
}

// AddParallel adds x to the state as Add does, on up to workers
// goroutines (GOMAXPROCS when workers <= 0), with the result of Add, as
// [GroupMinState.AddParallel] does.
func (s *GroupMaxState[T]) AddParallel(x []T, ids []uint32, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupMaxState.AddParallel", len(x), ids, len(s.acc))
	w := groupWorkers[T](workers, groupVisited(len(x), sel, hasSel), len(s.acc))
	if w <= 1 {
		kernel.GroupMax(s.acc, x, ids, bits, off, sel, hasSel)
		return
	}
	parts := make([]GroupMaxState[T], w)
	groupParallel(x, ids, bits, off, sel, hasSel, w,
		func(k int, x []T, ids []uint32, bits []byte, off int, sel []uint32) {
			p := &parts[k]
			p.Grow(len(s.acc))
			kernel.GroupMax(p.acc, x, ids, bits, off, sel, hasSel)
		},
		func(k int) { s.Merge(&parts[k]) })
}
