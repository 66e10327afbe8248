package quiver

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
)

// Grouped reductions (GROUP BY). A grouped state keeps one result per
// group: Add takes a batch of values x, the dense group id of each row
// (ids[i] is the group of x[i], below the state's group count) and the
// usual optional Mask, and adds every participating row to its group.
// Per group the one-call semantics hold: a group's result is the one-call
// reduction over the group's rows, in the order the Mask visits them,
// with the same rules (canonical NaN, the first of equal extremes,
// identities and a count of 0 for a group that saw nothing).
//
// The zero value has no groups; Grow sets the group count, which may
// grow between batches (the new groups start empty). Once the groups are
// sized, Add and the result methods do not allocate. Merge combines the
// state of another partition of the rows group by group, Reset empties
// every group, and AddParallel follows the determinism rules of the
// one-call states (ADR-104). A state is not safe for concurrent use. The
// design, and the order of the grouped float sum, are in docs/adr/106.
//
// Add panics, before the state changes, if len(ids) != len(x), if an id
// is at or above the group count (every id is checked, participating or
// not), or if the Mask is bad as for the one-call reduction.

// groupIDs checks the ids of a batch of n rows for a state of groups
// groups; op names the method in the message.
func groupIDs(op string, n int, ids []uint32, groups int) {
	if len(ids) != n {
		panic(fmt.Sprintf("quiver: %s: %d group ids for %d values", op, len(ids), n))
	}
	// The dense max kernel of a vector backend: a pass a small fraction
	// of the grouped loop that follows. The portable backends' Max (the
	// contract's summary loop) costs more than the grouped loops
	// themselves; they take a plain Go maximum.
	if len(ids) == 0 {
		return
	}
	var mx uint32
	if active.Load().isa <= kernel.Generic {
		mx = kernel.GroupMaxID(ids)
	} else {
		mx = Max(ids)
	}
	if uint64(mx) < uint64(groups) {
		return
	}
	for i, g := range ids {
		if uint64(g) >= uint64(groups) {
			panic(fmt.Sprintf("quiver: %s: group id %d at row %d is out of range for %d groups", op, g, i, groups))
		}
	}
}

// groupIndex checks a group index g of a result method.
func groupIndex(op string, g, groups int) {
	if uint(g) >= uint(groups) {
		panic(fmt.Sprintf("quiver: %s: group %d is out of range for %d groups", op, g, groups))
	}
}

// groupCount checks the argument of Grow.
func groupCount(op string, groups int) {
	if groups < 0 || uint64(groups) > 1<<32 {
		panic(fmt.Sprintf("quiver: %s: group count %d is negative or above 2^32", op, groups))
	}
}

// groupGrow returns t grown to n entries, the new ones set to v.
func groupGrow[E any](t []E, n int, v E) []E {
	old := len(t)
	if n <= old {
		return t
	}
	if n <= cap(t) {
		t = t[:n]
	} else {
		t = append(t[:cap(t)], make([]E, n-cap(t))...)[:n]
	}
	for i := old; i < n; i++ {
		t[i] = v
	}
	return t
}

// GroupSumState is the grouped form of [Sum]: one float sum per group.
//
// Order (ADR-106): a group's sum is the strict left fold from +0.0 of the
// group's participating rows, in the order the batches and their Masks
// visit them: exactly what [Sum] returns over the group's rows on the
// scalar backend (-tags purego), and the same bits on every backend and
// platform and for any split into batches, but for the payload of a NaN
// sum, which the hardware adder picks (ADR-013). It is not the blocked ADR-013
// order of a SIMD backend's one-call Sum; use [SumWindows] for contiguous
// groups (windows) with that order, or [GroupSumReproducibleState] for
// the correctly rounded sum.
//
// Merge adds the merged state's sum to each group's sum so far (the
// left fold of the pieces' sums, as [SumState.Merge]); later batches
// continue each group's fold from there.
type GroupSumState[T constraints.Float] struct {
	sums []T
	undo []T // the sums before a batch whose ids are checked as it is added
}

// Grow raises the group count to groups; the new groups are empty, and a
// count at or below the current one changes nothing. It allocates when
// the tables need room, and panics if groups is negative or above 2^32.
func (s *GroupSumState[T]) Grow(groups int) {
	groupCount("GroupSumState.Grow", groups)
	s.sums = groupGrow(s.sums, groups, 0)
}

// groupCheckInLoop is how many rows per group a dense batch needs for
// the float sum to check its ids in the adding loop (with a copy of the
// sums to restore when one is out of range) rather than in a pass of
// their own: the copy moves 8 bytes or fewer a group, the pass reads 4
// bytes a row and compares them, so one row a group pays for it.
const groupCheckInLoop = 1

// Groups returns the group count.
func (s *GroupSumState[T]) Groups() int { return len(s.sums) }

// Add adds each participating row x[i] to the sum of group ids[i]. It
// panics as described at [GroupSumState], before changing the state.
func (s *GroupSumState[T]) Add(x []T, ids []uint32, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	if bits == nil && !hasSel && len(ids) == len(x) && len(x) >= groupCheckInLoop*len(s.sums) && len(x) > 0 {
		// The ids are checked as the rows are added (no pass of their
		// own, which at 16M rows costs a read of the ids from memory);
		// the sums are copied first, to be restored before the panic.
		s.undo = append(s.undo[:0], s.sums...)
		if k := kernel.GroupSumFloatDense(s.sums, x, ids); k < len(x) {
			copy(s.sums, s.undo)
			groupIDs("GroupSumState.Add", len(x), ids, len(s.sums))
		}
		return
	}
	groupIDs("GroupSumState.Add", len(x), ids, len(s.sums))
	kernel.GroupSumFloat(s.sums, x, ids, bits, off, sel, hasSel)
}

// Merge adds other's sums to s's, group by group (s grows to other's
// group count first). other is not modified.
func (s *GroupSumState[T]) Merge(other *GroupSumState[T]) {
	s.Grow(other.Groups())
	for g, v := range other.sums {
		s.sums[g] += v
	}
}

// Sum returns the sum of group g so far; it panics if g is not below the
// group count.
func (s *GroupSumState[T]) Sum(g int) T {
	groupIndex("GroupSumState.Sum", g, len(s.sums))
	return s.sums[g]
}

// Sums appends the sums of all groups, in group order, to dst.
func (s *GroupSumState[T]) Sums(dst []T) []T { return append(dst, s.sums...) }

// Reset empties every group; the group count and the tables stay.
func (s *GroupSumState[T]) Reset() { clear(s.sums) }

// groupExact is the exact per-group integer sum shared by
// GroupIntSumState and GroupUintSumState. The exact sum of group g is
// ex[g] + hi[g]·2^32 + int64(lo[g]): ex holds what was flushed; lo takes
// rows as int64 values (kernel.GroupAddInt64, which reports an overflow
// of any entry; the chunk is then taken back, the tables flushed and the
// chunk tried again), and hi and lo take split halves (kernel.GroupSumSplit,
// at most 2^30 rows, so lo's share stays below 2^62) for a chunk that
// overflows int64 on its own. Together lo stays within int64.
//
// lo's entries are biased: an entry holds groupBias more than its share
// of the sum, so that the dense Go loop, which needs its entries
// non-negative (kernel.GroupAddInt64), takes shares from -2^62 to 2^62.
type groupExact struct {
	ex    []num.Int128
	hi    []int64
	lo    []int64
	rows  int    // rows in lo through the int64 path since the last flush
	fit   int    // rows the int64 path is expected to take between flushes (0: unknown)
	split int    // rows in the split halves since the last flush
	loose bool   // a masked batch since the last flush: lo may be out of the dense loop's range
	mag   uint64 // a bound on the magnitude of every share in lo (groupBias: only that it is in range)
	exSet bool   // ex may be nonzero (Reset clears it only then)
	hiSet bool   // hi may be nonzero
}

// groupBias is the bias of lo's entries.
const groupBias = 1 << 62

func (e *groupExact) grow(op string, groups int) {
	groupCount(op, groups)
	e.ex = groupGrow(e.ex, groups, num.Int128{})
	e.hi = groupGrow(e.hi, groups, 0)
	e.lo = groupGrow(e.lo, groups, groupBias)
}

// clearLo sets every entry of lo to an empty share (by doubling copies,
// which move memory faster than a loop of stores).
func (e *groupExact) clearLo() {
	if len(e.lo) == 0 {
		return
	}
	e.lo[0] = groupBias
	for k := 1; k < len(e.lo); k *= 2 {
		copy(e.lo[k:], e.lo[:k])
	}
}

// flush moves hi and lo into ex. It returns the largest magnitude of lo's
// entries when the int64 path alone filled them (0 otherwise).
func (e *groupExact) flush() uint64 {
	var big uint64
	if e.split == 0 {
		for g, v := range e.lo[:len(e.ex)] {
			e.ex[g] = e.ex[g].AddInt64(v).Sub(0, groupBias)
			d := v - groupBias
			big = max(big, uint64(d^d>>63))
		}
	} else {
		for g := range e.ex {
			e.ex[g] = e.at(g)
		}
		clear(e.hi)
	}
	e.clearLo()
	e.rows, e.split, e.loose, e.exSet, e.mag = 0, 0, false, true, 0
	return big
}

// refit flushes the tables after e.rows rows of the int64 path and sets
// fit from how full they were: the rows that would take the largest
// entry to 3/4 of the dense loop's range (2^62).
func (e *groupExact) refit(minChunk int) {
	rows := e.rows
	big := e.flush()
	if rows == 0 {
		return
	}
	f := float64(kernel.GroupMaxRows)
	if big > 0 {
		f = min(f, float64(rows)*0.75*(1<<62)/float64(big))
	}
	e.fit = max(int(f), minChunk)
}

// at is the exact sum of group g.
func (e *groupExact) at(g int) num.Int128 {
	h := e.hi[g]
	return e.ex[g].Add(h>>32, uint64(h)<<32).AddInt64(e.lo[g]).Sub(0, groupBias)
}

// groupChunk is the most rows the int64 path takes in one kernel call.
const groupChunk = 1 << 16

// groupExactAdd adds a validated batch, in chunks of visited rows: each
// through the int64 path, which needs no bound on the values; a chunk
// that overflows an entry is taken back (exactly: wrapping subtraction),
// the tables are flushed and the chunk is tried again, halved while it
// still overflows on its own from empty tables; a chunk too small for
// its flush (fewer than 64 rows per group) takes the split halves. The
// number of rows that fit between flushes is estimated at each flush
// from the largest entry (fit), so that the tables are flushed before a
// chunk would overflow them rather than after.
//
// A dense batch whose ids are not checked yet (op names the method, and
// kernel.GroupDenseChecksIDs) has them checked by the int64 path as it
// adds: at an id out of range the batch's rows are taken back, exactly,
// and groupIDs panics.
func groupExactAdd[T constraints.Integer](e *groupExact, x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, op string) {
	n := len(x)
	if hasSel {
		n = len(sel)
	}
	dense := !hasSel && bits == nil
	if dense && e.loose {
		// The dense Go loop needs lo within its range.
		e.refit(64 * len(e.ex))
	}
	x0, ids0 := x, ids
	minChunk := 64 * len(e.ex)
	narrow := kernel.GroupNarrow[T]()
	// small: the chunks may be small enough for the unchecked loop; once
	// one is not, the rest of the batch is not tried.
	small := dense && !narrow && kernel.GroupDenseChecksIDs
	for n > 0 {
		k := min(n, groupChunk)
		if e.fit > 0 && !narrow {
			k = min(k, max(e.fit/4, minChunk))
			if e.rows > 0 && e.rows+k > e.fit {
				e.refit(minChunk)
			}
		}
		if e.rows+k > kernel.GroupMaxRows {
			// Element types of at most 32 bits are added unchecked: at
			// most 2^30 rows between flushes.
			e.flush()
		}
		cx, cids, cbits, coff, csel := groupChunkOf(x, ids, bits, off, sel, hasSel, k)
		if small = small && groupSmall(e, cx); small {
			// Values small enough for the plain loop: its or bounds them.
			done, o := kernel.GroupAddBounded(e.lo, cx, cids)
			if m, ok := groupMoved(o, k); done == k && ok && e.mag+m < groupBias {
				e.mag += m
				e.rows += k
				x, ids = x[k:], ids[k:]
				n -= k
				continue
			}
			kernel.GroupSubInt64(e.lo, cx[:done], cids[:done], nil, 0, nil, false)
			if done < k {
				groupUnadd(e, x0[:len(x0)-len(x)], ids0)
				groupIDs(op, len(x0), ids0, len(e.ex))
				panic("quiver: " + op + ": group ids out of range") // not reached: groupIDs panics
			}
			// Not small after all: the chunk takes the checked loop.
			small = false
		}
		done, ovf := kernel.GroupAddInt64(e.lo, cx, cids, cbits, coff, csel, hasSel)
		if op != "" && done < k {
			// An id out of range (only a dense batch gets here).
			kernel.GroupSubInt64(e.lo, cx[:done], cids[:done], nil, 0, nil, false)
			groupUnadd(e, x0[:len(x0)-len(x)], ids0)
			groupIDs(op, len(x0), ids0, len(e.ex))
			panic("quiver: " + op + ": group ids out of range") // not reached: groupIDs panics
		}
		if !ovf {
			e.rows += k
			e.mag = groupBias
			if !dense {
				e.loose = true
			}
		} else {
			ux, uids, ubits, uoff, usel := groupChunkOf(cx, cids, cbits, coff, csel, hasSel, done)
			kernel.GroupSubInt64(e.lo, ux, uids, ubits, uoff, usel, hasSel)
			if e.rows > 0 || e.split > 0 {
				// The chunk fits in fresh tables, perhaps: flush, remember
				// how many rows fitted, and try again.
				e.fit = max(e.rows, minChunk)
				e.flush()
				continue
			}
			if k > minChunk {
				// The chunk overflows on its own: halve it.
				e.fit = max(k/2, minChunk)
				continue
			}
			// Values so large that 64 rows per group overflow int64: the
			// split halves.
			if e.split+k > kernel.GroupMaxRows {
				e.flush()
			}
			kernel.GroupSumSplit(e.hi, e.lo, cx, cids, cbits, coff, csel, hasSel)
			e.split += k
			e.mag = groupBias
			e.hiSet = true
		}
		n -= k
		if hasSel {
			sel = sel[k:]
		} else {
			x, ids = x[k:], ids[k:]
			bits, off = bitSpan(bits, off+k, len(x))
		}
	}
}

// groupMoved bounds how far k rows whose values or to o moved an entry:
// k·2^bits.Len64(o), when o is non-negative and that is below 2^61.
func groupMoved(o uint64, k int) (uint64, bool) {
	l := bits.Len64(o)
	if int64(o) < 0 || l+bits.Len(uint(k)) > 60 {
		return 0, false
	}
	return uint64(k) << l, true
}

// groupSmall reports whether a dense chunk looks small enough for
// kernel.GroupAddBounded, from its first 64 values (non-negative, and
// their bound times the chunk's rows within lo's room), flushing the
// tables first when they lack the room.
func groupSmall[T constraints.Integer](e *groupExact, x []T) bool {
	var o uint64
	for _, v := range x[:min(len(x), 64)] {
		o |= uint64(int64(v))
	}
	m, ok := groupMoved(o, len(x))
	if !ok {
		return false
	}
	if e.mag+m >= groupBias {
		if e.rows == 0 && e.split == 0 {
			return false
		}
		e.flush()
	}
	return true
}

// groupUnadd takes back exactly the rows x (of groups ids[:len(x)]) that
// were added to e: after a flush, from ex.
func groupUnadd[T constraints.Integer](e *groupExact, x []T, ids []uint32) {
	e.flush()
	var zero T
	for i, v := range x {
		g := ids[i]
		if ^zero < 0 {
			e.ex[g] = e.ex[g].Sub(int64(v)>>63, uint64(int64(v)))
		} else {
			e.ex[g] = e.ex[g].Sub(0, uint64(v))
		}
	}
}

// groupExactChecked is the Add of the exact states: a dense batch has its
// ids checked by the int64 path where it can (kernel.GroupDenseChecksIDs),
// every other batch before it is added.
func groupExactChecked[T constraints.Integer](e *groupExact, op string, x []T, ids []uint32, m []Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	if bits != nil || hasSel || !kernel.GroupDenseChecksIDs || len(ids) != len(x) {
		groupIDs(op, len(x), ids, len(e.ex))
		op = ""
	}
	groupExactAdd(e, x, ids, bits, off, sel, hasSel, op)
}

// groupChunkOf is the first k visited rows of a validated batch.
func groupChunkOf[T any](x []T, ids []uint32, bits []byte, off int, sel []uint32, hasSel bool, k int) ([]T, []uint32, []byte, int, []uint32) {
	if hasSel {
		return x, ids, bits, off, sel[:k]
	}
	bs, o := bitSpan(bits, off, k)
	return x[:k], ids[:k], bs, o, nil
}

func (e *groupExact) merge(o *groupExact) {
	e.grow("Merge", len(o.ex))
	e.exSet = true
	for g := range o.ex {
		e.ex[g] = e.ex[g].Add128(o.at(g))
	}
}

func (e *groupExact) reset() {
	if e.exSet {
		clear(e.ex)
	}
	if e.hiSet {
		clear(e.hi)
	}
	e.clearLo()
	e.rows, e.split, e.loose, e.exSet, e.hiSet, e.mag = 0, 0, false, false, false, 0
}

// GroupIntSumState is the grouped form of [SumInt] and [SumChecked]: the
// exact sum of each group in 128 bits, as [IntSumState] keeps one, so its
// results are those of one call over the group's rows whatever the
// batches, and merges are exact in any order.
type GroupIntSumState[T constraints.Signed] struct {
	e groupExact
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupIntSumState[T]) Grow(groups int) { s.e.grow("GroupIntSumState.Grow", groups) }

// Groups returns the group count.
func (s *GroupIntSumState[T]) Groups() int { return len(s.e.ex) }

// Add adds each participating row x[i] to the sum of group ids[i]. It
// panics as described at [GroupSumState], before changing the state.
func (s *GroupIntSumState[T]) Add(x []T, ids []uint32, m ...Mask) {
	groupExactChecked(&s.e, "GroupIntSumState.Add", x, ids, m)
}

// Merge adds other's sums to s's, group by group, exactly (s grows to
// other's group count first). other is not modified.
func (s *GroupIntSumState[T]) Merge(other *GroupIntSumState[T]) { s.e.merge(&other.e) }

// Sum returns the sum of group g wrapped to int64, as [SumInt] does.
func (s *GroupIntSumState[T]) Sum(g int) int64 {
	groupIndex("GroupIntSumState.Sum", g, len(s.e.ex))
	return int64(s.e.at(g).Lo)
}

// Checked returns the sum of group g as [SumChecked] does.
func (s *GroupIntSumState[T]) Checked(g int) CheckedSum[int64] {
	groupIndex("GroupIntSumState.Checked", g, len(s.e.ex))
	v, o := s.e.at(g).Int64()
	return CheckedSum[int64]{v, o}
}

// Exact returns the exact sum of group g as a new big.Int.
func (s *GroupIntSumState[T]) Exact(g int) *big.Int {
	groupIndex("GroupIntSumState.Exact", g, len(s.e.ex))
	return bigOf(s.e.at(g))
}

// Sums appends the wrapped sums of all groups to dst.
func (s *GroupIntSumState[T]) Sums(dst []int64) []int64 {
	for g := range s.e.ex {
		dst = append(dst, int64(s.e.at(g).Lo))
	}
	return dst
}

// CheckedSums appends the checked sums of all groups to dst.
func (s *GroupIntSumState[T]) CheckedSums(dst []CheckedSum[int64]) []CheckedSum[int64] {
	for g := range s.e.ex {
		v, o := s.e.at(g).Int64()
		dst = append(dst, CheckedSum[int64]{v, o})
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupIntSumState[T]) Reset() { s.e.reset() }

// GroupUintSumState is [GroupIntSumState] for unsigned elements: the
// grouped form of [SumUint] and [SumCheckedUint].
type GroupUintSumState[T constraints.Unsigned] struct {
	e groupExact
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupUintSumState[T]) Grow(groups int) { s.e.grow("GroupUintSumState.Grow", groups) }

// Groups returns the group count.
func (s *GroupUintSumState[T]) Groups() int { return len(s.e.ex) }

// Add adds each participating row x[i] to the sum of group ids[i]. It
// panics as described at [GroupSumState], before changing the state.
func (s *GroupUintSumState[T]) Add(x []T, ids []uint32, m ...Mask) {
	groupExactChecked(&s.e, "GroupUintSumState.Add", x, ids, m)
}

// Merge adds other's sums to s's, group by group, exactly. other is not
// modified.
func (s *GroupUintSumState[T]) Merge(other *GroupUintSumState[T]) { s.e.merge(&other.e) }

// Sum returns the sum of group g wrapped to uint64, as [SumUint] does.
func (s *GroupUintSumState[T]) Sum(g int) uint64 {
	groupIndex("GroupUintSumState.Sum", g, len(s.e.ex))
	return s.e.at(g).Lo
}

// Checked returns the sum of group g as [SumCheckedUint] does.
func (s *GroupUintSumState[T]) Checked(g int) CheckedSum[uint64] {
	groupIndex("GroupUintSumState.Checked", g, len(s.e.ex))
	v, o := s.e.at(g).Uint64()
	return CheckedSum[uint64]{v, o}
}

// Exact returns the exact sum of group g as a new big.Int.
func (s *GroupUintSumState[T]) Exact(g int) *big.Int {
	groupIndex("GroupUintSumState.Exact", g, len(s.e.ex))
	return bigOf(s.e.at(g))
}

// Sums appends the wrapped sums of all groups to dst.
func (s *GroupUintSumState[T]) Sums(dst []uint64) []uint64 {
	for g := range s.e.ex {
		dst = append(dst, s.e.at(g).Lo)
	}
	return dst
}

// CheckedSums appends the checked sums of all groups to dst.
func (s *GroupUintSumState[T]) CheckedSums(dst []CheckedSum[uint64]) []CheckedSum[uint64] {
	for g := range s.e.ex {
		v, o := s.e.at(g).Uint64()
		dst = append(dst, CheckedSum[uint64]{v, o})
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupUintSumState[T]) Reset() { s.e.reset() }

// GroupSummaryState is the grouped form of [Summarize], [Min], [Max] and
// [MinMax]: per group the extremes, the participating count and the null
// count, with the one-call rules (canonical NaN, the first of equal
// values, identities when the group saw nothing). Merging the states of
// consecutive pieces in input order gives the state of their
// concatenation; in any other order only the sign of a zero extreme can
// differ. For the minimum or the maximum alone, [GroupMinState] and
// [GroupMaxState] keep one value per group and cost less per row.
type GroupSummaryState[T Number] struct {
	cells []kernel.GroupCell[T]
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupSummaryState[T]) Grow(groups int) {
	groupCount("GroupSummaryState.Grow", groups)
	s.cells = groupGrow(s.cells, groups, groupFresh[T]())
}

// groupFresh is the cell of a group that saw nothing.
func groupFresh[T Number]() kernel.GroupCell[T] {
	if num.IsFloat[T]() {
		return kernel.GroupCell[T]{Lo: T(math.Inf(1)), Hi: T(math.Inf(-1))}
	}
	return kernel.GroupCell[T]{Lo: num.MaxOf[T](), Hi: num.LowestOf[T]()}
}

// Groups returns the group count.
func (s *GroupSummaryState[T]) Groups() int { return len(s.cells) }

// Add adds each row of x to the summary of group ids[i]: participating
// rows to the extremes and the count, selected invalid ones to the null
// count. It panics as described at [GroupSumState], before changing the
// state.
func (s *GroupSummaryState[T]) Add(x []T, ids []uint32, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	groupIDs("GroupSummaryState.Add", len(x), ids, len(s.cells))
	kernel.GroupSummary(s.cells, x, ids, bits, off, sel, hasSel)
}

// Merge adds to s the state next of the piece of input that follows s's,
// group by group (s grows to next's group count first). next is not
// modified.
func (s *GroupSummaryState[T]) Merge(next *GroupSummaryState[T]) {
	s.Grow(next.Groups())
	for g := range next.cells {
		groupMergeCell(&s.cells[g], &next.cells[g])
	}
}

// groupMergeCell merges the summary n of a group over the piece of input
// that follows c's into c.
func groupMergeCell[T Number](c, n *kernel.GroupCell[T]) {
	c.Count += n.Count
	c.Nulls += n.Nulls
	c.NaN = c.NaN || n.NaN
	if n.Lo < c.Lo { // strict: the earlier of equal values stays
		c.Lo = n.Lo
	}
	if n.Hi > c.Hi {
		c.Hi = n.Hi
	}
}

// MinMax returns the minimum and maximum of group g, as [MinMax] over the
// group's rows.
func (s *GroupSummaryState[T]) MinMax(g int) (lo, hi T) {
	groupIndex("GroupSummaryState.MinMax", g, len(s.cells))
	return s.minMax(g)
}

func (s *GroupSummaryState[T]) minMax(g int) (lo, hi T) {
	c := &s.cells[g]
	switch {
	case c.Count == 0:
		return num.MaxOf[T](), num.LowestOf[T]()
	case c.NaN:
		return num.NaN[T](), num.NaN[T]()
	}
	return c.Lo, c.Hi
}

// Min returns the minimum of group g, as [Min] over the group's rows.
func (s *GroupSummaryState[T]) Min(g int) T {
	groupIndex("GroupSummaryState.Min", g, len(s.cells))
	lo, _ := s.minMax(g)
	return lo
}

// Max returns the maximum of group g, as [Max] over the group's rows.
func (s *GroupSummaryState[T]) Max(g int) T {
	groupIndex("GroupSummaryState.Max", g, len(s.cells))
	_, hi := s.minMax(g)
	return hi
}

// Summary returns the summary of group g, as [Summarize] over the
// group's rows.
func (s *GroupSummaryState[T]) Summary(g int) Summary[T] {
	groupIndex("GroupSummaryState.Summary", g, len(s.cells))
	lo, hi := s.minMax(g)
	return Summary[T]{Min: lo, Max: hi, Count: s.cells[g].Count, Nulls: s.cells[g].Nulls}
}

// Summaries appends the summaries of all groups, in group order, to dst.
func (s *GroupSummaryState[T]) Summaries(dst []Summary[T]) []Summary[T] {
	for g := range s.cells {
		lo, hi := s.minMax(g)
		dst = append(dst, Summary[T]{Min: lo, Max: hi, Count: s.cells[g].Count, Nulls: s.cells[g].Nulls})
	}
	return dst
}

// Mins appends the minimum of every group to dst.
func (s *GroupSummaryState[T]) Mins(dst []T) []T {
	for g := range s.cells {
		lo, _ := s.minMax(g)
		dst = append(dst, lo)
	}
	return dst
}

// Maxs appends the maximum of every group to dst.
func (s *GroupSummaryState[T]) Maxs(dst []T) []T {
	for g := range s.cells {
		_, hi := s.minMax(g)
		dst = append(dst, hi)
	}
	return dst
}

// Reset empties every group; the group count and the tables stay.
func (s *GroupSummaryState[T]) Reset() {
	f := groupFresh[T]()
	for g := range s.cells {
		s.cells[g] = f
	}
}

// GroupCountState is the grouped form of [CountValid]: the number of
// valid rows of each group.
type GroupCountState struct {
	count []int
}

// Grow raises the group count to groups, as [GroupSumState.Grow] does.
func (s *GroupCountState) Grow(groups int) {
	groupCount("GroupCountState.Grow", groups)
	s.count = groupGrow(s.count, groups, 0)
}

// Groups returns the group count.
func (s *GroupCountState) Groups() int { return len(s.count) }

// Add counts, per group, the valid rows among len(ids) rows whose group
// ids are ids, under the optional Mask m (a selection counts its entries,
// duplicates included, as [CountValid] does). It panics if an id is at or
// above the group count or if the Mask is bad for len(ids) rows, before
// changing the state.
func (s *GroupCountState) Add(ids []uint32, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(ids), m)
	if bits == nil && !hasSel {
		// The counting kernel checks each id as it counts and stops at the
		// first one out of range; the rows it counted are taken back
		// before the panic, so no separate pass over the ids is needed.
		if k := kernel.GroupCountDense(s.count, ids); k < len(ids) {
			for _, g := range ids[:k] {
				s.count[g]--
			}
			groupIDs("GroupCountState.Add", len(ids), ids, len(s.count))
		}
		return
	}
	groupIDs("GroupCountState.Add", len(ids), ids, len(s.count))
	s.add(ids, bits, off, sel, hasSel)
}

// add is Add after validation.
func (s *GroupCountState) add(ids []uint32, bits []byte, off int, sel []uint32, hasSel bool) {
	if bits == nil && !hasSel {
		kernel.GroupCountDense(s.count, ids)
		return
	}
	kernel.GroupCount(s.count, nil, len(ids), ids, bits, off, sel, hasSel)
}

// Merge adds other's counts to s's, group by group.
func (s *GroupCountState) Merge(other *GroupCountState) {
	s.Grow(other.Groups())
	for g, c := range other.count {
		s.count[g] += c
	}
}

// Count returns the number of valid rows of group g so far.
func (s *GroupCountState) Count(g int) int {
	groupIndex("GroupCountState.Count", g, len(s.count))
	return s.count[g]
}

// Counts appends the counts of all groups to dst.
func (s *GroupCountState) Counts(dst []int) []int { return append(dst, s.count...) }

// Reset empties every group; the group count and the tables stay.
func (s *GroupCountState) Reset() { clear(s.count) }
