// Package kernel is quiver's kernel layer: the portable loops, the
// short-input and selection loops, the exact accumulator of the
// reproducible sum, the per-architecture wrappers and the generated
// assembly. It never imports the API package above it: it takes
// validated input (a bitmap as the exact span of the elements' bits from
// bit off < 8, or nil for all valid; selections checked as each function
// says) and the instruction set to run on, an [ISA] value.
//
// Dispatch is one mechanism for every family: each exported entry point
// (SumFloat, SumInt, Summary, SelSum..., CountValid, SumLanes, ReproAdd
// and so on) reaches one switch on the ISA that calls its kernel
// directly, in dispatch_amd64.go, dispatch_arm64.go or dispatch_other.go
// for the build; the generic ones first map the element type to its
// machine type and an out-of-line entry of this package (typed.go).
// No kernel is reached through a function value, so the compiler sees
// every call, and a caller's local arrays stay on its stack.
package kernel

import "github.com/quiverlabs/quiver/internal/oracle"

// ISA is an instruction set the kernels run on: the active backend of the
// API package is one of these values. Scalar and Generic are portable Go
// and exist in every build; the others only where their build has
// assembly (amd64 or arm64 without the purego tag).
type ISA uint8

const (
	Scalar  ISA = iota // the reference: strict float sums, one accumulator
	Generic            // portable Go with independent accumulators where the order cannot show
	AVX2               // amd64: AVX2, BMI2, POPCNT
	AVX512             // amd64: AVX-512 F, BW, DQ, VL, VPOPCNTDQ
	NEON               // arm64: Advanced SIMD
)

var isaNames = [...]string{"scalar", "generic", "avx2", "avx512", "neon"}

func (i ISA) String() string {
	if int(i) < len(isaNames) {
		return isaNames[i]
	}
	return "unknown"
}

// Policy32 and Policy64 are isa's float sum layouts under ADR-013, which
// oracle.Sum reproduces: blocks of A accumulators of W lanes.
func (i ISA) Policy32() oracle.Policy {
	switch i {
	case AVX2:
		return oracle.Policy{A: 4, W: 8} // four YMM accumulators
	case AVX512:
		return oracle.Policy{A: 4, W: 16} // four ZMM accumulators
	case NEON:
		return oracle.Policy{A: 4, W: 4} // four 128-bit accumulators
	}
	return oracle.Policy{A: 1, W: 1} // the strict left fold
}

func (i ISA) Policy64() oracle.Policy {
	switch i {
	case AVX2:
		return oracle.Policy{A: 4, W: 4}
	case AVX512:
		return oracle.Policy{A: 4, W: 8}
	case NEON:
		return oracle.Policy{A: 4, W: 2}
	}
	return oracle.Policy{A: 1, W: 1}
}

// WideWordCut is the length from which a masked sum of 32- or 64-bit
// integers (and a checked sum with or without a bitmap) runs isa's kernel
// instead of the inline loops of short.go: SmallCut (never) unless isa has
// SIMD sum kernels that win there. Narrower elements fill less than one
// kernel step below SmallCut and keep the loops.
func (i ISA) WideWordCut() int {
	switch i {
	case AVX2, AVX512:
		// A masked sum of 32 wide elements or more runs the kernel:
		// int64, 10% nulls, n = 32 on AVX-512 took 22.4 ns against 34.6
		// ns for the word loop (29.2 ns for a user's loop); at n = 16 the
		// word loop wins, 19.4 against 24 ns. The checked sums at n = 32:
		// 25.4 against 37.8 ns masked, 17.9 against 21.5 ns dense (the
		// harness's call included in each).
		return 32
	case NEON:
		return neonWideWordCut
	}
	return SmallCut
}

// ExtremeCut is the length from which a dense Min or Max (both false),
// or MinMax or Summarize (both true), of size-byte elements, floats or
// integers, runs isa's summary kernels instead of the inline loops of
// short.go: SmallCut where isa has no kernels, none measured, or none
// that win. Reached through denseSummaryDirect (one Go frame between the
// API and the kernel), the AVX2 and AVX-512 kernels take 7-9 ns from 8
// to 32 elements on an AMD EPYC (family 26 model 2, Zen 5 class), where
// the loops take:
//   - for floats, Go's min in two chains per extreme (ChainMin,
//     ChainMax, ChainMinMax), about 0.55 ns an element for one extreme
//     and 0.8 for both: a float64 Min of 12 7.8 ns, of 16 10.3, a MinMax
//     of 8 8.5, of 12 11.3;
//   - for integers, chains of a compare and a conditional move, about
//     0.4 ns an element for one extreme and 0.6 for both: an int64 Min
//     of 12 7.0 ns, of 16 9.4, an int32 MinMax of 8 6.9, of 12 11.4.
//
// So one extreme runs the kernels from 16 elements and both from 12,
// but integers on AVX-512 from 20 and 16: there an int64 Min of 16 took
// 1.07-1.09 times the loops' time, a uint8 MinMax of 12 1.12-1.15
// (bench's H478-H483; before the direct functions, whose frames cost the
// kernels 3-4 ns, 24 and 16 for floats, 32 and 24 for integers:
// H377-H381, H396-H401). The AVX2 kernels of 8- and 16-bit integers take
// whole 32-byte vectors and fold the rest, up to 31 elements, in Go, so
// those keep the loops.
func (i ISA) ExtremeCut(size int, float, both bool) int {
	if i != AVX512 && (i != AVX2 || !float && size < 4) {
		return SmallCut
	}
	cut := 16 // Min and Max
	if both {
		cut = 12 // MinMax and Summarize
	}
	if !float && i == AVX512 {
		cut += 4 // the AVX-512 integer kernels' masked vectors cost more
	}
	return cut
}

// DenseIntSumCut is the length from which a dense SumInt or SumUint of
// size-byte elements runs isa's kernel instead of the inline loop of four
// wrapping sums (SumInts): SmallCut where isa has no kernels, or none
// measured to win. Reached through sumIntDirect (one Go frame between the
// API and the kernel), the AVX2 and AVX-512 kernels take 8-12 ns below
// 64 elements on an AMD EPYC (family 26 model 2, Zen 5 class), against
// about 0.25 ns an element more in the loop; the kernels' time over the
// loop's (bench's H484-H485): int64 and int32 0.87-0.94 at 32, 0.59-0.73
// at 48 and 63; uint8 on AVX-512 1.20 at 32, 0.91 at 48, 0.73 at 63, on
// AVX2 (whose byte kernel takes whole 32-byte vectors and leaves the rest
// to Go) 1.03-1.20. So 32- and 64-bit elements from 32, bytes on AVX-512
// from 48; 16-bit elements, not measured, and bytes on AVX2 keep the
// loop below 64.
func (i ISA) DenseIntSumCut(size int) int {
	switch {
	case i != AVX2 && i != AVX512:
		return SmallCut
	case size >= 4:
		return 32
	case size == 1 && i == AVX512:
		return 48
	}
	return SmallCut
}

// MaskedExtremeCut is ExtremeCut for an input with a validity bitmap:
// the length from which a masked Min or Max (both false), or MinMax or
// Summarize (both true), runs isa's masked summary kernels instead of the
// loops over one validity word (SummaryWord and the word loops of
// short.go), which branch on each element's bit. Measured on an AMD EPYC
// (family 26 model 2, Zen 5 class) with 10% nulls, once the kernels were
// one call below the API (summaryDirect): both routes timed in one
// binary, with 5 ns added to the kernels' for the API's frames the word
// loops do not cross, the kernels' time over the loops' (bench's
// H492-H496; H459-H466 chose the cuts before):
//   - both extremes of floats 0.67-0.77 at 32, 0.91-1.04 where the
//     minimum is a zero (the rescan for the first zero costs the
//     kernels' path more), so from 32; of 16- to 64-bit integers 0.88-0.95
//     at 24 and 0.68-0.77 at 32, so from 32;
//   - one extreme 0.84-1.01 at 32, 0.68-0.86 at 40 (1.05-1.14 with a zero
//     minimum) and 0.60-0.73 at 48, so from 40;
//   - bytes on AVX2, whose kernel takes whole 32-byte vectors: both 0.73
//     at 32, one 0.92-0.95 at 32 and 40 and 0.77 at 48, so from 32 and
//     48;
//   - bytes on AVX-512, whose kernel computes both extremes whatever the
//     call wants: one extreme 0.96 at 48 and 0.86 at 63, both 0.93 at 32
//     and 0.77 at 40, so the loops for one and the kernel for both from
//     40.
//
// The portable backends and NEON keep the loops below SmallCut: NEON's
// simulated calls put its kernels' path at 1.5-2.8 times the word loops'
// cycles below 64 in the Neoverse models (docs/neon.md, "Crossovers").
// (Written to inline, as ExtremeCut.)
func (i ISA) MaskedExtremeCut(size int, float, both bool) int {
	switch {
	case i != AVX2 && i != AVX512:
		return SmallCut
	case size == 1 && i == AVX512 && both:
		return 40
	case size == 1 && i == AVX512:
		return SmallCut
	case size == 1 && !both:
		return 48
	case both:
		return 32
	}
	return 40
}

// BlockSumsInGo says whether a dense float sum of one block up to two
// (block <= n < 2*block, block the policy's A*W elements) runs BlockSum
// here instead of isa's kernel: the kernel would add one block, fold it
// and return, and its call costs more than the scalar adds. Measured on
// AVX2 (AMD EPYC Zen 3, family 25 model 1; bench/shortblock_test.go):
// float64 n = 16 to 31 and float32 n = 32 to 63; and on AVX-512 (AMD EPYC
// Zen 4, family 25 model 17): float64 n = 32 to 63 and float32 n = 64 to
// 127. Since the direct functions took 3-4 ns off the kernels' call, a
// sum of exactly one block of W >= 8 lanes runs the kernel (the API's
// Sum tests it): BlockSum's 4W accumulators no longer fit in
// registers, and on an AMD EPYC family 26 model 2 the kernel took 0.60
// of its time for 64 float32 on AVX-512 and 0.91 for 32 float64 on
// AVX-512 and 32 float32 on AVX2 (bench's H483). With a tail of
// elements after the block, added one by one in index order either way,
// BlockSum stays ahead. NEON keeps its kernels until a machine of its
// own measures the same.
func (i ISA) BlockSumsInGo() bool { return i == AVX2 || i == AVX512 }

// neonWideWordCut is WideWordCut on NEON, chosen from simulated whole
// calls (scripts/neon-mca.sh; docs/neon.md, "Crossovers"): llvm-mca over
// the executed instructions of a masked int64 or int32 SumInt and of a
// masked or dense int64 SumChecked, word loop against kernel, at n = 8 to
// 56. From 48 the kernel is level or ahead in 15 of the 16 call-and-model
// pairs (Apple M1 and Neoverse N1, V1 and N2 models: 0.38 to 0.85 of the
// word loop's cycles; Neoverse V2: 0.78 to 0.96, and 1.06 for the dense
// checked sum); at 40 the V2 model loses up to 1.21 and the N2 model's
// int64 margin (0.93) is within what llvm-mca leaves out, which is more of
// the kernel's path (calls, returns and taken branches) than of the loop's.
const neonWideWordCut = 48

// Extremes says which results of the summary kernels a caller needs.
type Extremes uint8

const (
	WantBoth Extremes = iota // min and max: the fused summary kernel
	WantMin                  // min only: the ISA's min kernel, if it has one
	WantMax                  // max only: the ISA's max kernel, if it has one
)
