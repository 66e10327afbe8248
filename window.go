package quiver

import (
	"fmt"
	"slices"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// Windowed reductions. A window is a contiguous run of rows, such as the
// samples of one time bucket or the rows of one group of a column sorted
// by group. Windows are given as boundaries: window k is
// x[bounds[k]:bounds[k+1]], so len(bounds)-1 windows (none for fewer than
// two boundaries); the boundaries must not decrease and must lie in
// 0..len(x). [RunBounds] turns sorted group ids into boundaries.
//
// Each window is reduced by the one-call function over its sub-slice,
// with the dense kernels of the active backend: window k's result is, bit
// for bit, the one-call result over x[bounds[k]:bounds[k+1]] (float sums
// in the backend's ADR-013 order). The results are appended to dst, one
// per window, so a dst with room allocates nothing.
//
// The optional Mask may carry a validity bitmap over the whole of x (at
// any offset); window k then uses the bits of its rows. A selection is
// not allowed: windows are runs of rows. Every function panics, before
// appending anything, if the boundaries are out of order or out of range,
// if the Mask has a selection, or if the bitmap is bad for len(x) values.

// windowMask validates the boundaries and the Mask of a windowed call
// over n values and returns the bitmap's span (nil: all valid).
func windowMask(op string, n int, bounds []int, m []Mask) ([]byte, int) {
	bits, off, _, hasSel := maskOf(n, m)
	if hasSel {
		panic(fmt.Sprintf("quiver: %s: windows take a validity bitmap, not a selection (of %d indices)", op, m[0].nsel))
	}
	prev := 0
	for k, b := range bounds {
		switch {
		case b < 0 || b > n:
			panic(fmt.Sprintf("quiver: %s: window boundary %d at position %d is out of range for %d values", op, b, k, n))
		case b < prev && k > 0:
			panic(fmt.Sprintf("quiver: %s: window boundary %d at position %d is below the previous boundary %d", op, b, k, prev))
		}
		prev = b
	}
	return bits, off
}

// RunBounds appends to dst the boundaries of the groups of sorted ids:
// groups+1 values, group g being rows dst[g]:dst[g+1] (empty for a group
// with no row), for use by the windowed functions. It panics if an id is
// below the one before it (ids out of order) or at or above groups.
//
// One pass over the ids finds the boundaries and checks every id.
func RunBounds(dst []int, ids []uint32, groups int) []int {
	groupCount("RunBounds", groups)
	dst, ok := kernel.GroupRunBounds(dst, ids, groups)
	if !ok {
		runBoundsPanic(ids, groups)
	}
	return dst
}

// runBoundsPanic panics with the message for the first id of ids that is
// out of order or out of range.
func runBoundsPanic(ids []uint32, groups int) {
	for i, id := range ids {
		if i > 0 && id < ids[i-1] {
			panic(fmt.Sprintf("quiver: RunBounds: group id %d at row %d is below the id %d before it", id, i, ids[i-1]))
		}
		if uint64(id) >= uint64(groups) {
			panic(fmt.Sprintf("quiver: RunBounds: group id %d at row %d is out of range for %d groups", id, i, groups))
		}
	}
	panic("quiver: RunBounds: internal error: the ids passed the scan") // not reached
}

// SumWindows appends [Sum] of each window of x to dst.
func SumWindows[T constraints.Float](dst, x []T, bounds []int, m ...Mask) []T {
	bits, off := windowMask("SumWindows", len(x), bounds, m)
	if bits != nil {
		for k := 1; k < len(bounds); k++ {
			a, b := bounds[k-1], bounds[k]
			dst = append(dst, Sum(x[a:b], Valid(bits, off+a)))
		}
		return dst
	}
	// Sum's dense path, with the backend loaded once: the strict fold
	// below the backend's cut, its kernel from there.
	if len(bounds) < 2 {
		return dst
	}
	be := active.Load()
	dst = slices.Grow(dst, len(bounds)-1)
	k := len(dst)
	dst = dst[:k+len(bounds)-1]
	kernel.SumFloatWindows(be.isa, dst[k:], x, bounds, floatSmallCut[T](be))
	return dst
}

// SumReproducibleWindows appends [SumReproducible] of each window of x to
// dst.
func SumReproducibleWindows[T constraints.Float](dst, x []T, bounds []int, m ...Mask) []T {
	bits, off := windowMask("SumReproducibleWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, SumReproducible(x[a:b]))
		} else {
			dst = append(dst, SumReproducible(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// SumIntWindows appends [SumInt] of each window of x to dst.
func SumIntWindows[T constraints.Signed](dst []int64, x []T, bounds []int, m ...Mask) []int64 {
	bits, off := windowMask("SumIntWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, SumInt(x[a:b]))
		} else {
			dst = append(dst, SumInt(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// SumUintWindows appends [SumUint] of each window of x to dst.
func SumUintWindows[T constraints.Unsigned](dst []uint64, x []T, bounds []int, m ...Mask) []uint64 {
	bits, off := windowMask("SumUintWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, SumUint(x[a:b]))
		} else {
			dst = append(dst, SumUint(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// SumCheckedWindows appends [SumChecked] of each window of x to dst.
func SumCheckedWindows[T constraints.Signed](dst []CheckedSum[int64], x []T, bounds []int, m ...Mask) []CheckedSum[int64] {
	bits, off := windowMask("SumCheckedWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, SumChecked(x[a:b]))
		} else {
			dst = append(dst, SumChecked(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// SumCheckedUintWindows appends [SumCheckedUint] of each window of x to
// dst.
func SumCheckedUintWindows[T constraints.Unsigned](dst []CheckedSum[uint64], x []T, bounds []int, m ...Mask) []CheckedSum[uint64] {
	bits, off := windowMask("SumCheckedUintWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, SumCheckedUint(x[a:b]))
		} else {
			dst = append(dst, SumCheckedUint(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// MinWindows appends [Min] of each window of x to dst.
func MinWindows[T Number](dst, x []T, bounds []int, m ...Mask) []T {
	bits, off := windowMask("MinWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, Min(x[a:b]))
		} else {
			dst = append(dst, Min(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// MaxWindows appends [Max] of each window of x to dst.
func MaxWindows[T Number](dst, x []T, bounds []int, m ...Mask) []T {
	bits, off := windowMask("MaxWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, Max(x[a:b]))
		} else {
			dst = append(dst, Max(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// MinMaxWindows appends [MinMax] of each window of x to lo and hi.
func MinMaxWindows[T Number](lo, hi, x []T, bounds []int, m ...Mask) ([]T, []T) {
	bits, off := windowMask("MinMaxWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		var l, h T
		if bits == nil {
			l, h = MinMax(x[a:b])
		} else {
			l, h = MinMax(x[a:b], Valid(bits, off+a))
		}
		lo, hi = append(lo, l), append(hi, h)
	}
	return lo, hi
}

// SummarizeWindows appends [Summarize] of each window of x to dst.
func SummarizeWindows[T Number](dst []Summary[T], x []T, bounds []int, m ...Mask) []Summary[T] {
	bits, off := windowMask("SummarizeWindows", len(x), bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, Summarize(x[a:b]))
		} else {
			dst = append(dst, Summarize(x[a:b], Valid(bits, off+a)))
		}
	}
	return dst
}

// CountValidWindows appends [CountValid] of each window of n rows to dst:
// the valid rows of each window under m's bitmap (every row without one).
func CountValidWindows(dst []int, n int, bounds []int, m ...Mask) []int {
	if n < 0 {
		panic(fmt.Sprintf("quiver: CountValidWindows: negative number of values %d", n))
	}
	bits, off := windowMask("CountValidWindows", n, bounds, m)
	for k := 1; k < len(bounds); k++ {
		a, b := bounds[k-1], bounds[k]
		if bits == nil {
			dst = append(dst, b-a)
		} else {
			dst = append(dst, CountValid(b-a, Valid(bits, off+a)))
		}
	}
	return dst
}
