package kernel

import (
	"fmt"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
)

// The entry points every ISA shares, and the portable kernels the
// per-architecture switches (dispatch_<arch>.go) fall back on. Each
// exported function here or there is one family's dispatch: called from
// the API with the active ISA, it calls its kernel directly.

// SelCount counts the selected entries whose bit is set (all of them when
// bits is nil); the indices have been checked.
func SelCount(bits []byte, off int, sel []uint32) int { return selCount(bits, off, sel) }

// CheckSelection panics unless every index of sel is below n, with the
// message SelectionMessage gives.
func CheckSelection(isa ISA, sel []uint32, n int) { checkSelection(isa, sel, n) }

func checkSelection(isa ISA, sel []uint32, n int) {
	if len(sel) == 0 || SelInRange(isa, sel, n) {
		return
	}
	panic(SelectionMessage(sel, n))
}

// SelectionMessage is the panic message naming the first index of sel
// that is n or more. Callers panic with it themselves, so that the
// compiler sees the panic and knows an index past the test is in range.
func SelectionMessage(sel []uint32, n int) string {
	for pos, s := range sel {
		if uint64(s) >= uint64(n) {
			return fmt.Sprintf("quiver: selection index %d at position %d is out of range for %d elements", s, pos, n)
		}
	}
	return "quiver: selection out of range" // not reached: the caller saw a bad index
}

// selInRangeGo reports whether every index of sel is below n by the Go
// loops. The OR of the indices bounds their maximum from above, and one
// OR per entry, in independent accumulators, is cheaper than a compare
// and a move; only when the OR is not below n (n not a power of two, or
// an index out of range) is the exact maximum taken.
func selInRangeGo(sel []uint32, n int) bool {
	var o0, o1, o2, o3 uint32
	k := 0
	for ; k+8 <= len(sel); k += 8 {
		q := sel[k : k+8 : k+8]
		o0 |= q[0] | q[4]
		o1 |= q[1] | q[5]
		o2 |= q[2] | q[6]
		o3 |= q[3] | q[7]
	}
	for ; k < len(sel); k++ {
		o0 |= sel[k]
	}
	if uint64(o0|o1|o2|o3) < uint64(n) {
		return true
	}
	return uint64(selMaxGo(sel)) < uint64(n)
}

// selMaxGo is the largest index of a selection (0 when empty), in four
// independent running maxima (one would make every entry wait for the
// previous one's compare and move).
func selMaxGo(sel []uint32) uint32 {
	var h0, h1, h2, h3 uint32
	k := 0
	for ; k+8 <= len(sel); k += 8 {
		q := sel[k : k+8 : k+8]
		h0 = max(h0, q[0], q[4])
		h1 = max(h1, q[1], q[5])
		h2 = max(h2, q[2], q[6])
		h3 = max(h3, q[3], q[7])
	}
	for ; k < len(sel); k++ {
		h0 = max(h0, sel[k])
	}
	return max(h0, h1, h2, h3)
}

// scalarSum is the reference sum. Without a bitmap the reference's fold is
// exactly the plain loop below (same order, one accumulator), written out
// so that the strict path, and every speedup quoted against it, is not
// slowed by per-element participation tests that cannot fail.
func scalarSum[T num.Number, S ~int64 | ~uint64 | ~float32 | ~float64](x []T, bits []byte, off int) S {
	if bits == nil {
		var s S
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	var s S
	for i, v := range x {
		if ref.Valid(bits, off, i) {
			s += S(v)
		}
	}
	return s
}

// scalarSummary is the reference's summary.
func scalarSummary[T num.Number](x []T, bits []byte, off int) (lo, hi T, valid int) {
	lo, hi, valid, _ = ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	return lo, hi, valid
}

// portableSumInt is the wrapping sum of the scalar and generic ISAs.
func portableSumInt[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	if isa == Scalar {
		return scalarSum[T, S](x, bits, off)
	}
	return genericSumInt[T, S](x, bits, off)
}

// portableSumFloat is the float sum of the scalar and generic ISAs: the
// strict fold of the valid elements in index order on both.
func portableSumFloat[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	if isa == Scalar || bits == nil {
		return scalarSum[T, T](x, bits, off)
	}
	if num.KindOf[T]() == num.Float32 {
		return T(genericSumFloat[float32, uint32](num.Cast[float32](x), bits, off))
	}
	return T(genericSumFloat[float64, uint64](num.Cast[float64](x), bits, off))
}

// portableSummary is the summary of the scalar and generic ISAs (the
// scalar one computes both Extremes whatever want asks).
func portableSummary[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if isa == Scalar {
		return scalarSummary(x, bits, off)
	}
	return genericSummary(x, bits, off, want)
}

// portableCheckedI64 and portableCheckedU64 are the exact sums of the
// scalar and generic ISAs (see portableChecked). They stay out of line:
// where the dispatch around them is small enough to inline (purego), a
// call of the generic reference from the API's package made the compiler
// move the caller's slices to the heap.
//
//go:noinline
func portableCheckedI64(isa ISA, x []int64, bits []byte, off int) num.Int128 {
	return portableChecked(isa, x, bits, off)
}

//go:noinline
func portableCheckedU64(isa ISA, x []uint64, bits []byte, off int) num.Int128 {
	return portableChecked(isa, x, bits, off)
}

// portableChecked is the exact sum of 64-bit elements on Scalar, the
// reference's element-by-element 128-bit additions, and on Generic sums
// of halves (CheckedInts dense, halvesWord4 under a bitmap: 64-bit sums
// without a carry between them) over chunks, added into 128 bits per
// chunk. The reference's carry chain took three times a user's
// math/bits loop at 64 elements and more (bench's H243-H245).
func portableChecked[T int64 | uint64](isa ISA, x []T, bits []byte, off int) num.Int128 {
	if isa == Scalar {
		return ref.SumExact(x, ref.Mask{Bits: bits, Off: off})
	}
	var acc num.Int128
	if bits == nil {
		for len(x) > 0 {
			n := min(len(x), halvesChunk)
			s := CheckedInts(x[:n])
			acc, x = acc.Add(s.Hi, s.Lo), x[n:]
		}
		return acc
	}
	// A word of validity per 64 elements: element i's bit is at off+i of
	// the span, so word i/64 starts at byte i/8 with the same bit offset
	// below 8. The halves add up across words, into 128 bits once per
	// chunk of whole words.
	bits, off = bits[off>>3:], off&7
	step := max(64, halvesChunk&^63)
	for len(x) > 0 {
		n := min(len(x), step)
		var hi int64
		var lo uint64
		for i := 0; i < n; i += 64 {
			k := min(64, n-i)
			hi, lo = halvesWord4(x[i:i+k], ValidWord(bits[i>>3:], off, k), hi, lo)
		}
		s := JoinHalves[T](hi, lo)
		acc, x, bits = acc.Add(s.Hi, s.Lo), x[n:], bits[n>>3:]
	}
	return acc
}

// halvesChunk is the most elements portableChecked sums in halves before
// it adds them into 128 bits, within CheckedInts' bound of fewer than
// 2^31 (under a bitmap rounded down to whole words, at least one); a
// variable so that a test can cross it with a short input.
var halvesChunk = 1 << 30

// portableCountValid is the valid count of the scalar and generic ISAs.
func portableCountValid(isa ISA, bits []byte, off, n int) int {
	if isa == Scalar {
		return ref.CountValid(n, ref.Mask{Bits: bits, Off: off})
	}
	return genericCountValid(bits, off, n)
}

// selSummaryGo is the selected summary by the Go loops of select.go.
func selSummaryGo[T num.Number](x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	switch num.KindOf[T]() {
	case num.Float32:
		l, h, v := selSummaryFloat(num.Cast[float32](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Float64:
		l, h, v := selSummaryFloat(num.Cast[float64](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Int8:
		return selSummaryIntAs[int8](x, bm, off, sel, want)
	case num.Int16:
		return selSummaryIntAs[int16](x, bm, off, sel, want)
	case num.Int32:
		return selSummaryIntAs[int32](x, bm, off, sel, want)
	case num.Int64:
		return selSummaryIntAs[int64](x, bm, off, sel, want)
	case num.Uint8:
		return selSummaryIntAs[uint8](x, bm, off, sel, want)
	case num.Uint16:
		return selSummaryIntAs[uint16](x, bm, off, sel, want)
	case num.Uint32:
		return selSummaryIntAs[uint32](x, bm, off, sel, want)
	}
	return selSummaryIntAs[uint64](x, bm, off, sel, want)
}

// selSummaryIntAs runs selSummaryInt on x as its machine type C.
func selSummaryIntAs[C constraints.Integer, T num.Number](x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	l, h, v := selSummaryInt(num.Cast[C](x), bm, off, sel, want)
	return T(l), T(h), v
}

// policyOf is isa's ADR-013 layout for T.
func policyOf[T num.Number](isa ISA) oracle.Policy {
	if num.KindOf[T]() == num.Float32 {
		return isa.Policy32()
	}
	return isa.Policy64()
}

// denseSummaryGo is denseSummaryOn where no kernel of isa runs from it.
// On Generic the short loops run at every length: for floats their chains
// (FloatExtremes), for a Min or a Max two chains of the one extreme, where
// the portable summary computes both in four, twice the time at 4096
// (bench's H246); for integers IntMinLong, IntMaxLong or IntMinMax, the
// portable summary's loop (bench's H384-H387). Everything else takes summaryOn's
// answer.
func denseSummaryGo[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	switch {
	case isa == Generic && num.IsFloat[T]():
		lo, hi, _ = FloatExtremes(x, want)
	case isa == Generic && want == WantMin:
		lo = IntMinLong(x)
	case isa == Generic && want == WantMax:
		hi = IntMaxLong(x)
	default:
		lo, hi, _ = summaryOn(isa, x, nil, 0, want)
	}
	switch want {
	case WantMin:
		hi = lo
	case WantMax:
		lo = hi
	}
	return lo, hi
}
