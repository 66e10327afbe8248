package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The exported entry points of the kernel families. Each is generic over
// the element type, named types included, and does no more than map T to
// its machine type (num.KindOf, a constant for each instantiation) and
// call that type's entry below, which runs the family's ISA switch
// (dispatch_<arch>.go). The typed entries have no type parameters and are
// kept out of line, so that every kernel under them is instantiated and
// optimised in this package: a generic kernel body compiled in the
// package that instantiates an exported function (a user's) did not
// inline this package's small helpers, and the portable loops ran at half
// speed.

// SumFloat is the float sum of the valid elements of x in isa's ADR-013
// order.
func SumFloat[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	if num.KindOf[T]() == num.Float32 {
		return T(entrySumF32(isa, num.Cast[float32](x), bits, off))
	}
	return T(entrySumF64(isa, num.Cast[float64](x), bits, off))
}

//go:noinline
func entrySumF32(isa ISA, x []float32, bits []byte, off int) float32 {
	return sumFloatOn(isa, x, bits, off)
}

//go:noinline
func entrySumF64(isa ISA, x []float64, bits []byte, off int) float64 {
	return sumFloatOn(isa, x, bits, off)
}

// SumFloatWindows writes to sums[k-1] the float sum of window k of x,
// x[bounds[k-1]:bounds[k]] (the bounds checked by the caller, len(sums)
// = len(bounds)-1), as the API's dense Sum computes it on isa: the strict
// fold below cut elements, SumFloat from there. One call for all windows
// sheds the layers a call of SumFloat per window goes through.
func SumFloatWindows[T constraints.Float](isa ISA, sums, x []T, bounds []int, cut int) {
	if num.KindOf[T]() == num.Float32 {
		entryWindowsF32(isa, num.Cast[float32](sums), num.Cast[float32](x), bounds, cut)
		return
	}
	entryWindowsF64(isa, num.Cast[float64](sums), num.Cast[float64](x), bounds, cut)
}

//go:noinline
func entryWindowsF32(isa ISA, sums, x []float32, bounds []int, cut int) {
	sumWindows(isa, sums, x, bounds, cut)
}

//go:noinline
func entryWindowsF64(isa ISA, sums, x []float64, bounds []int, cut int) {
	sumWindows(isa, sums, x, bounds, cut)
}

func sumWindows[T float32 | float64](isa ISA, sums, x []T, bounds []int, cut int) {
	sums = sums[:len(bounds)-1]
	for k := range sums {
		w := x[bounds[k]:bounds[k+1]]
		if len(w) < cut {
			sums[k] = StrictSum(w)
		} else {
			sums[k] = sumFloatOn(isa, w, nil, 0)
		}
	}
}

// SumInt is the wrapping sum of the valid elements of x, in S (the bits
// are the same in int64 and uint64).
func SumInt[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	switch num.KindOf[T]() {
	case num.Int8:
		return S(entrySumI8(isa, num.Cast[int8](x), bits, off))
	case num.Int16:
		return S(entrySumI16(isa, num.Cast[int16](x), bits, off))
	case num.Int32:
		return S(entrySumI32(isa, num.Cast[int32](x), bits, off))
	case num.Int64:
		return S(entrySumI64(isa, num.Cast[int64](x), bits, off))
	case num.Uint8:
		return S(entrySumU8(isa, num.Cast[uint8](x), bits, off))
	case num.Uint16:
		return S(entrySumU16(isa, num.Cast[uint16](x), bits, off))
	case num.Uint32:
		return S(entrySumU32(isa, num.Cast[uint32](x), bits, off))
	case num.Uint64:
		return S(entrySumU64(isa, num.Cast[uint64](x), bits, off))
	}
	panic("quiver: internal error: not an integer type")
}

//go:noinline
func entrySumI8(isa ISA, x []int8, bits []byte, off int) int64 {
	return sumIntOn[int8, int64](isa, x, bits, off)
}

//go:noinline
func entrySumI16(isa ISA, x []int16, bits []byte, off int) int64 {
	return sumIntOn[int16, int64](isa, x, bits, off)
}

//go:noinline
func entrySumI32(isa ISA, x []int32, bits []byte, off int) int64 {
	return sumIntOn[int32, int64](isa, x, bits, off)
}

//go:noinline
func entrySumI64(isa ISA, x []int64, bits []byte, off int) int64 {
	return sumIntOn[int64, int64](isa, x, bits, off)
}

//go:noinline
func entrySumU8(isa ISA, x []uint8, bits []byte, off int) uint64 {
	return sumIntOn[uint8, uint64](isa, x, bits, off)
}

//go:noinline
func entrySumU16(isa ISA, x []uint16, bits []byte, off int) uint64 {
	return sumIntOn[uint16, uint64](isa, x, bits, off)
}

//go:noinline
func entrySumU32(isa ISA, x []uint32, bits []byte, off int) uint64 {
	return sumIntOn[uint32, uint64](isa, x, bits, off)
}

//go:noinline
func entrySumU64(isa ISA, x []uint64, bits []byte, off int) uint64 {
	return sumIntOn[uint64, uint64](isa, x, bits, off)
}

// Summary is the min and max of the valid elements under the rules of
// ref.Summary (canonical NaN, first of equal values, identities when
// empty) and their count; with WantMin or WantMax only that extreme is
// meaningful.
func Summary[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	switch num.KindOf[T]() {
	case num.Int8:
		l, h, v := entrySummaryI8(isa, num.Cast[int8](x), bits, off, want)
		return T(l), T(h), v
	case num.Int16:
		l, h, v := entrySummaryI16(isa, num.Cast[int16](x), bits, off, want)
		return T(l), T(h), v
	case num.Int32:
		l, h, v := entrySummaryI32(isa, num.Cast[int32](x), bits, off, want)
		return T(l), T(h), v
	case num.Int64:
		l, h, v := entrySummaryI64(isa, num.Cast[int64](x), bits, off, want)
		return T(l), T(h), v
	case num.Uint8:
		l, h, v := entrySummaryU8(isa, num.Cast[uint8](x), bits, off, want)
		return T(l), T(h), v
	case num.Uint16:
		l, h, v := entrySummaryU16(isa, num.Cast[uint16](x), bits, off, want)
		return T(l), T(h), v
	case num.Uint32:
		l, h, v := entrySummaryU32(isa, num.Cast[uint32](x), bits, off, want)
		return T(l), T(h), v
	case num.Uint64:
		l, h, v := entrySummaryU64(isa, num.Cast[uint64](x), bits, off, want)
		return T(l), T(h), v
	case num.Float32:
		l, h, v := entrySummaryF32(isa, num.Cast[float32](x), bits, off, want)
		return T(l), T(h), v
	case num.Float64:
		l, h, v := entrySummaryF64(isa, num.Cast[float64](x), bits, off, want)
		return T(l), T(h), v
	}
	panic("quiver: internal error: not a number type")
}

//go:noinline
func entrySummaryI8(isa ISA, x []int8, bits []byte, off int, want Extremes) (lo, hi int8, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryI16(isa ISA, x []int16, bits []byte, off int, want Extremes) (lo, hi int16, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryI32(isa ISA, x []int32, bits []byte, off int, want Extremes) (lo, hi int32, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryI64(isa ISA, x []int64, bits []byte, off int, want Extremes) (lo, hi int64, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryU8(isa ISA, x []uint8, bits []byte, off int, want Extremes) (lo, hi uint8, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryU16(isa ISA, x []uint16, bits []byte, off int, want Extremes) (lo, hi uint16, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryU32(isa ISA, x []uint32, bits []byte, off int, want Extremes) (lo, hi uint32, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryU64(isa ISA, x []uint64, bits []byte, off int, want Extremes) (lo, hi uint64, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryF32(isa ISA, x []float32, bits []byte, off int, want Extremes) (lo, hi float32, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

//go:noinline
func entrySummaryF64(isa ISA, x []float64, bits []byte, off int, want Extremes) (lo, hi float64, valid int) {
	return summaryOn(isa, x, bits, off, want)
}

// SelSumInt is the wrapping sum of the selected valid elements, in S; it
// checks the indices.
func SelSumInt[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bm []byte, off int, sel []uint32) S {
	switch num.KindOf[T]() {
	case num.Int8:
		return S(entrySelSumI8(isa, num.Cast[int8](x), bm, off, sel))
	case num.Int16:
		return S(entrySelSumI16(isa, num.Cast[int16](x), bm, off, sel))
	case num.Int32:
		return S(entrySelSumI32(isa, num.Cast[int32](x), bm, off, sel))
	case num.Int64:
		return S(entrySelSumI64(isa, num.Cast[int64](x), bm, off, sel))
	case num.Uint8:
		return S(entrySelSumU8(isa, num.Cast[uint8](x), bm, off, sel))
	case num.Uint16:
		return S(entrySelSumU16(isa, num.Cast[uint16](x), bm, off, sel))
	case num.Uint32:
		return S(entrySelSumU32(isa, num.Cast[uint32](x), bm, off, sel))
	case num.Uint64:
		return S(entrySelSumU64(isa, num.Cast[uint64](x), bm, off, sel))
	}
	panic("quiver: internal error: not an integer type")
}

//go:noinline
func entrySelSumI8(isa ISA, x []int8, bm []byte, off int, sel []uint32) int64 {
	return selSumIntOn[int8, int64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumI16(isa ISA, x []int16, bm []byte, off int, sel []uint32) int64 {
	return selSumIntOn[int16, int64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumI32(isa ISA, x []int32, bm []byte, off int, sel []uint32) int64 {
	return selSumIntOn[int32, int64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumI64(isa ISA, x []int64, bm []byte, off int, sel []uint32) int64 {
	return selSumIntOn[int64, int64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumU8(isa ISA, x []uint8, bm []byte, off int, sel []uint32) uint64 {
	return selSumIntOn[uint8, uint64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumU16(isa ISA, x []uint16, bm []byte, off int, sel []uint32) uint64 {
	return selSumIntOn[uint16, uint64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumU32(isa ISA, x []uint32, bm []byte, off int, sel []uint32) uint64 {
	return selSumIntOn[uint32, uint64](isa, x, bm, off, sel)
}

//go:noinline
func entrySelSumU64(isa ISA, x []uint64, bm []byte, off int, sel []uint32) uint64 {
	return selSumIntOn[uint64, uint64](isa, x, bm, off, sel)
}

// SelSumFloat is the strict left fold from +0.0 of the selected valid
// elements in selection order, the same on every ISA. It checks each
// index as it reads it.
func SelSumFloat[T constraints.Float](isa ISA, x []T, bm []byte, off int, sel []uint32) T {
	if num.KindOf[T]() == num.Float32 {
		return T(entrySelSumF32(num.Cast[float32](x), bm, off, sel))
	}
	return T(entrySelSumF64(num.Cast[float64](x), bm, off, sel))
}

//go:noinline
func entrySelSumF32(x []float32, bm []byte, off int, sel []uint32) float32 {
	return foldSelected(0, x, bm, off, sel)
}

//go:noinline
func entrySelSumF64(x []float64, bm []byte, off int, sel []uint32) float64 {
	return foldSelected(0, x, bm, off, sel)
}

// FoldSelected adds the selected valid elements of x to s, in selection
// order: the strict left fold of a selected float sum, continued from s.
// It checks each index as it reads it.
func FoldSelected[T constraints.Float](s T, x []T, bm []byte, off int, sel []uint32) T {
	if num.KindOf[T]() == num.Float32 {
		return T(entryFoldSelectedF32(float32(s), num.Cast[float32](x), bm, off, sel))
	}
	return T(entryFoldSelectedF64(float64(s), num.Cast[float64](x), bm, off, sel))
}

//go:noinline
func entryFoldSelectedF32(s float32, x []float32, bm []byte, off int, sel []uint32) float32 {
	return foldSelected(s, x, bm, off, sel)
}

//go:noinline
func entryFoldSelectedF64(s float64, x []float64, bm []byte, off int, sel []uint32) float64 {
	return foldSelected(s, x, bm, off, sel)
}

// SelSummary is Summary over a selection, in selection order; it checks
// the indices. valid is the participating count with WantBoth (with
// WantMin or WantMax it may be any positive number when something took
// part).
func SelSummary[T num.Number](isa ISA, x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	switch num.KindOf[T]() {
	case num.Int8:
		l, h, v := entrySelSummaryI8(isa, num.Cast[int8](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Int16:
		l, h, v := entrySelSummaryI16(isa, num.Cast[int16](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Int32:
		l, h, v := entrySelSummaryI32(isa, num.Cast[int32](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Int64:
		l, h, v := entrySelSummaryI64(isa, num.Cast[int64](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Uint8:
		l, h, v := entrySelSummaryU8(isa, num.Cast[uint8](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Uint16:
		l, h, v := entrySelSummaryU16(isa, num.Cast[uint16](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Uint32:
		l, h, v := entrySelSummaryU32(isa, num.Cast[uint32](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Uint64:
		l, h, v := entrySelSummaryU64(isa, num.Cast[uint64](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Float32:
		l, h, v := entrySelSummaryF32(isa, num.Cast[float32](x), bm, off, sel, want)
		return T(l), T(h), v
	case num.Float64:
		l, h, v := entrySelSummaryF64(isa, num.Cast[float64](x), bm, off, sel, want)
		return T(l), T(h), v
	}
	panic("quiver: internal error: not a number type")
}

//go:noinline
func entrySelSummaryI8(isa ISA, x []int8, bm []byte, off int, sel []uint32, want Extremes) (lo, hi int8, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryI16(isa ISA, x []int16, bm []byte, off int, sel []uint32, want Extremes) (lo, hi int16, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryI32(isa ISA, x []int32, bm []byte, off int, sel []uint32, want Extremes) (lo, hi int32, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryI64(isa ISA, x []int64, bm []byte, off int, sel []uint32, want Extremes) (lo, hi int64, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryU8(isa ISA, x []uint8, bm []byte, off int, sel []uint32, want Extremes) (lo, hi uint8, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryU16(isa ISA, x []uint16, bm []byte, off int, sel []uint32, want Extremes) (lo, hi uint16, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryU32(isa ISA, x []uint32, bm []byte, off int, sel []uint32, want Extremes) (lo, hi uint32, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryU64(isa ISA, x []uint64, bm []byte, off int, sel []uint32, want Extremes) (lo, hi uint64, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryF32(isa ISA, x []float32, bm []byte, off int, sel []uint32, want Extremes) (lo, hi float32, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

//go:noinline
func entrySelSummaryF64(isa ISA, x []float64, bm []byte, off int, sel []uint32, want Extremes) (lo, hi float64, valid int) {
	return selSummaryOn(isa, x, bm, off, sel, want)
}

// SelExact is the exact sum of the selected valid elements; it checks
// each index as it reads it.
func SelExact[T constraints.Integer](x []T, bm []byte, off int, sel []uint32) num.Int128 {
	switch num.KindOf[T]() {
	case num.Int8:
		return entrySelExactI8(num.Cast[int8](x), bm, off, sel)
	case num.Int16:
		return entrySelExactI16(num.Cast[int16](x), bm, off, sel)
	case num.Int32:
		return entrySelExactI32(num.Cast[int32](x), bm, off, sel)
	case num.Int64:
		return entrySelExactI64(num.Cast[int64](x), bm, off, sel)
	case num.Uint8:
		return entrySelExactU8(num.Cast[uint8](x), bm, off, sel)
	case num.Uint16:
		return entrySelExactU16(num.Cast[uint16](x), bm, off, sel)
	case num.Uint32:
		return entrySelExactU32(num.Cast[uint32](x), bm, off, sel)
	case num.Uint64:
		return entrySelExactU64(num.Cast[uint64](x), bm, off, sel)
	}
	panic("quiver: internal error: not an integer type")
}

//go:noinline
func entrySelExactI8(x []int8, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactI16(x []int16, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactI32(x []int32, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactI64(x []int64, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactU8(x []uint8, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactU16(x []uint16, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactU32(x []uint32, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

//go:noinline
func entrySelExactU64(x []uint64, bm []byte, off int, sel []uint32) num.Int128 {
	return selExact(x, bm, off, sel)
}

// SumLanes adds x, whose length is a positive multiple of isa's block for
// T, into the unfolded lane accumulators acc in the order of ADR-013
// step 1 (see the API's SumState).
func SumLanes[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	if num.KindOf[T]() == num.Float32 {
		entrySumLanesF32(isa, num.Cast[float32](acc), num.Cast[float32](x), bits, off)
		return
	}
	entrySumLanesF64(isa, num.Cast[float64](acc), num.Cast[float64](x), bits, off)
}

//go:noinline
func entrySumLanesF32(isa ISA, acc, x []float32, bits []byte, off int) {
	sumLanesOn(isa, acc, x, bits, off)
}

//go:noinline
func entrySumLanesF64(isa ISA, acc, x []float64, bits []byte, off int) {
	sumLanesOn(isa, acc, x, bits, off)
}
