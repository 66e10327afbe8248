//go:build amd64 && !purego

package kernel

import (
	"fmt"

	"golang.org/x/exp/constraints"
	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver/internal/num"
)

// The dispatch of every kernel family on amd64: one switch on the ISA per
// family, each case a direct call. Where little Go surrounds a kernel
// (the block split of the sums, the head and tail bits of a count) it is
// written here, so that a short call crosses no wrapper; the rest runs
// the wrappers of sum_amd64.go, summary_amd64.go, gather_amd64.go and
// repro_amd64.go around the generated assembly. Scalar and Generic run
// the portable Go of dispatch.go, generic.go and select.go.

// sumFloatOn is the float sum of the valid elements of x in isa's ADR-013
// order: sumFloatDirect's kernels on AVX2 and AVX512, the portable folds
// on the other ISAs.
func sumFloatOn[T float32 | float64](isa ISA, x []T, bits []byte, off int) T {
	if !sumsDirect(isa) {
		return portableSumFloat(isa, x, bits, off)
	}
	return sumFloatDirect(isa, x, bits, off)
}

// sumsDirect says whether sumFloatDirect and sumIntDirect call isa's
// kernels themselves (AVX2, AVX512), rather than the typed entries.
func sumsDirect(isa ISA) bool { return isa == AVX2 || isa == AVX512 }

// sumFloatDirect is SumFloat, which inlines it into the API's call. On
// AVX2 and AVX512 the kernel adds the whole blocks and folds them
// (ADR-013 steps 1 to 3), and the tail of fewer than block elements is
// added here in index order (step 4). The block, 4 vectors of T, is a
// power of two, and the kernels are called right here: a short sum pays
// for no more calls than it must. The other ISAs go through the typed
// entries, so that their loops are compiled in this package.
func sumFloatDirect[T constraints.Float](isa ISA, x []T, bits []byte, off int) T {
	// The test of sumsDirect written out: compiled where the API is
	// instantiated, a plain function of this package stays a call.
	if isa != AVX2 && isa != AVX512 {
		return sumFloatEntries(isa, x, bits, off)
	}
	block := 128 / sizeOf[T]() // four YMM vectors
	if isa == AVX512 {
		block *= 2 // four ZMM vectors
	}
	full := len(x) &^ (block - 1)
	var s T // +0.0: the fold of zero blocks
	if full > 0 {
		switch f32 := num.KindOf[T]() == num.Float32; {
		case f32 && isa == AVX512:
			s = T(sumF32AVX512(num.Cast[float32](x[:full]), bits, off))
		case f32:
			s = T(sumF32AVX2(num.Cast[float32](x[:full]), bits, off))
		case isa == AVX512:
			s = T(sumF64AVX512(num.Cast[float64](x[:full]), bits, off))
		default:
			s = T(sumF64AVX2(num.Cast[float64](x[:full]), bits, off))
		}
	}
	if full == len(x) {
		return s
	}
	return AddValid(s, x[full:], bits, off+full)
}

// sumIntOn is the wrapping sum of the valid elements of x, in S:
// sumIntDirect's kernels on AVX2 and AVX512, the portable loops on the
// other ISAs.
func sumIntOn[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	if !sumsDirect(isa) {
		return portableSumInt[T, S](isa, x, bits, off)
	}
	return sumIntDirect[T, S](isa, x, bits, off)
}

// sumIntDirect is SumInt, which inlines it into the API's call. On AVX2
// and AVX512 the kernel takes the longest prefix that is a multiple of
// its step (a vector of bytes, else 4 elements on AVX2 and 8 on AVX-512)
// and the rest is added here; the order of wrapping additions does not
// matter. The AVX-512 kernels take the rest too, as one masked vector
// (kernelSpan). The other ISAs go through the typed entries.
func sumIntDirect[T constraints.Integer, S int64 | uint64](isa ISA, x []T, bits []byte, off int) S {
	// The test of sumsDirect written out: compiled where the API is
	// instantiated, a plain function of this package stays a call.
	if isa != AVX2 && isa != AVX512 {
		return sumIntEntries[T, S](isa, x, bits, off)
	}
	if isa == AVX512 && bits == nil && fromDRAM[T](len(x)) {
		isa = AVX2
	}
	step := 4
	if k := num.KindOf[T](); k == num.Int8 || k == num.Uint8 {
		step = 32
	}
	if isa == AVX512 {
		step *= 2
	}
	// kernelSpan written out: this function is compiled where the API is
	// instantiated, and a plain function of this package does not inline
	// there (it was a call).
	full, r := len(x), len(x)&(step-1)
	if isa != AVX512 {
		full, r = full-r, 0
	}
	var tail uint64
	if r > 0 {
		tail = tailBits(bits, off+full-r, r)
	}
	var s S
	if full > 0 {
		// The 64-bit kernels are called from here, as sumFloatOn calls
		// its own, a frame fewer than through sumAsm's switch.
		switch k := num.KindOf[T](); {
		case k == num.Int64 && isa == AVX2:
			s = S(sumI64AVX2(num.Cast[int64](x[:full]), bits, off, tail))
		case k == num.Int64:
			s = S(sumI64AVX512(num.Cast[int64](x[:full]), bits, off, tail))
		case k == num.Uint64 && isa == AVX2:
			s = S(sumU64AVX2(num.Cast[uint64](x[:full]), bits, off, tail))
		case k == num.Uint64:
			s = S(sumU64AVX512(num.Cast[uint64](x[:full]), bits, off, tail))
		default:
			s = sumAsm[T, S](isa, x[:full], bits, off, tail)
		}
	}
	switch {
	case full == len(x):
		return s
	case bits == nil:
		return s + SumInts[T, S](x[full:])
	}
	return AddValid(s, x[full:], bits, off+full)
}

// kernelSpan returns how many of n elements an integer or checked sum
// kernel of isa with vectors of step elements takes, m, and r, how many
// of those form a partial last vector. On AVX2 the kernels take whole
// vectors (r = 0) and Go adds the rest. The AVX-512 kernels take all n,
// the last r elements as one vector under the opmask tail, their
// validity (tailBits; Go calls it only for r > 0). Go adding that rest
// cost an AVX-512 SumChecked over 1031 elements 13% more than over 1024
// (H415-H416 in bench/oddlen_test.go).
func kernelSpan(isa ISA, n, step int) (m, r int) {
	r = n & (step - 1) // steps are powers of two
	if isa != AVX512 {
		return n - r, 0
	}
	return n, r
}

// tailBits is the validity of the r < 64 elements from bit p of the
// bitmap span bits (nil: all valid), bit i for the i-th.
//
//go:noinline
func tailBits(bits []byte, p, r int) uint64 {
	t := ^uint64(0) >> (64 - uint(r))
	if bits != nil {
		t &= ValidWord(bits[p>>3:], p&7, r)
	}
	return t
}

// summaryOn is the min and max of the valid elements under the rules of
// ref.Summary (canonical NaN, first of equal values, identities when
// empty) and their count; with WantMin or WantMax only that extreme is
// meaningful.
func summaryOn[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if isa != AVX2 && isa != AVX512 {
		return portableSummary(isa, x, bits, off, want)
	}
	if bits != nil {
		return summaryDirect(isa, x, bits, off, want)
	}
	// MinMax and Summarize run the fused summary kernel, integers too;
	// Min and Max run kernels that compute only their extreme where they
	// exist (floats, and integers on AVX2; the call switch serves any
	// other want with the fused kernel). Dense floats take denseSummaryOn,
	// which calls the kernels without the wrapper runDense
	// (summary_amd64.go).
	if num.IsFloat[T]() && want != WantBoth && len(x) > 0 {
		lo, hi = denseSummaryOn(isa, x, want)
		return lo, hi, len(x)
	}
	k := summaryKernels[T](isa, len(x), nil)
	k.want = want
	lo, hi, nan := k.runDense(x)
	return settleExtremes(x, nil, 0, want, lo, hi, len(x), nan)
}

// denseSummaryOn is the min and max of a non-empty dense x under the
// rules of ref.Summary; with WantMin (WantMax) only that extreme is
// meaningful: denseSummaryDirect (asmcall_amd64.go) where a kernel takes
// x, denseSummaryRest where none does.
func denseSummaryOn[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	if _, ok := denseKernelISA[T](isa, len(x)); !ok {
		return denseSummaryRest(isa, x, want)
	}
	return denseSummaryDirect(isa, x, want)
}

// denseKernelISA is the ISA whose dense summary kernel takes n elements of
// T on isa, and whether one does: AVX-512 from dramBytes of input runs
// the AVX2 kernels (the same results by contract, see summaryKernels),
// which take an input of one step (max(lanes, 8) elements) or more. It
// inlines; summaryKernels and denseSpan, through which a 64-element Min
// ran 16 instructions more, are written out.
func denseKernelISA[T num.Number](isa ISA, n int) (ISA, bool) {
	if isa == AVX512 && fromDRAM[T](n) {
		isa = AVX2
	}
	return isa, isa == AVX512 || isa == AVX2 && n >= max(32/sizeOf[T](), 8)
}

// settleDenseF32 and settleDenseF64 finish a dense float kernel's lo and
// hi of x on isa for denseSummaryDirect, out of its line: a NaN alarm
// (confirmed or refuted) or a zero extreme (the first zero in index
// order). A single-extreme kernel returns the other extreme as its
// start, ±Inf, which passes the zero test.
//
//go:noinline
func settleDenseF32(isa ISA, x []float32, want Extremes, lo, hi float32, alarm bool) (float32, float32) {
	return summaryAsm[float32]{isa: isa, want: want}.settleDense(x, lo, hi, alarm)
}

//go:noinline
func settleDenseF64(isa ISA, x []float64, want Extremes, lo, hi float64, alarm bool) (float64, float64) {
	return summaryAsm[float64]{isa: isa, want: want}.settleDense(x, lo, hi, alarm)
}

// denseSummaryRest is denseSummaryOn where no kernel takes x: an AVX2
// column shorter than one step (max(lanes, 8) elements), folded here, and
// the ISAs without summary kernels.
func denseSummaryRest[T num.Number](isa ISA, x []T, want Extremes) (lo, hi T) {
	if isa != AVX2 {
		return denseSummaryGo(isa, x, want)
	}
	lo, hi = summaryStart[T]()
	nan := false
	for _, v := range x {
		nan = nan || v != v
		lo, hi = min(lo, v), max(hi, v) // a NaN here is settled below
	}
	if num.IsFloat[T]() && (nan || lo == 0 || hi == 0) {
		lo, hi, _ = settleSummary(x, nil, 0, lo, hi, len(x), nan)
	}
	return lo, hi
}

// summaryKernels names the summary kernels for an input of n elements of
// T on isa (AVX2 or AVX512), with bits the input's bitmap or nil: from
// dramBytes of dense input the avx512 backend runs the AVX2 kernels
// (fromDRAM; the same results by contract).
func summaryKernels[T num.Number](isa ISA, n int, bits []byte) summaryAsm[T] {
	if isa == AVX512 && bits == nil && fromDRAM[T](n) {
		isa = AVX2
	}
	k := summaryAsm[T]{isa: isa, lanes: 32 / sizeOf[T](), tailInAsm: isa == AVX512}
	if isa == AVX512 {
		k.lanes *= 2
	}
	return k
}

// CheckedI64 and CheckedU64, the exact sums of 64-bit elements, are in
// sum_amd64.go: they call their kernels themselves, a frame fewer.

// countKernelCut is the bit count from which CountValid runs the AVX2
// and AVX-512 kernels: below it the generic loop of 64-bit words counts
// faster than the kernel's call, its head and tail and its VZEROUPPER
// (on a Zen 5: 3.2 against 8.5 ns for 64 bits, 6.3-6.9 against 8.9-12.8
// for 256, 10.4-11.3 against 9.3-16.7 for 512; H512).
const countKernelCut = 512

// CountValid counts the set bits among bits off..off+n-1.
func CountValid(isa ISA, bits []byte, off, n int) int {
	if isa != AVX2 && isa != AVX512 {
		return portableCountValid(isa, bits, off, n)
	}
	if n < countKernelCut {
		return genericCountValid(bits, off, n)
	}
	// The kernel counts whole 8-byte words; the bits before the first
	// whole byte and those after the last whole word are counted by the
	// generic loop, so nothing outside bytes off/8 .. (off+n-1)/8 is read.
	head := min(n, (8-off&7)&7) // bits before the first whole byte
	c := genericCountValid(bits, off, head)
	p, end := off+head, off+n
	if words := (end - p) >> 6; words > 0 {
		c += countValidAsm(isa, bits[p>>3:p>>3+words*8])
		p += words * 64
	}
	return c + genericCountValid(bits, p, end-p)
}

// SelInRange reports whether every index of sel is below n.
func SelInRange(isa ISA, sel []uint32, n int) bool {
	switch isa {
	case AVX2, AVX512:
		return uint64(selMaxAVX(isa, sel)) < uint64(n)
	}
	return selInRangeGo(sel, n)
}

// selSummaryOn is Summary over a selection, in selection order; it checks
// the indices. valid is the participating count with WantBoth (with
// WantMin or WantMax it may be any positive number when something took
// part).
func selSummaryOn[T num.Number](isa ISA, x []T, bm []byte, off int, sel []uint32, want Extremes) (lo, hi T, valid int) {
	switch isa {
	case AVX2, AVX512:
		return selSummaryGather(isa, x, bm, off, sel, want)
	}
	return selSummaryGo(x, bm, off, sel, want)
}

// sumLanesOn adds x, whose length is a positive multiple of isa's block for
// T, into the unfolded lane accumulators acc in the order of ADR-013
// step 1 (see the API's SumState).
func sumLanesOn[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	if sumsDirect(isa) {
		sumLanesDirect(isa, acc, x, bits, off)
		return
	}
	acc[0] = AddValid(acc[0], x, bits, off)
}

// sumLanesDirect is SumLanes, which inlines it into the API's call: on
// AVX2 and AVX512 the lane-carrying kernel of isa and T, called right
// here, as sumFloatDirect calls its kernels; the typed entries on the
// other ISAs. The kernels read and write acc as one block of four
// vectors and take x in whole blocks, so that is checked here, before
// any of them sees the slices.
func sumLanesDirect[T constraints.Float](isa ISA, acc, x []T, bits []byte, off int) {
	if isa != AVX2 && isa != AVX512 {
		sumLanesEntries(isa, acc, x, bits, off)
		return
	}
	block := 128 / sizeOf[T]() // four YMM vectors
	if isa == AVX512 {
		block *= 2 // four ZMM vectors
	}
	if len(acc) != block || len(x)&(block-1) != 0 {
		panic(fmt.Sprintf("quiver: internal error: %d lane accumulators and %d elements for a kernel of %d lanes", len(acc), len(x), block))
	}
	switch f32 := num.KindOf[T]() == num.Float32; {
	case f32 && isa == AVX512:
		sumLanesF32AVX512(num.Cast[float32](acc), num.Cast[float32](x), bits, off)
	case f32:
		sumLanesF32AVX2(num.Cast[float32](acc), num.Cast[float32](x), bits, off)
	case isa == AVX512:
		sumLanesF64AVX512(num.Cast[float64](acc), num.Cast[float64](x), bits, off)
	default:
		sumLanesF64AVX2(num.Cast[float64](acc), num.Cast[float64](x), bits, off)
	}
}

// dramBytes is the input size from which a dense order-free kernel on the
// AVX-512 backend (wrapping integer sums, min, max and summaries) is the
// AVX2 one where avx2FromDRAM says so, whose results are the same: from
// DRAM, 512-bit loads took 1.10-1.17x the time of 256-bit ones on an AMD
// EPYC Zen 4 (family 25 model 17; 16M float64 sum and min loops), and
// from L3 down, where a 512-bit kernel can be faster, the input is below
// this size (twice the largest L2 of the AVX-512 cores measured). The
// float sums, whose order is the backend's, add 256-bit halves from the
// same size instead (internal/asm/amd64/sum: halvesFrom).
const dramBytes = 2 << 20

// avx2FromDRAM says whether the AVX-512 backend runs the AVX2 order-free
// kernels from dramBytes on. Not on AMD family 26 (Zen 5) and later, whose
// 512-bit units are full width: there, at 16M elements, the 512-bit Min,
// Max, MinMax and Summarize took 0.83-0.96x the AVX2 ones' time by the
// fastest samples of two interleaved runs and SumInt 0.87-1.00x (H253,
// AMD EPYC family 26 model 2; MinMax and Summarize by the medians of both
// as well). The cut stays on every other
// AVX-512 CPU, Zen 4 measured and Intel's not; the feature bits are the
// same on Zen 4 and Zen 5, so the family decides.
var avx2FromDRAM = amdFamily() < 26

// fromDRAM says whether the AVX-512 backend takes the AVX2 kernel for n
// dense elements of T: n is dramBytes or more, on a CPU that avx2FromDRAM
// names. The size is tested first: it is a compare against a constant,
// false for every short call, which then reads no variable.
func fromDRAM[T num.Number](n int) bool {
	return n >= dramBytes/sizeOf[T]() && avx2FromDRAM
}

// amdFamily is the CPU's family (CPUID leaf 1, with the extended family)
// on an AMD CPU, and 0 on any other vendor's.
func amdFamily() int {
	_, b, c, d := cpuid(0, 0)
	if b != 0x68747541 || d != 0x69746e65 || c != 0x444d4163 { // "AuthenticAMD"
		return 0
	}
	a, _, _, _ := cpuid(1, 0)
	f := int(a >> 8 & 0xF)
	if f == 0xF {
		f += int(a >> 20 & 0xFF)
	}
	return f
}

// hasFMA says whether the AVX2 reproducible folds may put part of their
// additions on the FMA units (the AVX2 ISA does not require FMA).
var hasFMA = cpu.X86.HasFMA

// reproDRAMBytes is the dense input size from which the AVX-512 backend's
// SumReproducible runs reproAVX512Stream, whose folds run the next
// block's range pass, so that the input is read once, as one stream (its
// result is exact on any kernels). From DRAM the AVX-512 kernels with a
// pass of their own took 1.20-1.22x the time of the AVX2 ones on an AMD
// EPYC Zen 4 (family 25 model 17; 64 and 128 MB of float64), which the
// backend ran from this size before; on an AMD EPYC family 26 model 2
// the streaming kernels took 0.86-0.95x the AVX2 ones' time at 128 MB
// (0.91 at the API), and about 1.05x the AVX-512 ones' at 8 MB, from L3
// (H291-H294).
const reproDRAMBytes = 64 << 20

// reproIDDense names the reproducible-sum kernels that take a dense
// input of n bytes in place of the kernels id.
func reproIDDense(id reproID, n int) reproID {
	if id == reproAVX512 && n >= reproDRAMBytes {
		return reproAVX512Stream
	}
	return id
}

// reproIDOf names isa's reproducible-sum kernels.
func reproIDOf(isa ISA) reproID {
	switch {
	case isa == AVX512:
		return reproAVX512
	case isa == AVX2 && hasFMA:
		return reproAVX2FMA
	case isa == AVX2:
		return reproAVX2
	}
	return reproGo
}
