package kernel

import (
	"encoding/binary"
	"math"
	"math/bits"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The generic ISA is portable Go that every platform can run. It keeps
// the reference's float sums exactly (strict, A=1) and uses independent
// accumulators only where the result cannot depend on the order: wrapping
// integer sums, integer min/max, and float min/max, whose only
// order-dependent outcomes (NaN payloads, which of ±0) are settled
// afterwards exactly as the reference settles them. It is what a CPU
// without the SIMD ISAs runs, and the baseline the SIMD ISAs are measured
// against beside the scalar one.

// genericSumInt wraps four independent sums on dense input and adds masked
// elements branch-free (value AND all-ones-or-zero).
func genericSumInt[T constraints.Integer, S int64 | uint64](x []T, bits []byte, off int) S {
	if bits == nil {
		return SumInts[T, S](x)
	}
	// One word of validity per 64 elements, element i's bit at off+i of
	// the span (so chunk i/64 starts at byte i/8 with the same offset
	// below 8), and the short path's two sums under it. A loop that
	// loaded, shifted and masked each element's bit into one sum ran at
	// 0.75 or 1.2 ns an element with where it fell in the binary (H414
	// in bench/oddlen_test.go).
	var s S
	bits, off = bits[off>>3:], off&7
	for i := 0; i < len(x); i += 64 {
		n := min(64, len(x)-i)
		s += SumIntsWord[T, S](x[i:i+n], ValidWord(bits[i>>3:], off, n))
	}
	return s
}

// genericSummaryInt is the min, max and count of the valid elements.
// Dense, it is the short loops' IntMinMax at every length: two chains of
// conditional moves per extreme, 8- and 16-bit elements compared in
// int32. Four min/max pairs took 2.4 times as long for int64 at 4096
// (eight accumulators left the loop index in memory) and 6 times for
// uint8 (byte min and max are branches; bench's H384-H387). Integer min
// and max are exact in any order, and an invalid element can be replaced
// by the identity, which never wins.
func genericSummaryInt[T num.Number](x []T, bits []byte, off int) (lo, hi T, valid int) {
	lo0, hi0 := num.MaxOf[T](), num.LowestOf[T]()
	if bits == nil {
		if len(x) == 0 {
			return lo0, hi0, 0
		}
		lo, hi = IntMinMax(x)
		return lo, hi, len(x)
	}
	for i, v := range x {
		p := off + i
		if bits[p>>3]>>(p&7)&1 != 0 {
			lo0, hi0 = min(lo0, v), max(hi0, v)
			valid++
		}
	}
	return lo0, hi0, valid
}

// genericSummaryFloat keeps four independent min/max pairs. Strict
// comparisons never take a NaN, so the accumulators hold the min and max of
// the non-NaN valid values; a NaN seen anywhere gives the canonical NaN, and
// a result that compares equal to zero is replaced by the first
// participating zero, which is what the reference's first-wins rule keeps.
// The accumulators start at ±Inf rather than the identities, so a lone
// +Inf is its own minimum.
func genericSummaryFloat[T float32 | float64](x []T, bits []byte, off int) (lo, hi T, valid int) {
	inf := T(math.Inf(1))
	var l, h [4]T
	for k := range l {
		l[k], h[k] = inf, -inf
	}
	sawNaN := false
	fold := func(k int, v T) {
		if v < l[k] {
			l[k] = v
		}
		if v > h[k] {
			h[k] = v
		}
		if v != v {
			sawNaN = true
		}
	}
	if bits == nil {
		i := 0
		for ; i+4 <= len(x); i += 4 {
			fold(0, x[i])
			fold(1, x[i+1])
			fold(2, x[i+2])
			fold(3, x[i+3])
		}
		for ; i < len(x); i++ {
			fold(0, x[i])
		}
		valid = len(x)
	} else {
		for i, v := range x {
			if p := off + i; bits[p>>3]>>(p&7)&1 != 0 {
				fold(i&3, v)
				valid++
			}
		}
	}
	lo, hi = min(l[0], l[1], l[2], l[3]), max(h[0], h[1], h[2], h[3])
	return settleFloatSummary(x, bits, off, lo, hi, valid, sawNaN)
}

// settleFloatSummary is settleSummary for the float kernels, which note
// NaN separately from their strict Extremes.
func settleFloatSummary[T float32 | float64](x []T, bits []byte, off int, lo, hi T, valid int, sawNaN bool) (T, T, int) {
	return settleSummary(x, bits, off, lo, hi, valid, sawNaN)
}

// genericCountValid counts set bits a word at a time: the bits before
// the first whole byte from that byte, whole 64-bit words, then the rest
// as one word. A loop over the head's and the rest's bits one at a time
// cost CountValid over 1031 elements 30% more than over 1024 (H411 in
// bench/oddlen_test.go).
func genericCountValid(bm []byte, off, n int) int {
	if n == 0 {
		return 0
	}
	c := 0
	p, end := off, off+n
	if h := p & 7; h != 0 { // the head: the bits before the first whole byte, one byte
		k := min(n, 8-h)
		c = bits.OnesCount8(bm[p>>3] >> h & (1<<k - 1))
		p += k
	}
	b := p >> 3
	for ; p+64 <= end; p, b = p+64, b+8 {
		c += bits.OnesCount64(binary.LittleEndian.Uint64(bm[b:]))
	}
	if r := end - p; r > 0 { // the tail: fewer than 64 bits from a byte boundary, one word
		var w uint64
		if len(bm)-b >= 8 {
			w = binary.LittleEndian.Uint64(bm[b:])
		} else {
			w = ShortBytes(bm[b : b+(r+7)>>3])
		}
		c += bits.OnesCount64(w & (1<<r - 1))
	}
	return c
}
