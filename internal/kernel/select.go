package kernel

import (
	"math"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Selections. A reduction with a selection visits x[sel[0]], x[sel[1]], ...
// in that order, skipping entries whose validity bit is clear. The loops
// below are the portable kernels for every selected shape (selection only,
// selection and bitmap); every backend starts from them and may replace
// some with gather kernels (SelSummary and SelInRange in
// dispatch_amd64.go). They compute exactly what the reference computes:
//
//   - integer sums, integer min and max and counts cannot depend on the
//     order, so they keep four independent accumulators;
//   - a float sum is the strict left fold from +0.0 in selection order, one
//     accumulator; with a bitmap an invalid entry adds -0.0, the exact
//     identity, chosen without a branch (foldSelectedValid64);
//   - float min and max are strict single-accumulator folds in selection
//     order, so the first of ±0 wins as in the reference; a NaN is only
//     noted (`!(v >= lo)` is true for a new minimum and for a NaN).
//
// Validity is read as a bit, bits[p>>3]>>(p&7)&1: the integer sums select
// the value or 0 by a conditional move, and the min and max loops test it
// only after a compare that passed, a rare branch. With a bitmap those
// loops keep one accumulator: they are bound by their loads and bit
// arithmetic, and more accumulators only spilled. Every sel index has been checked below len(x), and
// bits (when not nil) is the exact span of the elements' bits from bit
// off < 8, so p = off+sel[k] indexes inside it. Nothing generic is called
// inside a loop: identities and constants are hoisted.

// selBit is the validity bit (0 or 1) of element i of a validated bitmap,
// for loops that add it. It is small enough to inline everywhere it is
// used.
func selBit(bm []byte, off int, i uint32) uint8 {
	p := uint(off) + uint(i) // unsigned: shifts without sign fix-ups
	return bm[p>>3] >> (p & 7) & 1
}

// selIsValid reports whether element i of a validated bitmap is valid, for
// loops that branch on it. Written as a 32-bit test of 1<<(p&7) it
// compiles to one BT instruction: a shift by a variable count needs the
// count in CX on amd64 (without BMI2), and the loops had to move their
// own CX out of the way and back for every element.
func selIsValid(bm []byte, off int, i uint32) bool {
	p := uint(off) + uint(i)
	return uint32(bm[p>>3])&(1<<(p&7)) != 0
}

// selSumInt is the wrapping sum of the selected valid elements.
func selSumInt[T constraints.Integer, S int64 | uint64](x []T, bm []byte, off int, sel []uint32) S {
	// Each index is checked in the loop that reads it (the API calls these with its maskOfInLoop):
	// the test is never true, and it replaces Go's bounds check.
	var s0, s1, s2, s3 S
	k := 0
	n := uint(len(x))
	if bm == nil {
		for ; k+4 <= len(sel); k += 4 {
			q := sel[k : k+4 : k+4]
			i0, i1, i2, i3 := q[0], q[1], q[2], q[3]
			if uint(i0) >= n || uint(i1) >= n || uint(i2) >= n || uint(i3) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			s0 += S(x[i0])
			s1 += S(x[i1])
			s2 += S(x[i2])
			s3 += S(x[i3])
		}
		for ; k < len(sel); k++ {
			i := sel[k]
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			s0 += S(x[i])
		}
		return s0 + s1 + s2 + s3
	}
	// With a bitmap: one accumulator. Where selNullsFrequent finds nulls
	// frequent, every entry adds, a null as 0, with no branch on the bit;
	// elsewhere a branch skips the nulls (and their loads), faster where
	// the nulls are too rare or too common to mispredict often.
	if selNullsFrequent(bm, off, sel, len(x)) {
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			s0 += S(x[i]) & -S(selBit(bm, off, i))
		}
		return s0
	}
	for _, i := range sel {
		if uint(i) >= n {
			panic(SelectionMessage(sel, len(x)))
		}
		if selIsValid(bm, off, i) {
			s0 += S(x[i])
		}
	}
	return s0
}

// selNullsFrequent reports whether the selected entries of a validated
// bitmap look null often enough for an integer loop without a branch on
// the bit to be the faster, from the first 64 entries, which it reads: 4
// to 60 nulls among them where they ascend within 4 rows an entry, 24 to
// 52 elsewhere (a selection of fewer than 256 entries keeps the branch,
// and so does one whose first entries include an index of n or more, for
// the loop to panic on). A branch on the bit mispredicts about
// once per null while the nulls fall at random and are not the most;
// adding every entry, a null as 0, costs a few instructions an entry
// more. Where the selected rows lie far apart, the loads of x take long
// enough to hide most mispredictions until nulls are frequent; where they
// are dense, they do not. Measured over rotating random bitmaps (int64,
// 65536 rows), against the branch alone: 4.5-6x faster with 50% nulls,
// 1.8x with 10% and 3.6x with 25% over a 50% selection, and the same
// (0.90-1.05) with 0-25% nulls over 10% selections, where a window of 12
// to 52 for every selection had cost 1.14-1.23x at 25% (H300-H303 and
// H308-H310 in bench/selsum_test.go, docs/ledger.md). The choice changes
// the speed only, never the sum.
func selNullsFrequent(bm []byte, off int, sel []uint32, n int) bool {
	if len(sel) < 256 {
		return false
	}
	nulls, ascending := 0, true
	for k, i := range sel[:64] {
		if uint(i) >= uint(n) {
			return false
		}
		nulls += int(1 - selBit(bm, off, i))
		ascending = ascending && (k == 0 || i > sel[k-1])
	}
	if ascending && sel[63]-sel[0] < 4*64 {
		// Dense: the branch's mispredictions are not hidden behind the
		// loads of far-apart rows.
		return 4 <= nulls && nulls <= 60
	}
	return 24 <= nulls && nulls <= 52
}

// selSumFloat is the strict left fold from +0.0, in selection order, of
// the selected valid elements.
func selSumFloat[T float32 | float64](x []T, bm []byte, off int, sel []uint32) T {
	return foldSelected(T(0), x, bm, off, sel)
}

// foldSelected continues the strict left fold s over the selected valid
// elements, in selection order: selSumFloat from +0.0, and a SumState's
// selected batches from the state's sum.
func foldSelected[T constraints.Float](s T, x []T, bm []byte, off int, sel []uint32) T {
	// Each index is checked here, not in a pass of its own (see
	// the API's maskOfInLoop): the branch is never taken and costs nothing beside
	// the latency of the addition, and it replaces Go's bounds check.
	if bm == nil {
		for _, i := range sel {
			if uint(i) >= uint(len(x)) {
				panic(SelectionMessage(sel, len(x)))
			}
			s += x[i]
		}
		return s
	}
	if num.KindOf[T]() == num.Float32 {
		return T(foldSelectedValid32(float32(s), num.Cast[uint32](x), bm, off, sel))
	}
	return T(foldSelectedValid64(float64(s), num.Cast[uint64](x), bm, off, sel))
}

// foldSelectedValid64 is foldSelected with a bitmap for float64, on the
// elements' bits xb: every entry adds, an invalid one -0.0, the exact
// identity (s + -0.0 is s for every s, zeros of both signs included), so
// the order and the result are the strict fold's. The choice is a
// conditional move, so no branch depends on the data. A branch on the bit
// mispredicts about once per null where the nulls fall at random: with
// 10% nulls over a sorted 10% selection of 65536 rows the branching loop
// ran slower than the plain loop on every CPU of the ledger (0.62-0.96x),
// its time moving with the code's placement from build to build, and with
// 50% nulls at 4-6x the branch-free loop's time (BenchmarkSelectedSum,
// docs/ledger.md, H295-H299). Short inputs keep the branch (AddWord): over
// at most 64 elements the branch-free loop's extra instructions cost more
// than the mispredictions they save.
func foldSelectedValid64(s float64, xb []uint64, bm []byte, off int, sel []uint32) float64 {
	for _, i := range sel {
		if uint(i) >= uint(len(xb)) {
			panic(SelectionMessage(sel, len(xb)))
		}
		p := uint(off) + uint(i)
		v, u := xb[i], uint64(1)<<63
		if uint32(bm[p>>3])&(1<<(p&7)) != 0 {
			u = v
		}
		s += math.Float64frombits(u)
	}
	return s
}

// foldSelectedValid32 is foldSelectedValid64 for float32. The two are
// not one generic function: its instantiations read their dictionary in
// the loop (a load and a nil check an entry, and the count register
// reloaded from the stack), which the plain functions do not.
func foldSelectedValid32(s float32, xb []uint32, bm []byte, off int, sel []uint32) float32 {
	for _, i := range sel {
		if uint(i) >= uint(len(xb)) {
			panic(SelectionMessage(sel, len(xb)))
		}
		p := uint(off) + uint(i)
		v, u := xb[i], uint32(1)<<31
		if uint32(bm[p>>3])&(1<<(p&7)) != 0 {
			u = v
		}
		s += math.Float32frombits(u)
	}
	return s
}

// selExact is the exact 128-bit sum of the selected valid elements of an
// integer type. Each element is split at bit 32 (selSplitSums): the
// halves of at most 2^30 entries sum exactly in 64 bits, as independent
// additions with no carry between them (a 128-bit add with carry was a
// chain through every entry); each chunk is joined in 128 bits.
func selExact[T constraints.Integer](x []T, bm []byte, off int, sel []uint32) num.Int128 {
	var sum num.Int128
	for start := 0; start < len(sel); {
		n := min(len(sel)-start, SelSplitChunk)
		lo, hi, ok := selSplitSums(x, bm, off, sel[start:start+n])
		if !ok {
			panic(SelectionMessage(sel, len(x)))
		}
		sum = sum.Add128(JoinHalves[T](hi, lo))
		start += n
	}
	return sum
}

// SelSplitChunk is the most entries selSplitSums takes: 2^30 halves below
// 2^32 in magnitude stay below 2^62. A variable so that tests can make
// chunk boundaries reachable.
var SelSplitChunk = 1 << 30

// selSplitSums sums the low 32 bits (as unsigned) and the high bits
// (highHalf) of the selected valid elements, one sum of each: the two
// chains are independent, and more sums only spilled to the stack. A
// bitmap takes a branch on the bit, taken for the valid ones. Each index
// is checked in the loop, where the test replaces Go's bounds check (see
// the API's maskOfInLoop); a bad one gives false, for the caller's panic.
func selSplitSums[T constraints.Integer](x []T, bm []byte, off int, sel []uint32) (lo uint64, hi int64, ok bool) {
	k := num.KindOf[T]()
	if bm != nil && selNullsFrequent(bm, off, sel, len(x)) {
		// As in selSumInt: no branch on the bit where nulls are frequent.
		for _, i := range sel {
			if uint(i) >= uint(len(x)) {
				return 0, 0, false
			}
			v, m := x[i], -uint64(selBit(bm, off, i))
			lo += uint64(v) & (1<<32 - 1) & m
			hi += highHalf(v, k) & int64(m)
		}
		return lo, hi, true
	}
	if bm != nil {
		for _, i := range sel {
			if uint(i) >= uint(len(x)) {
				return 0, 0, false
			}
			if selIsValid(bm, off, i) {
				v := x[i]
				lo += uint64(v) & (1<<32 - 1)
				hi += highHalf(v, k)
			}
		}
		return lo, hi, true
	}
	for _, i := range sel {
		if uint(i) >= uint(len(x)) {
			return 0, 0, false
		}
		v := x[i]
		lo += uint64(v) & (1<<32 - 1)
		hi += highHalf(v, k)
	}
	return lo, hi, true
}

// selCount counts the selected entries whose validity bit is set; with no
// bitmap every entry counts.
func selCount(bm []byte, off int, sel []uint32) int {
	if bm == nil {
		return len(sel)
	}
	c := 0
	for _, i := range sel {
		c += int(selBit(bm, off, i))
	}
	return c
}

// selSummaryInt is the selected summary of an integer type: min and max of
// the selected valid elements (the identities when there are none) and
// their count. With WantMin or WantMax only that extreme is computed, and
// valid is the count only with WantBoth or a bitmap.
//
// Max is computed as the complement of the min of the complements (^v
// reverses the order of both signed and unsigned integers), so one loop
// serves Min and Max. An invalid entry is replaced by the identity, which
// never wins.
func selSummaryInt[T constraints.Integer](x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	idLo, idHi := num.MaxOf[T](), num.LowestOf[T]()
	switch want {
	case WantMin:
		lo, valid = selMinInt(x, bm, off, sel, 0, idLo)
		return lo, 0, valid
	case WantMax:
		h, v := selMinInt(x, bm, off, sel, ^T(0), ^idHi)
		return 0, ^h, v
	}
	lo0, lo1, hi0, hi1 := idLo, idLo, idHi, idHi
	k := 0
	n := uint(len(x))
	if bm == nil {
		for ; k+2 <= len(sel); k += 2 {
			q := sel[k : k+2 : k+2]
			i0, i1 := q[0], q[1]
			if uint(i0) >= n || uint(i1) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			v0, v1 := x[i0], x[i1]
			lo0, hi0 = min(lo0, v0), max(hi0, v0)
			lo1, hi1 = min(lo1, v1), max(hi1, v1)
		}
		for ; k < len(sel); k++ {
			i := sel[k]
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			v := x[i]
			lo0, hi0 = min(lo0, v), max(hi0, v)
		}
		return min(lo0, lo1), max(hi0, hi1), len(sel)
	}
	// An invalid entry is skipped by a branch (a conditional move of the
	// identities measured up to twice as slow at 10% nulls). Over rotating
	// bitmaps, a branch-free loop behind selNullsFrequent's sample was
	// 2-3.4x faster with 50% nulls but 1.4-1.5x slower with 25% over 10%
	// selections (H304-H307, docs/ledger.md); on the density-weighed
	// window, its presence left this branching loop 6-20% slower there
	// (H311-H313), inline or out of line, so it was not kept.
	for _, i := range sel {
		if uint(i) >= n {
			panic(SelectionMessage(sel, len(x)))
		}
		if !selIsValid(bm, off, i) {
			continue
		}
		valid++
		v := x[i]
		lo0, hi0 = min(lo0, v), max(hi0, v)
	}
	return lo0, hi0, valid
}

// selMinInt is the min of v^flip over the selected valid elements, from
// the identity id (MaxOf in the flipped order), and a count that is exact
// without a bitmap and positive with one (Min and Max do not use it, and
// the identity start needs no count to be exact).
func selMinInt[T constraints.Integer](x []T, bm []byte, off int, sel []uint32, flip, id T) (T, int) {
	l0, l1, l2, l3 := id, id, id, id
	k := 0
	n := uint(len(x))
	if bm == nil {
		for ; k+4 <= len(sel); k += 4 {
			q := sel[k : k+4 : k+4]
			i0, i1, i2, i3 := q[0], q[1], q[2], q[3]
			if uint(i0) >= n || uint(i1) >= n || uint(i2) >= n || uint(i3) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			l0 = min(l0, x[i0]^flip)
			l1 = min(l1, x[i1]^flip)
			l2 = min(l2, x[i2]^flip)
			l3 = min(l3, x[i3]^flip)
		}
		for ; k < len(sel); k++ {
			i := sel[k]
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			l0 = min(l0, x[i]^flip)
		}
		return min(l0, l1, l2, l3), len(sel)
	}
	// Min and Max discard the count: only the minimum is kept. The
	// compare comes first and rarely passes, so the validity bit is read
	// only on that path.
	for _, i := range sel {
		if uint(i) >= n {
			panic(SelectionMessage(sel, len(x)))
		}
		if v := x[i] ^ flip; v < l0 {
			if selIsValid(bm, off, i) {
				l0 = v
			}
		}
	}
	return l0, 1
}

// selSummaryFloat is the selected summary of a float type under the rules
// of ref.Summary. The folds are strict and in selection order from ±Inf,
// so among equal values the first seen stays, exactly as in the reference;
// a NaN never enters an accumulator and is only noted. With WantMin or
// WantMax only that extreme is computed, and valid is then the count only
// when the result needed it.
func selSummaryFloat[T float32 | float64](x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	inf := T(math.Inf(1))
	lo, hi = inf, -inf
	nan := false
	n := uint(len(x))
	// Every loop has one test on its common path, which rarely passes: v
	// is not a new extreme. Only then does it look at what v is (a new
	// extreme, a NaN) and, with a bitmap, whether it is valid. Two
	// separate tests per entry for min and max, with the NaN test inside
	// the first, compiled to a loop with three taken branches an entry and
	// ran at half the speed of a user's loop.
	switch {
	case want == WantMin && bm == nil:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			if v := x[i]; !(v >= lo) {
				if v == v {
					lo = v
				} else {
					nan = true
				}
			}
		}
		valid = len(sel)
	case want == WantMax && bm == nil:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			if v := x[i]; !(v <= hi) {
				if v == v {
					hi = v
				} else {
					nan = true
				}
			}
		}
		valid = len(sel)
	case want == WantMin:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			if v := x[i]; !(v >= lo) {
				if !selIsValid(bm, off, i) {
					continue
				}
				if v == v {
					lo = v
				} else {
					nan = true
				}
			}
		}
		// A result still at +Inf needs the count: an empty selection
		// gives the identity, a lone +Inf stays.
		if lo == inf && !nan {
			valid = selCount(bm, off, sel)
		} else {
			valid = 1
		}
	case want == WantMax:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			if v := x[i]; !(v <= hi) {
				if !selIsValid(bm, off, i) {
					continue
				}
				if v == v {
					hi = v
				} else {
					nan = true
				}
			}
		}
		if hi == -inf && !nan {
			valid = selCount(bm, off, sel)
		} else {
			valid = 1
		}
	case bm == nil:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			if v := x[i]; !(v >= lo && v <= hi) {
				lo, hi, nan = widen(lo, hi, v, nan)
			}
		}
		valid = len(sel)
	default:
		for _, i := range sel {
			if uint(i) >= n {
				panic(SelectionMessage(sel, len(x)))
			}
			b := selBit(bm, off, i)
			valid += int(b)
			if v := x[i]; !(v >= lo && v <= hi) && b != 0 {
				lo, hi, nan = widen(lo, hi, v, nan)
			}
		}
	}
	switch {
	case nan:
		return num.NaN[T](), num.NaN[T](), valid
	case valid == 0:
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	return lo, hi, valid
}

// widen is the rare step of the float summary loops, for a v outside
// [lo, hi] or unordered: v becomes the new minimum or maximum (the first
// value becomes both), or a NaN is noted. A value equal to an extreme
// never gets here, so the first of +0.0 and -0.0 stays.
func widen[T float32 | float64](lo, hi, v T, nan bool) (T, T, bool) {
	if v < lo {
		lo = v
	}
	if v > hi {
		hi = v
	}
	return lo, hi, nan || v != v
}
