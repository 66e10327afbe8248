//go:build amd64 && !purego

package quiver

import "golang.org/x/sys/cpu"

// The reproducible sum's kernels on amd64 (reproducible_amd64.s, generated
// by internal/asm/amd64/repro), adapted by reproMaxWrap and reproFoldWrap.

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
