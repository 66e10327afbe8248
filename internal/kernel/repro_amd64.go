//go:build amd64 && !purego

package kernel

import (
	"github.com/quiverlabs/quiver/internal/num"
)

// The reproducible sum's kernels on amd64 (repro_amd64.s, generated
// by internal/asm/amd64/repro), called by reproKernels' methods.

// archReproRange runs the range kernel of id on x, a multiple of its
// step, with a direct call.
func archReproRange[T float32 | float64](id reproID, x []T) (hi, lo uint32) {
	f32, avx512 := num.KindOf[T]() == num.Float32, id.isAVX512()
	switch {
	case avx512 && f32:
		return reproRangeF32AVX512(num.Cast[float32](x))
	case avx512:
		return reproRangeF64AVX512(num.Cast[float64](x))
	case (id == reproAVX2 || id == reproAVX2FMA) && f32:
		return reproRangeF32AVX2(num.Cast[float32](x))
	case id == reproAVX2 || id == reproAVX2FMA:
		return reproRangeF64AVX2(num.Cast[float64](x))
	}
	panic("quiver: internal error: no reproducible-sum kernels here")
}

// archReproFold runs the fold kernel of id on x, a multiple of its step,
// in the way plan p says, with a direct call; pf (at least as long as x)
// is prefetched meanwhile. The sums are in units of each fold's grid.
func archReproFold[T float32 | float64](id reproID, p reproPlan, x, pf []T, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	f32, avx512 := num.KindOf[T]() == num.Float32, id.isAVX512()
	switch {
	case avx512 && f32:
		return reproFoldF32FMAAVX512(num.Cast[float32](x), num.Cast[float32](pf), int(p), mA, mB, mC)
	case avx512:
		return reproFoldF64FMAAVX512(num.Cast[float64](x), num.Cast[float64](pf), int(p), mA, mB, mC)
	case id == reproAVX2FMA && f32:
		return reproFoldF32FMAAVX2(num.Cast[float32](x), num.Cast[float32](pf), int(p), mA, mB, mC)
	case id == reproAVX2FMA:
		return reproFoldF64FMAAVX2(num.Cast[float64](x), num.Cast[float64](pf), int(p), mA, mB, mC)
	case id == reproAVX2 && f32:
		return reproFoldF32AVX2(num.Cast[float32](x), num.Cast[float32](pf), int(p), mA, mB, mC)
	case id == reproAVX2:
		return reproFoldF64AVX2(num.Cast[float64](x), num.Cast[float64](pf), int(p), mA, mB, mC)
	}
	panic("quiver: internal error: no reproducible-sum kernels here")
}

// isAVX512 reports whether id names AVX-512 kernels: reproAVX512, or
// reproAVX512Stream, which differs from it in foldNext only.
func (id reproID) isAVX512() bool { return id == reproAVX512 || id == reproAVX512Stream }

// archReproFoldsRange reports whether the kernels id fold a block and
// run the range pass of the next one in the same loop
// (archReproFoldRange): reproAVX512Stream, the AVX-512 kernels for dense
// input from DRAM (reproIDDense). The AVX2 ones have no such kernel: the
// range pass's accumulators do not fit beside the fold pipeline in 16
// registers.
func archReproFoldsRange(id reproID) bool { return id == reproAVX512Stream }

// archReproFoldRange is archReproFold for kernels with
// archReproFoldsRange: it runs the range kernel's pass over nx, as long as
// x, in the same loop, and returns its hi and lo as well; pf, as long as
// x, is prefetched as nx is read.
func archReproFoldRange[T float32 | float64](id reproID, p reproPlan, x, nx, pf []T, mA, mB, mC float64) (a, b, c int64, resid uint64, hi, lo uint32) {
	switch {
	case id == reproAVX512Stream && num.KindOf[T]() == num.Float32:
		return reproFoldRangeF32FMAAVX512(num.Cast[float32](x), num.Cast[float32](nx), num.Cast[float32](pf), int(p), mA, mB, mC)
	case id == reproAVX512Stream:
		return reproFoldRangeF64FMAAVX512(num.Cast[float64](x), num.Cast[float64](nx), num.Cast[float64](pf), int(p), mA, mB, mC)
	}
	panic("quiver: internal error: no fold-and-range kernel here")
}

// archReproCompress runs the compress kernel of id on x, a multiple of
// reproCompressStep, into dst (at least as long), with a direct call.
func archReproCompress[T float32 | float64](id reproID, dst, x []T, bits []byte, off int) int {
	f32, avx512 := num.KindOf[T]() == num.Float32, id.isAVX512()
	switch {
	case avx512 && f32:
		return reproCompressF32AVX512(num.Cast[float32](dst), num.Cast[float32](x), bits, off)
	case avx512:
		return reproCompressF64AVX512(num.Cast[float64](dst), num.Cast[float64](x), bits, off)
	case (id == reproAVX2 || id == reproAVX2FMA) && f32:
		return reproCompressF32AVX2(num.Cast[float32](dst), num.Cast[float32](x), bits, off)
	case id == reproAVX2 || id == reproAVX2FMA:
		return reproCompressF64AVX2(num.Cast[float64](dst), num.Cast[float64](x), bits, off)
	}
	panic("quiver: internal error: no compress kernel here")
}
