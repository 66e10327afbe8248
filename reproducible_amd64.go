//go:build amd64 && !purego

package quiver

import "golang.org/x/sys/cpu"

// The reproducible sum's kernels on amd64 (reproducible_amd64.s, generated
// by internal/asm/amd64/repro). The kernels take a length that is a
// multiple of their step and never read past it; the wrappers pass the
// largest such prefix and finish the rest with the portable kernels, whose
// fold sums add to the kernel's exactly (ADR-105).

func init() {
	// Steps: two (AVX2) or four (AVX-512) vectors of float64 lanes per
	// fold iteration (a float32 vector is widened from half a register),
	// four full vectors per exponent-pass iteration.
	// The AVX2 backend does not require FMA; where the CPU has it, the
	// folds put part of their additions on the FMA units (see the
	// generator).
	fold32, fold64 := reproFoldF32AVX2, reproFoldF64AVX2
	if cpu.X86.HasFMA {
		fold32, fold64 = reproFoldF32FMAAVX2, reproFoldF64FMAAVX2
	}
	avx2Backend.repro32 = reproKernels[float32]{
		maxExp: reproMaxWrap(reproMaxF32AVX2, 4*8, 23),
		fold:   reproFoldWrap(fold32, 2*4),
	}
	avx2Backend.repro64 = reproKernels[float64]{
		maxExp: reproMaxWrap(reproMaxF64AVX2, 4*4, 20),
		fold:   reproFoldWrap(fold64, 2*4),
	}
	avx512Backend.repro32 = reproKernels[float32]{
		maxExp: reproMaxWrap(reproMaxF32AVX512, 4*16, 23),
		fold:   reproFoldWrap(reproFoldF32FMAAVX512, 4*8),
	}
	avx512Backend.repro64 = reproKernels[float64]{
		maxExp: reproMaxWrap(reproMaxF64AVX512, 4*8, 20),
		fold:   reproFoldWrap(reproFoldF64FMAAVX512, 4*8),
	}
}

// The AVX2 folds without FMA, for the tests on CPUs that have FMA.
var (
	reproFold32AVX2NoFMA = reproFoldWrap(reproFoldF32AVX2, 2*4)
	reproFold64AVX2NoFMA = reproFoldWrap(reproFoldF64AVX2, 2*4)
)

// reproMaxWrap adapts an exponent-pass kernel, which returns the largest
// exponent field shifted left by shift within 32 bits.
func reproMaxWrap[T float32 | float64](kernel func(x []T) uint32, step int, shift uint) func([]T) int {
	tail := reproGoKernels[T]().maxExp
	return func(x []T) int {
		full := len(x) - len(x)%step
		e := 0
		if full > 0 {
			e = int(kernel(x[:full]) >> shift)
		}
		return max(e, tail(x[full:]))
	}
}

// reproFoldWrap adapts a fold kernel; the tail's fold sums are multiples of
// the same grids and add to the kernel's exactly.
func reproFoldWrap[T float32 | float64](kernel func(x []T, mA, mB, mC float64) (a, b, c float64, resid uint64), step int) func([]T, float64, float64, float64) (float64, float64, float64, uint64) {
	return func(x []T, mA, mB, mC float64) (float64, float64, float64, uint64) {
		full := len(x) - len(x)%step
		var a, b, c float64
		var r uint64
		if full > 0 {
			a, b, c, r = kernel(x[:full], mA, mB, mC)
		}
		ta, tb, tc, tr := reproFold(x[full:], mA, mB, mC)
		return a + ta, b + tb, c + tc, r | tr
	}
}
