package kernel

import (
	"math"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The reproducible float sum (ADR-105). The result is the exact sum of the
// participating values, rounded once to T (round to nearest, ties to
// even). An exact sum is a function of the multiset of values alone, so
// the bits do not depend on the order, the batches, the merge order, the
// worker count, the backend or the platform.
//
// The exact sum lives in ReproAcc: a fixed-point number held as signed
// 64-bit digits of reproDigitBits bits each, digit i worth 2^(40i-1074),
// covering every finite float64 and any count of them. Values reach it in
// blocks of at most reproBlock elements:
//
//  1. An integer pass finds the largest exponent field e of the block and
//     a lower bound on the smallest of a value other than zero (the range
//     kernel).
//  2. Three error-free extraction folds split every value x exactly into
//     x = qA + qB + qC + r, where qA is a multiple of a grid gA with every
//     |x| < 2^47·gA, qB of gB = gA·2^-48, qC of gC = gB·2^-48 (each grid
//     at least 2^-1074; reproHead, reproGap), and |r| <= gC/2 (the fold
//     kernel).
//     Each fold keeps one accumulator per lane that starts at M =
//     1.5·2^52·g; adding x rounds it to the grid g, the accumulator's
//     change is the extracted part and the rounding error is what goes on
//     to the next fold. Every operation is exact or an IEEE rounding whose
//     error is carried on, so which way a tie rounds moves value between
//     folds but never loses it. An accumulator takes at most reproFlush
//     parts (less than 2^51 units g together), so it stays in M's binade,
//     where the difference of its bits and M's counts its units exactly;
//     those differences are summed as 64-bit integers, and the
//     accumulator starts again from M.
//     When every value lies on fold C's grid (the smallest exponent
//     tells), fold C is a plain addition and checks nothing; on fold B's,
//     fold B is and fold C is not run (reproPlan).
//  3. The fold sums, in grid units, are deposited exactly into the
//     digits. If some r is not zero (a float64 more than about 2^90 below
//     the block's largest, a float32 more than 2^119), the block is redone
//     in Go with the residuals deposited one by one; blocks with an
//     infinity, a NaN, only zeros and subnormals, or a value of 2^1009 or
//     more are deposited value by value.
//
// Since every path is exact, a kernel need not match the Go code's
// intermediate values, only its exactness; the differential tests check
// the bits anyway.

const (
	// reproBlock is the largest block one range pass and fold call take:
	// with parts of at most 2^47 units, a block's fold sums stay below
	// 2^59 units, well inside the int64 they are summed in.
	reproBlock = 4096
	// reproFlush is the most parts one fold accumulator lane takes before
	// its units are moved into an integer sum and it starts again: 14
	// parts of at most 2^47 units (reproHead) move it by less than 2^51
	// from its start, 1.5·2^52 units, inside the binade [2^52, 2^53) (16
	// would reach its edge).
	reproFlush = 14
	// reproHead and reproGap place the grids of the three folds below a
	// block's largest exponent field e: every |x| of the block is below
	// 2^reproHead·gA, and gA = 2^reproGap·gB = 2^(2·reproGap)·gC. Fold A's
	// parts are at most 2^reproHead units of its grid, the others' at most
	// 2^(reproGap-1), so reproFlush bounds both. The wider the grids lie
	// apart, the wider the span of exponents two or three folds take
	// exactly (ReproSpans): 42 and 90 binades. (Without the flushes, a
	// whole block's 4096 parts in one float64 accumulator would allow
	// parts of 2^38 units only: grids 39 binades apart, spans of 24 and
	// 63.)
	reproHead = 47
	reproGap  = 48
	// reproAhead is how many bytes ahead of its loads of the next block
	// a fold kernel that runs that block's range pass prefetches
	// (foldNext): from DRAM, the loop's own loads cannot run far enough
	// ahead to keep the memory busy (without the prefetches the loop
	// took 1.9x Sum's time at 128 MB on an AMD EPYC family 26 model 2).
	// 8 KB was the fastest of 1, 2, 4, 8, 12, 16, 24 and 32 KB there.
	reproAhead = 8192
	// ReproChunk is how many participating values of a masked or
	// selected input are gathered at a time for the dense path.
	ReproChunk = 1024
	// reproFastExp is the largest float64 exponent field the folds take
	// (values from 2^1009 on are deposited one by one): the bound of the
	// grids before the flushes, above which the first fold's 1.5·2^52·gA
	// would not have been finite. The present grids would allow 2040; the
	// bound was kept, since it changes nothing but the path of values
	// that rare.
	reproFastExp = 2031
)

// reproKernels names a backend's pair of kernels for the reproducible sum
// of element type T (see ADR-105): the SIMD kernels of repro_<arch>.s
// or the portable ones. Its methods call them directly, not through
// function values, so that a buffer handed to them can stay on the stack
// (reproAddMasked). Lengths are at most reproBlock.
type reproKernels[T float32 | float64] struct {
	id reproID
}

// reproID names a set of reproducible-sum kernels.
type reproID uint8

const (
	reproGo           reproID = iota // the portable kernels (the zero value)
	reproAVX2                        // AVX2 folds with plain additions
	reproAVX2FMA                     // AVX2 folds with part of the additions on the FMA units
	reproAVX512                      // AVX-512 (with FMA)
	reproAVX512Stream                // AVX-512, the folds running the next block's range pass (dense input from DRAM)
	reproNEON
)

// reproPlan is how a block is folded: how many extraction folds, and
// whether the last one checks for a residual. A fold whose input lies on
// its grid is a plain addition, exact, and leaves nothing for a fold
// below it; the block's smallest exponent tells when that holds.
type reproPlan uint8

// The plans, numbered as the amd64 fold kernels take them (plans in
// internal/asm/amd64/repro).
const (
	reproC3 reproPlan = iota // three folds, the last with the residual check: any block
	reproX3                  // three folds, the last a plain addition
	reproX2                  // two folds, the last a plain addition
)

// reproFoldFields returns the exponent fields of the three fold
// constants for a block whose largest float64 exponent field is e, before
// the clamp to at least 1 that keeps every grid at or above 2^-1074: M =
// 1.5·2^52·g has the field f when g = 2^(f-1075).
func reproFoldFields(e int) (fA, fB, fC int) {
	fA = e + 53 - reproHead
	return fA, fA - reproGap, fA - 2*reproGap
}

// ReproSpans returns how many binades below a block's largest exponent
// field every value other than zero may lie for two folds (its first
// element) or three (its second) to take the block exactly, in float64
// fields (a float32 has 29 bits fewer below its lowest set one, so 29
// more binades): for the tests that probe the plans' thresholds.
func ReproSpans() [2]int {
	_, fB, fC := reproFoldFields(0)
	return [2]int{-fB, -fC}
}

// reproFieldShift is where T's exponent field starts in the 32 bits the
// kernels return: the high word of a float64, the whole float32.
func reproFieldShift[T float32 | float64]() uint {
	if num.KindOf[T]() == num.Float32 {
		return 23
	}
	return 20
}

// rangeExp returns the largest exponent field among x (bits 52..62 of a
// float64, 23..30 of a float32; 0 for an empty x) and lo, the smallest
// exponent field of |v|-1 over the values v of x read as unsigned
// integers, for a lower bound on the smallest exponent of a value other
// than zero: lo is that exponent or, for a power of two, one less; a zero
// wraps to all ones (lo = 0xFFF for float64, 0x1FF for float32, when x
// holds nothing else).
func (k reproKernels[T]) rangeExp(x []T) (hi, lo int) {
	sh := reproFieldShift[T]()
	hi, lo = 0, int(^uint32(0)>>sh)
	full := 0
	if k.id != reproGo {
		step, _ := reproSteps[T](k.id)
		full = len(x) - len(x)%step
		if full > 0 {
			h, l := archReproRange(k.id, x[:full])
			hi, lo = int(h>>sh), int(l>>sh)
		}
	}
	h, l := reproRangeGo(x[full:])
	return max(hi, h), min(lo, l)
}

// plan returns the float64 exponent field e the folds of block x take (0:
// the block must be deposited value by value) and the plan that folds it
// exactly.
func (k reproKernels[T]) plan(x []T) (e int, p reproPlan) {
	return reproPlanAt[T](k.rangeExp(x))
}

// reproPlanAt is plan for a block whose range pass gave hi and lo.
func reproPlanAt[T float32 | float64](hi, lo int) (e int, p reproPlan) {
	e = reproExp64[T](hi)
	return e, reproPlanOf[T](e, lo)
}

// reproPlanOf chooses the plan for a block whose largest float64
// exponent field is e (reproExp64) and whose lo is rangeExp's. A value v
// other than zero is a multiple of its unit in the last place, 2^(f-1075)
// with f = max(field, 1) for a float64 (subnormals: f = 1) and f =
// max(field, 1) + 925 for a float32 (24 bits instead of 53). A fold's
// input is a multiple of that too (it is v less multiples of coarser
// grids), so the fold whose grid is 2^(h-1075), h its constant's field,
// takes all of it exactly when f >= h for every v. lo is at most the
// smallest field, so testing it errs on the safe side.
func reproPlanOf[T float32 | float64](e, lo int) reproPlan {
	f := max(lo, 1)
	if num.KindOf[T]() == num.Float32 {
		f += 925
	}
	_, fB, fC := reproFoldFields(e)
	switch {
	case f >= max(fB, 1): // fold B's grid (reproMagic)
		return reproX2
	case f >= max(fC, 1): // fold C's
		return reproX3
	}
	return reproC3
}

// fold runs the three extraction folds over x with the fold constants mA,
// mB, mC (1.5·2^52 times each fold's grid: reproMagic), widening float32
// to float64, and returns the exact sums of the extracted parts in units
// of each fold's grid and the OR of the residuals' bits without their sign
// bit (0: every residual is 0). It needs every |x| < 2^reproHead·gA.
// A SIMD kernel takes the largest multiple of its step, the portable
// fold the tail.
func (k reproKernels[T]) fold(x []T, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	return k.foldPlan(x, nil, reproC3, mA, mB, mC)
}

// foldPlan is fold with the plan p, which reproPlanOf must have chosen
// for x (with reproX2 c is 0; the unchecked plans leave no residual), and
// next, the block that follows x (if any), handed to the kernel to
// prefetch while it folds x.
func (k reproKernels[T]) foldPlan(x, next []T, p reproPlan, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	if k.id == reproGo {
		return reproFoldGo(p, x, mA, mB, mC)
	}
	_, step := reproSteps[T](k.id)
	full := len(x) - len(x)%step
	if full > 0 {
		pf := x // nothing to fetch: x itself is in cache
		if len(next) >= full {
			pf = next
		}
		a, b, c, resid = archReproFold(k.id, p, x[:full], pf[:full], mA, mB, mC)
	}
	ta, tb, tc, tr := reproFoldGo(p, x[full:], mA, mB, mC)
	return a + ta, b + tb, c + tc, resid | tr
}

// foldNext is foldPlan for the block x followed by rest, at least as
// long as x, that also returns rangeExp of next = rest[:len(x)]: from the
// same loop as the folds where the kernels have one
// (archReproFoldsRange), so that the memory is read once, as one stream,
// while the folds work on x from cache. That loop prefetches, as it reads
// next, the elements reproAhead bytes on (next itself near the end of
// rest).
func (k reproKernels[T]) foldNext(x, rest []T, p reproPlan, mA, mB, mC float64) (a, b, c int64, resid uint64, hi, lo int) {
	next := rest[:len(x)]
	full := 0
	if archReproFoldsRange(k.id) {
		_, step := reproSteps[T](k.id)
		full = len(x) - len(x)%step
	}
	if full == 0 {
		a, b, c, resid = k.foldPlan(x, next, p, mA, mB, mC)
		hi, lo = k.rangeExp(next)
		return a, b, c, resid, hi, lo
	}
	ahead := next
	if d := reproAhead / int(unsafe.Sizeof(x[0])); len(rest) >= d+len(next) {
		ahead = rest[d : d+len(next)]
	}
	a, b, c, resid, h, l := archReproFoldRange(k.id, p, x[:full], next[:full], ahead[:full], mA, mB, mC)
	ta, tb, tc, tr := reproFoldGo(p, x[full:], mA, mB, mC)
	sh := reproFieldShift[T]()
	gh, gl := reproRangeGo(next[full:])
	return a + ta, b + tb, c + tc, resid | tr, max(int(h>>sh), gh), min(int(l>>sh), gl)
}

// reproCompressStep is the multiple of elements the compress kernels
// take.
const reproCompressStep = 32

// compress copies the elements of x whose validity bit (bit off+i of the
// validated bitmap bits) is set to the front of dst, in order, and returns
// how many. The amd64 kernels pack a vector's valid lanes at a time
// (AVX-512 with a compress instruction, AVX2 with a table of
// permutations); elsewhere, and for the tail, every element is written
// and the next one overwrites it unless its bit is set, the bits 64 at a
// time so that no load waits for the previous store's address.
func (k reproKernels[T]) compress(dst, x []T, bits []byte, off int) int {
	dst = dst[:len(x)] // the kernels store whole vectors below len(x)
	c := 0
	switch k.id {
	case reproAVX512, reproAVX512Stream, reproAVX2, reproAVX2FMA: // NEON has no compress kernel
		full := len(x) - len(x)%reproCompressStep
		if full > 0 {
			c = archReproCompress(k.id, dst, x[:full], bits, off)
		}
		x, off = x[full:], off+full
	}
	for i := 0; i < len(x); i += 64 {
		xs := x[i:min(len(x), i+64)]
		p := off + i
		w := ValidWord(bits[p>>3:], p&7, len(xs))
		for j, v := range xs {
			dst[c] = v
			c += int(w >> j & 1)
		}
	}
	return c
}

// reproSteps are the multiples of elements the SIMD kernels id take: four
// vectors of T per range-pass iteration; per fold iteration, the float64
// lanes of two rounds of two 256-bit vectors (AVX2) or of four 512-bit
// ones (AVX-512), or of four 128-bit ones (NEON), as many float32
// elements, each widened from half a register.
func reproSteps[T float32 | float64](id reproID) (rangeStep, foldStep int) {
	var vecBytes int
	switch id {
	case reproAVX2, reproAVX2FMA:
		vecBytes, foldStep = 32, 2*2*4
	case reproAVX512, reproAVX512Stream:
		vecBytes, foldStep = 64, 2*4*8
	case reproNEON:
		vecBytes, foldStep = 16, 4*2
	}
	var zero T
	return 4 * vecBytes / int(unsafe.Sizeof(zero)), foldStep
}

// reproRangeGo is the portable range pass: rangeExp's hi and lo for x.
func reproRangeGo[T float32 | float64](x []T) (hi, lo int) {
	if num.KindOf[T]() == num.Float32 {
		return reproRangeField(num.Cast[uint32](x), 0x7FFFFFFF, 23)
	}
	return reproRangeField(num.Cast[uint64](x), 1<<63-1, 52)
}

// reproRangeField is the largest (u & abs) >> shift among u and the
// smallest ((u & abs) - 1) >> shift, the subtraction wrapping for a zero.
func reproRangeField[U uint32 | uint64](u []U, abs U, shift uint) (hi, lo int) {
	var h0, h1 U
	l0, l1 := ^U(0), ^U(0)
	i := 0
	for ; i+2 <= len(u); i += 2 {
		a0, a1 := u[i]&abs, u[i+1]&abs
		h0, h1 = max(h0, a0), max(h1, a1)
		l0, l1 = min(l0, a0-1), min(l1, a1-1)
	}
	if i < len(u) {
		a := u[i] & abs
		h0, l0 = max(h0, a), min(l0, a-1)
	}
	return int(max(h0, h1) >> shift), int(min(l0, l1) >> shift)
}

// reproGoKernels are the portable kernels, the reference the SIMD kernels
// are tested against; every backend without kernels of its own runs them.
func reproGoKernels[T float32 | float64]() reproKernels[T] { return reproKernels[T]{id: reproGo} }

// The portable folds keep two lanes, so that the additions of
// neighbouring elements overlap, and take x in chunks of 2·reproFlush
// elements: each chunk's accumulators start at the constants, and their
// changes (reproUnits) are added into the integer sums. Each plan's
// function has a chunk loop of its own: one driver calling a function per
// chunk cost the folds 5-9% (BenchmarkReproKernels on an AMD EPYC, family
// 26 model 2).

// reproUnits is the change of the fold accumulator s from its start m, in
// units of the fold's grid: s stays in m's binade, whose low 52 bits
// count the grid's units, so the difference of the bits is exact.
func reproUnits(s, m float64) int64 {
	return int64(math.Float64bits(s)) - int64(math.Float64bits(m))
}

// reproFold is the portable fold of plan reproC3. Per element: three
// additions or subtractions per fold and an OR.
func reproFold[T float32 | float64](x []T, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	var r0, r1 uint64
	for len(x) > 0 {
		ch := x[:min(len(x), 2*reproFlush)]
		x = x[len(ch):]
		a0, a1 := mA, mA
		b0, b1 := mB, mB
		c0, c1 := mC, mC
		i := 0
		for ; i+2 <= len(ch); i += 2 {
			a0, b0, c0, r0 = reproStep(float64(ch[i]), a0, b0, c0, r0)
			a1, b1, c1, r1 = reproStep(float64(ch[i+1]), a1, b1, c1, r1)
		}
		if i < len(ch) {
			a0, b0, c0, r0 = reproStep(float64(ch[i]), a0, b0, c0, r0)
		}
		a += reproUnits(a0, mA) + reproUnits(a1, mA)
		b += reproUnits(b0, mB) + reproUnits(b1, mB)
		c += reproUnits(c0, mC) + reproUnits(c1, mC)
	}
	return a, b, c, (r0 | r1) &^ (1 << 63)
}

// reproFoldGo runs the portable fold of plan p.
func reproFoldGo[T float32 | float64](p reproPlan, x []T, mA, mB, mC float64) (a, b, c int64, resid uint64) {
	switch p {
	case reproX3:
		a, b, c = reproFoldX3(x, mA, mB, mC)
		return a, b, c, 0
	case reproX2:
		a, b = reproFoldX2(x, mA, mB)
		return a, b, 0, 0
	}
	return reproFold(x, mA, mB, mC)
}

// reproFoldX3 is reproFold for a block on fold C's grid (reproX3): fold
// C is a plain addition and leaves no residual.
func reproFoldX3[T float32 | float64](x []T, mA, mB, mC float64) (a, b, c int64) {
	for len(x) > 0 {
		ch := x[:min(len(x), 2*reproFlush)]
		x = x[len(ch):]
		a0, a1 := mA, mA
		b0, b1 := mB, mB
		c0, c1 := mC, mC
		i := 0
		for ; i+2 <= len(ch); i += 2 {
			var v0, v1 float64
			a0, b0, v0 = reproStep2(float64(ch[i]), a0, b0)
			a1, b1, v1 = reproStep2(float64(ch[i+1]), a1, b1)
			c0 += v0 // exact: v0 is on fold C's grid
			c1 += v1
		}
		if i < len(ch) {
			var v float64
			a0, b0, v = reproStep2(float64(ch[i]), a0, b0)
			c0 += v
		}
		a += reproUnits(a0, mA) + reproUnits(a1, mA)
		b += reproUnits(b0, mB) + reproUnits(b1, mB)
		c += reproUnits(c0, mC) + reproUnits(c1, mC)
	}
	return a, b, c
}

// reproFoldX2 is reproFold for a block on fold B's grid (reproX2): fold
// B is a plain addition and there is no fold C.
func reproFoldX2[T float32 | float64](x []T, mA, mB float64) (a, b int64) {
	for len(x) > 0 {
		ch := x[:min(len(x), 2*reproFlush)]
		x = x[len(ch):]
		a0, a1 := mA, mA
		b0, b1 := mB, mB
		i := 0
		for ; i+2 <= len(ch); i += 2 {
			v0, v1 := float64(ch[i]), float64(ch[i+1])
			t0, t1 := a0+v0, a1+v1
			v0 -= t0 - a0 // exact: the rounding error of a0 + v0
			v1 -= t1 - a1
			a0, a1 = t0, t1
			b0 += v0 // exact: v0 is on fold B's grid
			b1 += v1
		}
		if i < len(ch) {
			v := float64(ch[i])
			t := a0 + v
			v -= t - a0
			a0 = t
			b0 += v
		}
		a += reproUnits(a0, mA) + reproUnits(a1, mA)
		b += reproUnits(b0, mB) + reproUnits(b1, mB)
	}
	return a, b
}

// reproStep2 runs folds A and B on one value and returns what is left.
func reproStep2(v, sA, sB float64) (float64, float64, float64) {
	t := sA + v
	v -= t - sA
	u := sB + v
	v -= u - sB
	return t, u, v
}

// reproStep runs the three folds on one value: sA, sB and sC are the
// lane's fold accumulators, res the OR of its residuals' bits.
func reproStep(v, sA, sB, sC float64, res uint64) (float64, float64, float64, uint64) {
	t := sA + v // v rounded to the grid gA, plus sA
	q := t - sA // exact: the part of v on the grid
	v -= q      // exact: the rounding error of sA + v
	u := sB + v
	q = u - sB
	v -= q
	w := sC + v
	q = w - sC
	return t, u, w, res | math.Float64bits(v-q)
}

// reproMagic returns the fold constants for a block whose largest
// exponent field is e (1..reproFastExp): mA = 1.5·2^52·gA with every
// |x| < 2^(e-1022) = 2^reproHead·gA, and mB, mC likewise with gB =
// gA·2^-reproGap and gC = gB·2^-reproGap, each grid at least 2^-1074
// (every float64 is a multiple of that). A fold's residual is at most
// half its grid, 2^(reproGap-1) units of the next one.
func reproMagic(e int) (mA, mB, mC float64) {
	m := func(field int) float64 { return math.Float64frombits(uint64(max(field, 1))<<52 | 1<<51) }
	fA, fB, fC := reproFoldFields(e)
	return m(fA), m(fB), m(fC)
}

// reproExp64 turns a block's largest exponent field in T's format into
// the float64 exponent field the folds use, or 0 if the block must be
// deposited value by value (infinities, NaNs, only zeros and subnormals
// of T, or values too large for the folds).
func reproExp64[T float32 | float64](e int) int {
	if num.KindOf[T]() == num.Float32 {
		if e == 0 || e == 0xFF {
			return 0
		}
		return e + 1023 - 127
	}
	if e == 0 || e > reproFastExp {
		return 0
	}
	return e
}

// reproAddDense adds the dense x in blocks with the kernels k. A block
// followed by one of its length has that block's range pass run with its
// folds (foldNext); the others run it on their own.
func reproAddDense[T float32 | float64](a *ReproAcc, k reproKernels[T], x []T) {
	hi, lo, ranged := 0, 0, false
	for len(x) > 0 {
		blk := x[:min(len(x), reproBlock)]
		x = x[len(blk):]
		next := x[:min(len(x), len(blk))]
		if !ranged {
			hi, lo = k.rangeExp(blk)
		}
		ranged = false
		e, p := reproPlanAt[T](hi, lo)
		if e == 0 {
			for _, v := range blk {
				a.addOne(float64(v))
			}
			a.settle()
			continue
		}
		mA, mB, mC := reproMagic(e)
		var uA, uB, uC int64
		var res uint64
		if len(next) == len(blk) {
			uA, uB, uC, res, hi, lo = k.foldNext(blk, x, p, mA, mB, mC)
			ranged = true
		} else {
			uA, uB, uC, res = k.foldPlan(blk, next, p, mA, mB, mC)
		}
		if res != 0 {
			uA, uB, uC = reproFoldDeposit(a, blk, mA, mB, mC)
		}
		a.depositUnits(uA, mA)
		a.depositUnits(uB, mB)
		a.depositUnits(uC, mC)
		// e > 0: a value other than a zero took part.
		a.any, a.nonNegZero = true, true
		a.settle()
	}
}

// reproFoldDeposit is the fold on one lane with every residual deposited
// exactly: the path of a block whose values span more than the three
// folds cover. It returns the fold sums in grid units, as fold does.
func reproFoldDeposit[T float32 | float64](a *ReproAcc, x []T, mA, mB, mC float64) (uA, uB, uC int64) {
	for len(x) > 0 {
		ch := x[:min(len(x), reproFlush)]
		x = x[len(ch):]
		tA, tB, tC := mA, mB, mC
		for _, v := range ch {
			var r uint64
			tA, tB, tC, r = reproStep(float64(v), tA, tB, tC, 0)
			if r&^(1<<63) != 0 {
				a.deposit(math.Float64frombits(r))
			}
		}
		uA += reproUnits(tA, mA)
		uB += reproUnits(tB, mB)
		uC += reproUnits(tC, mC)
	}
	return uA, uB, uC
}

// reproAddMasked adds the participating elements of x under a validity
// bitmap (nil: all valid) and, with hasSel, a selection: they are copied,
// in order, into a buffer of ReproChunk values that goes through the
// dense path and its kernels. The sum is exact, so which values share a
// block does not change it.
func reproAddMasked[T float32 | float64](a *ReproAcc, k reproKernels[T], x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	var buf [ReproChunk]T
	n := len(x)
	if hasSel {
		n = len(sel)
	}
	for lo := 0; lo < n; lo += ReproChunk {
		hi := min(n, lo+ReproChunk)
		c := 0
		switch {
		case !hasSel:
			c = k.compress(buf[:], x[lo:hi], bits, off+lo)
		case bits == nil:
			for _, i := range sel[lo:hi] {
				buf[c] = x[i]
				c++
			}
		default:
			for _, i := range sel[lo:hi] {
				buf[c] = x[i]
				p := off + int(i)
				c += int(bits[p>>3] >> (p & 7) & 1)
			}
		}
		reproAddDense(a, k, buf[:c])
	}
}

// ReproAdd adds the participating elements of x (a validated bitmap span,
// nil for all valid, and with hasSel a selection whose indices the caller
// has checked) to a exactly, with the reproducible-sum kernels of isa.
func ReproAdd[T constraints.Float](isa ISA, a *ReproAcc, x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	if num.KindOf[T]() == num.Float32 {
		reproAdd32(isa, a, num.Cast[float32](x), bits, off, sel, hasSel)
		return
	}
	reproAdd64(isa, a, num.Cast[float64](x), bits, off, sel, hasSel)
}

// reproAdd32 and reproAdd64 are ReproAdd for each machine type, written
// without type parameters and kept out of line so that the kernels below
// them are instantiated and optimised here, in this package, and not in
// each package that instantiates ReproAdd: a generic body compiled in
// another package did not inline this package's helpers (reproStep), and
// the portable sum ran at half speed.
//
//go:noinline
func reproAdd32(isa ISA, a *ReproAcc, x []float32, bits []byte, off int, sel []uint32, hasSel bool) {
	reproAdd(a, reproKernels[float32]{reproIDOf(isa)}, x, bits, off, sel, hasSel)
}

//go:noinline
func reproAdd64(isa ISA, a *ReproAcc, x []float64, bits []byte, off int, sel []uint32, hasSel bool) {
	reproAdd(a, reproKernels[float64]{reproIDOf(isa)}, x, bits, off, sel, hasSel)
}

// reproAdd adds validated input with the kernels k: dense input straight
// through them, the rest gathered first.
func reproAdd[T float32 | float64](a *ReproAcc, k reproKernels[T], x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	if bits == nil && !hasSel {
		var zero T
		k.id = reproIDDense(k.id, int(unsafe.Sizeof(zero))*len(x))
		reproAddDense(a, k, x)
		return
	}
	reproAddMasked(a, k, x, bits, off, sel, hasSel)
}
