package quiver

import (
	mbits "math/bits"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Short inputs. Below a few dozen elements the fixed cost of a kernel call
// (the backend table, the function values, the assembly call and
// VZEROUPPER) is more than the work, so the public functions run the loops
// below instead, inline. Each computes exactly what every backend computes
// for such an input:
//
//   - integer sums wrap, checked sums are exact and min, max and counts are
//     exact, so the order of a loop does not show;
//   - a float sum of fewer elements than one ADR-013 block (A×W) is, on a
//     SIMD backend, the tail alone added in index order from +0.0, which is
//     the strict fold these loops do; the strict backends fold that way at
//     every length.
//
// smallCut is the crossover in elements; below it the loops run. Below
// 64 elements a kernel call does not win: its fixed cost (20 to 30 ns for
// min and max, with the settle step) is about what these loops need for
// the whole input (docs/ledger.md has the short-input configurations
// against the plain Go loop). Float sums also stop at the active backend's
// block, where the blocked order starts.
//
// The exported functions test for a short dense input first and call
// these loops directly, so that such a call pays for one small frame; the
// rest of each operation lives in a function of its own.
const smallCut = 64

// bitAt reports whether bit p of a validated bitmap is set.
func bitAt(bits []byte, p int) bool { return bits[p>>3]>>(p&7)&1 != 0 }

// floatSmallCut is the length below which a float sum runs the strict
// loop on b: the smaller of smallCut and b's block for T.
func floatSmallCut[T constraints.Float](b *backend) int {
	var zero T
	if unsafe.Sizeof(zero) == 4 { // a constant of T's shape: this inlines
		return b.cut32
	}
	return b.cut64
}

// addValid adds the valid elements of x (element i is valid when bit
// off+i of bits is set; bits nil: all) to s in index order: from +0.0 it
// is the strict left fold of a short input, and the kernels' wrappers
// finish their tails with it. For integers it is the wrapping sum; a
// dense integer input is better served by sumInts.
func addValid[T num.Number, S ~int64 | ~uint64 | ~float32 | ~float64](s S, x []T, bits []byte, off int) S {
	if bits == nil {
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	if len(x) <= 64 {
		// One word of validity bits, tested in a register: no load or
		// bounds check per element.
		w := validWord(bits[off>>3:], off&7, len(x))
		for i, v := range x {
			if w>>i&1 != 0 {
				s += S(v)
			}
		}
		return s
	}
	for i, v := range x {
		if bitAt(bits, off+i) {
			s += S(v)
		}
	}
	return s
}

// validWord returns the validity bits of n <= 64 elements as one word,
// bit i for element i, from a validated bitmap whose first byte holds
// the first element's bit at position off < 8. Bits at n and above are
// whatever the bitmap holds there.
func validWord(bits []byte, off, n int) uint64 {
	var w uint64
	for i, b := range bits[:min(len(bits), 8)] {
		w |= uint64(b) << (8 * i)
	}
	w >>= off
	if off+n > 64 { // the last bits are in a ninth byte
		w |= uint64(bits[8]) << (64 - off)
	}
	return w
}

// sumInts is the wrapping sum of a dense input in four independent sums:
// a one-sum loop this short runs at the speed of its loop overhead, and at
// half that where the code layout splits it over two fetch lines (a
// 63-element uint8 tail measured 42 against 20 ns).
func sumInts[T constraints.Integer, S int64 | uint64](x []T) S {
	var s0, s1, s2, s3 S
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += S(x[i])
		s1 += S(x[i+1])
		s2 += S(x[i+2])
		s3 += S(x[i+3])
	}
	for ; i < len(x); i++ {
		s0 += S(x[i])
	}
	return s0 + s1 + s2 + s3
}

// checkedSmall is the exact sum of the valid elements of a short input
// (fewer than 2^32, so narrow types cannot leave their 64-bit sum type).
func checkedSmall[T num.Number](x []T, bits []byte, off int) num.Int128 {
	k := num.KindOf[T]()
	switch k {
	case num.Int8, num.Int16, num.Int32:
		return num.Int128{}.AddInt64(addValid(int64(0), x, bits, off))
	case num.Uint8, num.Uint16, num.Uint32:
		return num.Int128{}.AddUint64(addValid(uint64(0), x, bits, off))
	}
	// A 128-bit sum in two words, one loop per case so that nothing is
	// tested per element but the validity bit: hi gathers the carries and,
	// for int64, the sign extensions.
	var lo, c uint64
	var hi int64
	switch {
	case bits != nil:
		for i, v := range x {
			if bitAt(bits, off+i) {
				lo, c = mbits.Add64(lo, uint64(v), 0)
				hi += int64(c)
				if k == num.Int64 {
					hi += int64(v) >> 63
				}
			}
		}
	case k == num.Int64:
		for _, v := range x {
			lo, c = mbits.Add64(lo, uint64(v), 0)
			hi += int64(c) + int64(v)>>63
		}
	default:
		for _, v := range x {
			lo, c = mbits.Add64(lo, uint64(v), 0)
			hi += int64(c)
		}
	}
	return num.Int128{Hi: hi, Lo: lo}
}

// summarySmall is the reference's summary of a short input. The dense
// forms keep two independent extremes with the builtin min and max, which
// propagate NaN and order -0 below +0, and settle those two differences
// afterwards as the kernels do (settleSummary); only the extremes in want
// are computed (the other is meaningless). A bitmap takes the strict
// one-pass fold of the reference.
func summarySmall[T num.Number](x []T, bits []byte, off int, want extremes) (lo, hi T, valid int) {
	if bits != nil {
		// Start from the first valid element, then fold the valid ones
		// with the builtins as the dense loop does.
		first := -1
		for i := range x {
			if p := off + i; bits[p>>3]>>(p&7)&1 != 0 {
				first = i
				break
			}
		}
		if first < 0 {
			return settleSummary(x, bits, off, lo, hi, 0, false)
		}
		lo, hi, valid = x[first], x[first], 1
		for i := first + 1; i < len(x); i++ {
			if p := off + i; bits[p>>3]>>(p&7)&1 != 0 {
				valid++
				lo, hi = min(lo, x[i]), max(hi, x[i])
			}
		}
		if lo != lo || hi != hi || lo == 0 || hi == 0 {
			return settleSummary(x, bits, off, lo, hi, valid, lo != lo || hi != hi)
		}
		return lo, hi, valid
	}
	if len(x) == 0 {
		return settleSummary(x, nil, 0, lo, hi, 0, false)
	}
	// Dense: start from the first element (a NaN there propagates like
	// any other), and call the settle step only when there is something
	// to settle.
	lo, hi = x[0], x[0]
	lo1, hi1 := lo, hi
	i := 1
	switch want {
	case wantMin:
		for ; i+2 <= len(x); i += 2 {
			lo, lo1 = min(lo, x[i]), min(lo1, x[i+1])
		}
	case wantMax:
		for ; i+2 <= len(x); i += 2 {
			hi, hi1 = max(hi, x[i]), max(hi1, x[i+1])
		}
	default:
		for ; i+2 <= len(x); i += 2 {
			lo, lo1 = min(lo, x[i]), min(lo1, x[i+1])
			hi, hi1 = max(hi, x[i]), max(hi1, x[i+1])
		}
	}
	if i < len(x) {
		lo, hi = min(lo, x[i]), max(hi, x[i])
	}
	lo, hi = min(lo, lo1), max(hi, hi1)
	if lo != lo || hi != hi || lo == 0 || hi == 0 {
		return settleSummary(x, nil, 0, lo, hi, len(x), lo != lo || hi != hi)
	}
	return lo, hi, len(x)
}

// settleSummary turns a min and max computed in any order into the
// reference's exact result. lo and hi are the min and max of the valid
// elements, from a ±Inf start (the identities for integers), NaN-free or
// not; valid is their count and nan whether a valid element is NaN:
//
//   - any valid NaN gives the canonical NaN for both results;
//   - with no valid element the results are the identities (the ±Inf start
//     is exact otherwise: a lone +Inf stays +Inf);
//   - ±0 is the only tie that shows in the bits, and the reference's strict
//     fold keeps the FIRST participating zero, so a float result equal to
//     zero is replaced by the first valid zero in index order.
func settleSummary[T num.Number](x []T, bits []byte, off int, lo, hi T, valid int, nan bool) (T, T, int) {
	switch {
	case nan:
		return num.NaN[T](), num.NaN[T](), valid
	case valid == 0:
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	if num.IsFloat[T]() && (lo == 0 || hi == 0) {
		z := firstZero(x, bits, off)
		if lo == 0 {
			lo = z
		}
		if hi == 0 {
			hi = z
		}
	}
	return lo, hi, valid
}

// firstZero returns the first valid element of x that equals zero (+0.0
// or -0.0); the caller knows there is one.
func firstZero[T num.Number](x []T, bits []byte, off int) T {
	for i, v := range x {
		if v == 0 && (bits == nil || bitAt(bits, off+i)) {
			return v
		}
	}
	return 0
}

// summaryStart is where a min and max fold in any order starts (the
// amd64 summary kernels): +Inf and -Inf for floats, the identities for
// integers.
func summaryStart[T num.Number]() (top, bottom T) {
	top, bottom = num.MaxOf[T](), num.LowestOf[T]()
	if num.IsFloat[T]() {
		top *= 2 // overflows to +Inf
		bottom *= 2
	}
	return top, bottom
}

// countSmall counts the set bits among bits off..off+n-1 of a bitmap
// span (off < 8), n < 64.
func countSmall(bits []byte, off, n int) int {
	return mbits.OnesCount64(validWord(bits, off, n) & (1<<n - 1)) // n < 64
}
