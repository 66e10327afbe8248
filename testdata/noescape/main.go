// Command noescape reduces slices of local arrays with every exported
// reduction, state Add and SumReproducible, through Valid and Select
// masks built from local bitmaps and selections. TestNoEscape builds it
// with -gcflags=-m and fails if the compiler moves any of the arrays to
// the heap; noescape_test.go runs the same calls under AllocsPerRun.
package main

import (
	"fmt"

	"github.com/quiverlabs/quiver"
)

func main() {
	fmt.Println(reduceLocals(), groupLocals())
}

//go:noinline
func reduceLocals() float64 {
	var f64 [300]float64
	var f32 [300]float32
	var i64 [300]int64
	var i8 [300]int8
	var u32 [300]uint32
	var u64 [300]uint64
	var bm [40]byte
	var sel [16]uint32
	for i := range f64 {
		f64[i], f32[i], i64[i], i8[i], u32[i], u64[i] = float64(i), float32(i), int64(i), int8(i), uint32(i), uint64(i)
	}
	for i := range bm {
		bm[i] = 0xa5
	}
	for i := range sel {
		sel[i] = uint32(5*i) % 8
	}
	var r float64
	for _, n := range []int{8, 64, 300} {
		for _, m := range []quiver.Mask{{}, quiver.Valid(bm[:], 3), quiver.Select(sel[:]), quiver.Valid(bm[:], 1).Select(sel[:])} {
			r += quiver.Sum(f64[:n], m) + float64(quiver.Sum(f32[:n], m))
			r += float64(quiver.SumInt(i64[:n], m) + quiver.SumInt(i8[:n], m))
			r += float64(quiver.SumUint(u32[:n], m) + quiver.SumUint(u64[:n], m))
			r += float64(quiver.SumChecked(i64[:n], m).Sum + quiver.SumChecked(i8[:n], m).Sum)
			r += float64(quiver.SumCheckedUint(u32[:n], m).Sum + quiver.SumCheckedUint(u64[:n], m).Sum)
			r += quiver.Min(f64[:n], m) + float64(quiver.Max(f32[:n], m)) + float64(quiver.Min(i8[:n], m)) + float64(quiver.Max(u64[:n], m))
			lo, hi := quiver.MinMax(i64[:n], m)
			r += float64(lo + hi)
			r += quiver.Summarize(f64[:n], m).Min + float64(quiver.Summarize(u32[:n], m).Max)
			r += float64(quiver.CountValid(n, m))
			r += quiver.SumReproducible(f64[:n], m) + float64(quiver.SumReproducible(f32[:n], m))

			var s64 quiver.SumState[float64]
			var s32 quiver.SumState[float32]
			s64.Add(f64[:n], m)
			s32.Add(f32[:n], m)
			var si quiver.IntSumState[int64]
			var si8 quiver.IntSumState[int8]
			si.Add(i64[:n], m)
			si8.Add(i8[:n], m)
			var su quiver.UintSumState[uint32]
			su.Add(u32[:n], m)
			var ss quiver.SummaryState[float64]
			var ssi quiver.SummaryState[int64]
			ss.Add(f64[:n], m)
			ssi.Add(i64[:n], m)
			var sc quiver.CountState
			sc.Add(n, m)
			var sr quiver.SumReproducibleState[float64]
			var sr32 quiver.SumReproducibleState[float32]
			sr.Add(f64[:n], m)
			sr32.Add(f32[:n], m)
			r += s64.Sum() + float64(s32.Sum()) + float64(si.Sum()+si8.Sum()) + float64(su.Sum()) +
				ss.Min() + float64(ssi.Max()) + float64(sc.Count()) + sr.Sum() + float64(sr32.Sum())
		}
	}
	return r
}

// groupLocals adds slices of local arrays to the min-only and max-only
// grouped states (their tables are allocated by Grow, so only the
// compiler's escape analysis checks this function, not AllocsPerRun).
//
//go:noinline
func groupLocals() float64 {
	var f64 [300]float64
	var i8 [300]int8
	var u64 [300]uint64
	var ids [300]uint32
	var bm [40]byte
	var sel [16]uint32
	for i := range f64 {
		f64[i], i8[i], u64[i], ids[i] = float64(i), int8(i), uint64(i), uint32(i%3)
	}
	var r float64
	for _, m := range []quiver.Mask{{}, quiver.Valid(bm[:], 3), quiver.Select(sel[:])} {
		var mn quiver.GroupMinState[float64]
		var mx quiver.GroupMaxState[int8]
		var mx64 quiver.GroupMaxState[uint64]
		mn.Grow(3)
		mx.Grow(3)
		mx64.Grow(3)
		mn.Add(f64[:], ids[:], m)
		mx.Add(i8[:], ids[:], m)
		mx64.Add(u64[:], ids[:])
		r += mn.Min(0) + float64(mx.Max(1)) + float64(mx64.Max(2))
	}
	return r
}
