//go:build amd64 && !purego

package kernel

import "github.com/quiverlabs/quiver/internal/num"

// The calls into the amd64 assembly: one switch per kernel shape over the
// instruction set and T's machine type, each case a direct call of the
// generated stub, so that the compiler sees every callee (and its
// //go:noescape) and nothing the caller passes has to move to the heap.
// The wrappers of sum_amd64.go, summary_amd64.go, count_amd64.go and
// gather_amd64.go call these; the reproducible sum's are in
// repro_amd64.go. A combination without a kernel panics: the wrappers
// only ask for kernels that exist (see the has* functions).

// sumAsm is the wrapping (integer) or ADR-013 block (float) sum kernel of
// isa for T on x, whose length is a multiple of the kernel's step.
func sumAsm[T num.Number, S int64 | uint64 | float32 | float64](isa ISA, x []T, bits []byte, off int) S {
	switch num.KindOf[T]() {
	case num.Int8:
		if isa == AVX512 {
			return S(sumI8AVX512(num.Cast[int8](x), bits, off))
		}
		return S(sumI8AVX2(num.Cast[int8](x), bits, off))
	case num.Int16:
		if isa == AVX512 {
			return S(sumI16AVX512(num.Cast[int16](x), bits, off))
		}
		return S(sumI16AVX2(num.Cast[int16](x), bits, off))
	case num.Int32:
		if isa == AVX512 {
			return S(sumI32AVX512(num.Cast[int32](x), bits, off))
		}
		return S(sumI32AVX2(num.Cast[int32](x), bits, off))
	case num.Int64:
		if isa == AVX512 {
			return S(sumI64AVX512(num.Cast[int64](x), bits, off))
		}
		return S(sumI64AVX2(num.Cast[int64](x), bits, off))
	case num.Uint8:
		if isa == AVX512 {
			return S(sumU8AVX512(num.Cast[uint8](x), bits, off))
		}
		return S(sumU8AVX2(num.Cast[uint8](x), bits, off))
	case num.Uint16:
		if isa == AVX512 {
			return S(sumU16AVX512(num.Cast[uint16](x), bits, off))
		}
		return S(sumU16AVX2(num.Cast[uint16](x), bits, off))
	case num.Uint32:
		if isa == AVX512 {
			return S(sumU32AVX512(num.Cast[uint32](x), bits, off))
		}
		return S(sumU32AVX2(num.Cast[uint32](x), bits, off))
	case num.Uint64:
		if isa == AVX512 {
			return S(sumU64AVX512(num.Cast[uint64](x), bits, off))
		}
		return S(sumU64AVX2(num.Cast[uint64](x), bits, off))
	case num.Float32:
		if isa == AVX512 {
			return S(sumF32AVX512(num.Cast[float32](x), bits, off))
		}
		return S(sumF32AVX2(num.Cast[float32](x), bits, off))
	case num.Float64:
		if isa == AVX512 {
			return S(sumF64AVX512(num.Cast[float64](x), bits, off))
		}
		return S(sumF64AVX2(num.Cast[float64](x), bits, off))
	}
	panic("quiver: internal error: no sum kernel")
}

// checkedI64Asm is the checked sum kernel of isa: split sums of the valid
// elements (see checkedSigned and checkedUnsigned).
func checkedI64Asm(isa ISA, x []int64, bits []byte, off int) (lo, hi uint64) {
	if isa == AVX512 {
		return checkedI64AVX512(x, bits, off)
	}
	return checkedI64AVX2(x, bits, off)
}

// checkedU64Asm is the checked sum kernel of isa: split sums of the valid
// elements (see checkedSigned and checkedUnsigned).
func checkedU64Asm(isa ISA, x []uint64, bits []byte, off int) (lo, hi uint64) {
	if isa == AVX512 {
		return checkedU64AVX512(x, bits, off)
	}
	return checkedU64AVX2(x, bits, off)
}

// sumLanesAsm is the lane-carrying float sum kernel of isa (see SumLanes).
func sumLanesAsm[T float32 | float64](isa ISA, acc, x []T, bits []byte, off int) {
	f32 := num.KindOf[T]() == num.Float32
	switch {
	case isa == AVX2 && f32:
		sumLanesF32AVX2(num.Cast[float32](acc), num.Cast[float32](x), bits, off)
	case isa == AVX2:
		sumLanesF64AVX2(num.Cast[float64](acc), num.Cast[float64](x), bits, off)
	case isa == AVX512 && f32:
		sumLanesF32AVX512(num.Cast[float32](acc), num.Cast[float32](x), bits, off)
	case isa == AVX512:
		sumLanesF64AVX512(num.Cast[float64](acc), num.Cast[float64](x), bits, off)
	default:
		panic("quiver: internal error: no lane-carrying kernel for " + isa.String())
	}
}

// countValidAsm counts the set bits of b, whole 8-byte words, on isa.
func countValidAsm(isa ISA, b []byte) int {
	if isa == AVX512 {
		return countValidAVX512(b)
	}
	return countValidAVX2(b)
}

// summaryDenseAsm is the dense summary kernel of isa for T computing want
// (min-only and max-only kernels exist for floats).
func summaryDenseAsm[T num.Number](isa ISA, want Extremes, x []T) (lo, hi T, nan bool) {
	avx512 := isa == AVX512
	switch num.KindOf[T]() {
	case num.Int8:
		if !avx512 {
			l, h, n := summaryDenseI8AVX2(num.Cast[int8](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseI8AVX512(num.Cast[int8](x))
			return T(l), T(h), n
		}
	case num.Int16:
		if !avx512 {
			l, h, n := summaryDenseI16AVX2(num.Cast[int16](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseI16AVX512(num.Cast[int16](x))
			return T(l), T(h), n
		}
	case num.Int32:
		if !avx512 {
			l, h, n := summaryDenseI32AVX2(num.Cast[int32](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseI32AVX512(num.Cast[int32](x))
			return T(l), T(h), n
		}
	case num.Int64:
		if !avx512 {
			l, h, n := summaryDenseI64AVX2(num.Cast[int64](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseI64AVX512(num.Cast[int64](x))
			return T(l), T(h), n
		}
	case num.Uint8:
		if !avx512 {
			l, h, n := summaryDenseU8AVX2(num.Cast[uint8](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseU8AVX512(num.Cast[uint8](x))
			return T(l), T(h), n
		}
	case num.Uint16:
		if !avx512 {
			l, h, n := summaryDenseU16AVX2(num.Cast[uint16](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseU16AVX512(num.Cast[uint16](x))
			return T(l), T(h), n
		}
	case num.Uint32:
		if !avx512 {
			l, h, n := summaryDenseU32AVX2(num.Cast[uint32](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseU32AVX512(num.Cast[uint32](x))
			return T(l), T(h), n
		}
	case num.Uint64:
		if !avx512 {
			l, h, n := summaryDenseU64AVX2(num.Cast[uint64](x))
			return T(l), T(h), n
		}
		if avx512 {
			l, h, n := summaryDenseU64AVX512(num.Cast[uint64](x))
			return T(l), T(h), n
		}
	case num.Float32:
		if want == WantBoth && !avx512 {
			l, h, n := summaryDenseF32AVX2(num.Cast[float32](x))
			return T(l), T(h), n
		}
		if want == WantBoth && avx512 {
			l, h, n := summaryDenseF32AVX512(num.Cast[float32](x))
			return T(l), T(h), n
		}
		if want == WantMin && !avx512 {
			l, h, n := summaryMinDenseF32AVX2(num.Cast[float32](x))
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := summaryMinDenseF32AVX512(num.Cast[float32](x))
			return T(l), T(h), n
		}
		if want == WantMax && !avx512 {
			l, h, n := summaryMaxDenseF32AVX2(num.Cast[float32](x))
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := summaryMaxDenseF32AVX512(num.Cast[float32](x))
			return T(l), T(h), n
		}
	case num.Float64:
		if want == WantBoth && !avx512 {
			l, h, n := summaryDenseF64AVX2(num.Cast[float64](x))
			return T(l), T(h), n
		}
		if want == WantBoth && avx512 {
			l, h, n := summaryDenseF64AVX512(num.Cast[float64](x))
			return T(l), T(h), n
		}
		if want == WantMin && !avx512 {
			l, h, n := summaryMinDenseF64AVX2(num.Cast[float64](x))
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := summaryMinDenseF64AVX512(num.Cast[float64](x))
			return T(l), T(h), n
		}
		if want == WantMax && !avx512 {
			l, h, n := summaryMaxDenseF64AVX2(num.Cast[float64](x))
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := summaryMaxDenseF64AVX512(num.Cast[float64](x))
			return T(l), T(h), n
		}
	}
	panic("quiver: internal error: no summary kernel")
}

// summaryMaskedAsm is the masked summary kernel of isa for T computing want
// (min-only and max-only kernels exist for floats).
func summaryMaskedAsm[T num.Number](isa ISA, want Extremes, x []T, bits []byte, tail uint64) (lo, hi T, valid int, nan bool) {
	avx512 := isa == AVX512
	switch num.KindOf[T]() {
	case num.Int8:
		if !avx512 {
			l, h, v, n := summaryMaskedI8AVX2(num.Cast[int8](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedI8AVX512(num.Cast[int8](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Int16:
		if !avx512 {
			l, h, v, n := summaryMaskedI16AVX2(num.Cast[int16](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedI16AVX512(num.Cast[int16](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Int32:
		if !avx512 {
			l, h, v, n := summaryMaskedI32AVX2(num.Cast[int32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedI32AVX512(num.Cast[int32](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Int64:
		if !avx512 {
			l, h, v, n := summaryMaskedI64AVX2(num.Cast[int64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedI64AVX512(num.Cast[int64](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Uint8:
		if !avx512 {
			l, h, v, n := summaryMaskedU8AVX2(num.Cast[uint8](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedU8AVX512(num.Cast[uint8](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Uint16:
		if !avx512 {
			l, h, v, n := summaryMaskedU16AVX2(num.Cast[uint16](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedU16AVX512(num.Cast[uint16](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Uint32:
		if !avx512 {
			l, h, v, n := summaryMaskedU32AVX2(num.Cast[uint32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedU32AVX512(num.Cast[uint32](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Uint64:
		if !avx512 {
			l, h, v, n := summaryMaskedU64AVX2(num.Cast[uint64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if avx512 {
			l, h, v, n := summaryMaskedU64AVX512(num.Cast[uint64](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Float32:
		if want == WantBoth && !avx512 {
			l, h, v, n := summaryMaskedF32AVX2(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantBoth && avx512 {
			l, h, v, n := summaryMaskedF32AVX512(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMin && !avx512 {
			l, h, v, n := summaryMinMaskedF32AVX2(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMin && avx512 {
			l, h, v, n := summaryMinMaskedF32AVX512(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMax && !avx512 {
			l, h, v, n := summaryMaxMaskedF32AVX2(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMax && avx512 {
			l, h, v, n := summaryMaxMaskedF32AVX512(num.Cast[float32](x), bits, tail)
			return T(l), T(h), v, n
		}
	case num.Float64:
		if want == WantBoth && !avx512 {
			l, h, v, n := summaryMaskedF64AVX2(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantBoth && avx512 {
			l, h, v, n := summaryMaskedF64AVX512(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMin && !avx512 {
			l, h, v, n := summaryMinMaskedF64AVX2(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMin && avx512 {
			l, h, v, n := summaryMinMaskedF64AVX512(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMax && !avx512 {
			l, h, v, n := summaryMaxMaskedF64AVX2(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
		if want == WantMax && avx512 {
			l, h, v, n := summaryMaxMaskedF64AVX512(num.Cast[float64](x), bits, tail)
			return T(l), T(h), v, n
		}
	}
	panic("quiver: internal error: no summary kernel")
}

// selMaxAsm is the largest index of sel (a whole number of steps) on isa.
func selMaxAsm(isa ISA, sel []uint32) uint32 {
	if isa == AVX512 {
		return selMaxAVX512(sel)
	}
	return selMaxAVX2(sel)
}

// selSumAsm is the gathered wrapping sum of x over sel (a whole number of
// steps) on isa, for 64-bit T.
func selSumAsm[T int64 | uint64, S int64 | uint64](isa ISA, x []T, sel []uint32) S {
	switch {
	case isa == AVX2 && num.KindOf[T]() == num.Int64:
		return S(selSumI64AVX2(num.Cast[int64](x), sel))
	case isa == AVX2:
		return S(selSumU64AVX2(num.Cast[uint64](x), sel))
	case isa == AVX512 && num.KindOf[T]() == num.Int64:
		return S(selSumI64AVX512(num.Cast[int64](x), sel))
	case isa == AVX512:
		return S(selSumU64AVX512(num.Cast[uint64](x), sel))
	}
	panic("quiver: internal error: no gathered sum kernel")
}

// selDenseAsm is the gathered min/max kernel of isa for T computing want
// over sel (a whole number of steps); see hasSelMinMax.
func selDenseAsm[T num.Number](isa ISA, want Extremes, x []T, sel []uint32) (lo, hi T, nan bool) {
	avx512 := isa == AVX512
	switch num.KindOf[T]() {
	case num.Int32:
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxI32AVX512(num.Cast[int32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinI32AVX512(num.Cast[int32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxI32AVX512(num.Cast[int32](x), sel)
			return T(l), T(h), n
		}
	case num.Int64:
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxI64AVX512(num.Cast[int64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinI64AVX512(num.Cast[int64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxI64AVX512(num.Cast[int64](x), sel)
			return T(l), T(h), n
		}
	case num.Uint32:
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxU32AVX512(num.Cast[uint32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinU32AVX512(num.Cast[uint32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxU32AVX512(num.Cast[uint32](x), sel)
			return T(l), T(h), n
		}
	case num.Uint64:
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxU64AVX512(num.Cast[uint64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinU64AVX512(num.Cast[uint64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxU64AVX512(num.Cast[uint64](x), sel)
			return T(l), T(h), n
		}
	case num.Float32:
		if want == WantBoth && !avx512 {
			l, h, n := selMinMaxF32AVX2(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxF32AVX512(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && !avx512 {
			l, h, n := selMinF32AVX2(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinF32AVX512(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && !avx512 {
			l, h, n := selMaxF32AVX2(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxF32AVX512(num.Cast[float32](x), sel)
			return T(l), T(h), n
		}
	case num.Float64:
		if want == WantBoth && !avx512 {
			l, h, n := selMinMaxF64AVX2(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
		if want == WantBoth && avx512 {
			l, h, n := selMinMaxF64AVX512(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && !avx512 {
			l, h, n := selMinF64AVX2(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMin && avx512 {
			l, h, n := selMinF64AVX512(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && !avx512 {
			l, h, n := selMaxF64AVX2(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
		if want == WantMax && avx512 {
			l, h, n := selMaxF64AVX512(num.Cast[float64](x), sel)
			return T(l), T(h), n
		}
	}
	panic("quiver: internal error: no gathered min/max kernel")
}

// selValidAsm is the gathered min/max kernel of isa for T computing want
// over sel (a whole number of steps); see hasSelMinMax.
func selValidAsm[T num.Number](isa ISA, want Extremes, x []T, sel []uint32, bits []byte, off int) (lo, hi T, nan bool, valid int) {
	avx512 := isa == AVX512
	switch num.KindOf[T]() {
	case num.Int32:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxI32ValidAVX512(num.Cast[int32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinI32ValidAVX512(num.Cast[int32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxI32ValidAVX512(num.Cast[int32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	case num.Int64:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxI64ValidAVX512(num.Cast[int64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinI64ValidAVX512(num.Cast[int64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxI64ValidAVX512(num.Cast[int64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	case num.Uint32:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxU32ValidAVX512(num.Cast[uint32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinU32ValidAVX512(num.Cast[uint32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxU32ValidAVX512(num.Cast[uint32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	case num.Uint64:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxU64ValidAVX512(num.Cast[uint64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinU64ValidAVX512(num.Cast[uint64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxU64ValidAVX512(num.Cast[uint64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	case num.Float32:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxF32ValidAVX512(num.Cast[float32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinF32ValidAVX512(num.Cast[float32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxF32ValidAVX512(num.Cast[float32](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	case num.Float64:
		if want == WantBoth && avx512 {
			l, h, n, v := selMinMaxF64ValidAVX512(num.Cast[float64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMin && avx512 {
			l, h, n, v := selMinF64ValidAVX512(num.Cast[float64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
		if want == WantMax && avx512 {
			l, h, n, v := selMaxF64ValidAVX512(num.Cast[float64](x), sel, bits, off)
			return T(l), T(h), n, v
		}
	}
	panic("quiver: internal error: no gathered min/max kernel")
}
