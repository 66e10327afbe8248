package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// CheckedSum is an integer sum with its overflow flag: Sum is the wrapped
// 64-bit sum, and Overflowed reports whether the mathematical sum does not
// fit in S, in which case Sum is the true sum modulo 2^64.
type CheckedSum[S int64 | uint64] struct {
	Sum        S
	Overflowed bool
}

// SumChecked sums the participating elements of a signed integer slice
// exactly, as if in unbounded precision, and reports whether the result
// fits in int64. Only the final sum matters: intermediate excursions past
// the int64 range that come back do not count as overflow.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func SumChecked[T constraints.Signed](x []T, m ...Mask) CheckedSum[int64] {
	b := active.Load()
	if len(x) < wordCut[T](b) { // at most kernel.SmallCut
		if len(m) == 0 {
			s, o := kernel.CheckedInts(x).Int64()
			return CheckedSum[int64]{s, o}
		}
		if w, ok := shortWord(len(x), m); ok {
			if len(x) >= kernel.PackedWordCut[T](true) {
				// Fewer than 64 elements of 8 or 16 bits cannot leave
				// int64: their exact sum is the wrapping one (H522-H523).
				return CheckedSum[int64]{kernel.SumPackedWord[T, int64](x, w), false}
			}
			// checkedWord, written out so that its loop inlines here.
			s, o := kernel.JoinHalves[T](kernel.HalvesWord(x, w, num.KindOf[T]())).Int64()
			return CheckedSum[int64]{s, o}
		}
	}
	if bits, off, ok := bitmapSpan(len(x), m); ok || len(m) == 0 {
		// No Mask, or a bitmap alone of wordCut elements or more (a
		// shorter one took the word loop): nothing left to check, and
		// int64 goes to the kernels' dispatch directly (exactOn's frame
		// was a tenth of a 32-element call).
		var sum num.Int128
		if num.KindOf[T]() == num.Int64 {
			sum = kernel.CheckedI64(b.isa, num.Cast[int64](x), bits, off)
		} else {
			sum = exactOn(b, x, bits, off, nil, false)
		}
		s, o := sum.Int64()
		return CheckedSum[int64]{s, o}
	}
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // the selected sums check sel
	s, o := exactOn(b, x, bits, off, sel, hasSel).Int64()
	return CheckedSum[int64]{s, o}
}

// SumCheckedUint sums the participating elements of an unsigned integer
// slice exactly and reports whether the result exceeds uint64.
//
// It panics, before reading x, if more than one Mask is given, if m's
// bitmap is too short for len(x) elements at its offset (see [Valid]), or
// if a selection index is len(x) or more.
func SumCheckedUint[T constraints.Unsigned](x []T, m ...Mask) CheckedSum[uint64] {
	b := active.Load()
	if len(x) < wordCut[T](b) { // at most kernel.SmallCut
		if len(m) == 0 {
			s, o := kernel.CheckedInts(x).Uint64()
			return CheckedSum[uint64]{s, o}
		}
		if w, ok := shortWord(len(x), m); ok {
			if len(x) >= kernel.PackedWordCut[T](true) {
				// Fewer than 64 elements of 8 or 16 bits cannot leave
				// uint64: their exact sum is the wrapping one (H522-H523).
				return CheckedSum[uint64]{kernel.SumPackedWord[T, uint64](x, w), false}
			}
			// checkedWord, written out so that its loop inlines here.
			s, o := kernel.JoinHalves[T](kernel.HalvesWord(x, w, num.KindOf[T]())).Uint64()
			return CheckedSum[uint64]{s, o}
		}
	}
	if bits, off, ok := bitmapSpan(len(x), m); ok || len(m) == 0 {
		// No Mask, or a bitmap alone of wordCut elements or more (a
		// shorter one took the word loop): nothing left to check, and
		// uint64 goes to the kernels' dispatch directly (exactOn's frame
		// was a tenth of a 32-element call).
		var sum num.Int128
		if num.KindOf[T]() == num.Uint64 {
			sum = kernel.CheckedU64(b.isa, num.Cast[uint64](x), bits, off)
		} else {
			sum = exactOn(b, x, bits, off, nil, false)
		}
		s, o := sum.Uint64()
		return CheckedSum[uint64]{s, o}
	}
	bits, off, sel, hasSel := maskOfInLoop(len(x), m) // the selected sums check sel
	s, o := exactOn(b, x, bits, off, sel, hasSel).Uint64()
	return CheckedSum[uint64]{s, o}
}

// exactOn is the exact sum of the participating elements of x, on b, from
// validated parts (see maskOf).
func exactOn[T constraints.Integer](b *backend, x []T, bits []byte, off int, sel []uint32, hasSel bool) num.Int128 {
	switch k := num.KindOf[T](); {
	case hasSel:
		return kernel.SelExact(x, bits, off, sel)
	case len(x) < wordCut[T](b):
		return kernel.CheckedSmall(x, bits, off)
	case k == num.Int64:
		return kernel.CheckedI64(b.isa, num.Cast[int64](x), bits, off)
	case k == num.Uint64:
		return kernel.CheckedU64(b.isa, num.Cast[uint64](x), bits, off)
	}
	// Narrow elements: a chunk of at most 2^32 of them sums exactly in 64
	// bits (2^32 × 2^31 = 2^63, and -2^63 is representable; 2^32 unsigned
	// values below 2^32 stay below 2^64), so the wrap kernel gives exact
	// chunk sums, added here in 128 bits.
	signed := num.KindOf[T]() <= num.Int64
	var sum num.Int128
	for start := 0; start < len(x); {
		n := narrowChunk(len(x) - start)
		bs, o := bitSpan(bits, off+start, n)
		if signed {
			sum = sum.AddInt64(sumOf[T, int64](b, x[start:start+n], bs, o))
		} else {
			sum = sum.AddUint64(sumOf[T, uint64](b, x[start:start+n], bs, o))
		}
		start += n
	}
	return sum
}

// narrowChunk is how many of the remaining elements of a type at most 32
// bits wide one wrapping 64-bit sum can take exactly: at most 2^32.
func narrowChunk(remaining int) int {
	const limit = 1 << 32
	if uint64(remaining) > limit {
		return int(limit & uint64(^uint(0))) // only reached where int is 64 bits
	}
	return remaining
}
