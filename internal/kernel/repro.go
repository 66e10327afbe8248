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
//     kernel; NEON's finds the largest only).
//  2. Three error-free extraction folds split every value x exactly into
//     x = qA + qB + qC + r, where qA is a multiple of gA = 2^(e-1060), qB
//     of gB = gA·2^-39, qC of gC = gB·2^-39 (each grid at least 2^-1074),
//     and |r| <= gC/2 (the fold kernel). Each fold keeps one accumulator
//     per lane that starts at M = 1.5·2^52·g; adding x rounds it to the
//     grid g, the accumulator's change is the extracted part and the
//     rounding error is what goes on to the next fold. Every operation is
//     exact or an IEEE rounding whose error is carried on, so which way a
//     tie rounds moves value between folds but never loses it, and the
//     sums of the extracted parts are exact in float64 (at most 2^50
//     units g).
//     When every value lies on fold C's grid (the smallest exponent
//     tells), fold C is a plain addition and checks nothing; on fold B's,
//     fold B is and fold C is not run (reproPlan).
//  3. The fold sums are deposited exactly into the digits. If some r
//     is not zero (a float64 more than about 2^63 below the block's
//     largest, a float32 more than 2^92), the block is redone in Go with
//     the residuals deposited one by one; blocks with an infinity, a NaN,
//     only zeros and subnormals, or a value of 2^1009 or more are
//     deposited value by value.
//
// Since every path is exact, a kernel need not match the Go code's
// intermediate values, only its exactness; the differential tests check
// the bits anyway.

const (
	// reproBlock is the largest block one fold call takes: with parts of
	// at most 2^38 units, a block's fold sums stay below 2^50 units, so
	// each fold accumulator stays in the binade of its start, on any
	// number of lanes, and the lane sums add exactly.
	reproBlock = 4096
	// ReproChunk is how many participating values of a masked or
	// selected input are gathered at a time for the dense path.
	ReproChunk = 1024
	// reproFastExp is the largest float64 exponent field the folds take:
	// above it the first fold's 1.5·2^52·gA would not be finite.
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
	reproGo      reproID = iota // the portable kernels (the zero value)
	reproAVX2                   // AVX2 folds with plain additions
	reproAVX2FMA                // AVX2 folds with part of the additions on the FMA units
	reproAVX512                 // AVX-512 (with FMA)
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

// hasRange reports whether k has a range pass, and with it the folds of
// every plan; without one (NEON), every block takes reproC3.
func (k reproKernels[T]) hasRange() bool { return k.id != reproNEON }

// maxExp returns the largest exponent field (bits 52..62 of a float64,
// 23..30 of a float32) among x; 0 for an empty x.
func (k reproKernels[T]) maxExp(x []T) int {
	if k.id == reproGo {
		return reproMaxExpGo(x)
	}
	if k.hasRange() {
		hi, _ := k.rangeExp(x)
		return hi
	}
	// The SIMD kernels take a multiple of their step and return the field
	// shifted left by 20 (float64) or 23 (float32) within 32 bits.
	step, _ := reproSteps[T](k.id)
	full := len(x) - len(x)%step
	e := 0
	if full > 0 {
		e = int(archReproMax(k.id, x[:full]) >> reproFieldShift[T]())
	}
	return max(e, reproMaxExpGo(x[full:]))
}

// reproFieldShift is where T's exponent field starts in the 32 bits the
// kernels return: the high word of a float64, the whole float32.
func reproFieldShift[T float32 | float64]() uint {
	if num.KindOf[T]() == num.Float32 {
		return 23
	}
	return 20
}

// rangeExp returns the largest exponent field among x (as maxExp) and lo,
// the smallest exponent field of |v|-1 over the values v of x read as
// unsigned integers, for a lower bound on the smallest exponent of a
// value other than zero: lo is that exponent or, for a power of two, one
// less; a zero wraps to all ones (lo = 0xFFF for float64, 0x1FF for
// float32, when x holds nothing else). Only for kernels with hasRange.
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
	if !k.hasRange() {
		return reproExp64[T](k.maxExp(x)), reproC3
	}
	hi, lo := k.rangeExp(x)
	e = reproExp64[T](hi)
	return e, reproPlanOf[T](e, lo)
}

// reproPlanOf chooses the plan for a block whose largest float64
// exponent field is e (reproExp64) and whose lo is rangeExp's. A value v
// other than zero is a multiple of its unit in the last place, 2^(f-1075)
// with f = max(field, 1) for a float64 (subnormals: f = 1) and f =
// max(field, 1) + 925 for a float32 (24 bits instead of 53). A fold's
// input is a multiple of that too (it is v less multiples of coarser
// grids), so the fold whose grid is 2^(g-1075), g its constant's field,
// takes all of it exactly when f >= g for every v. lo is at most the
// smallest field, so testing it errs on the safe side.
func reproPlanOf[T float32 | float64](e, lo int) reproPlan {
	f := max(lo, 1)
	if num.KindOf[T]() == num.Float32 {
		f += 925
	}
	switch {
	case f >= max(e-24, 1): // fold B's grid (reproMagic)
		return reproX2
	case f >= max(e-63, 1): // fold C's
		return reproX3
	}
	return reproC3
}

// fold runs the three extraction folds over x with the fold constants mA,
// mB, mC (1.5·2^52 times each fold's grid), widening float32 to float64,
// and returns the exact sums of the extracted parts and the OR of the
// residuals' bits without their sign bit (0: every residual is 0). It
// needs every |x| < 2^38·gA. A SIMD kernel takes the largest multiple of
// its step; the tail's fold sums are multiples of the same grids and add
// to the kernel's exactly.
func (k reproKernels[T]) fold(x []T, mA, mB, mC float64) (a, b, c float64, resid uint64) {
	return k.foldPlan(x, nil, reproC3, mA, mB, mC)
}

// foldPlan is fold with the plan p, which reproPlanOf must have chosen
// for x (with reproX2 c is 0; the unchecked plans leave no residual), and
// next, the block that follows x (if any), handed to the kernel to
// prefetch while it folds x.
func (k reproKernels[T]) foldPlan(x, next []T, p reproPlan, mA, mB, mC float64) (a, b, c float64, resid uint64) {
	if k.id == reproGo {
		return reproFoldGo(p, x, mA, mB, mC)
	}
	if !k.hasRange() {
		p = reproC3
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
	case reproAVX512, reproAVX2, reproAVX2FMA: // NEON has no compress kernel
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
// ones (AVX-512), or of two 128-bit ones (NEON), as many float32
// elements, each widened from half a register.
func reproSteps[T float32 | float64](id reproID) (maxStep, foldStep int) {
	var vecBytes int
	switch id {
	case reproAVX2, reproAVX2FMA:
		vecBytes, foldStep = 32, 2*2*4
	case reproAVX512:
		vecBytes, foldStep = 64, 2*4*8
	case reproNEON:
		vecBytes, foldStep = 16, 4
	}
	var zero T
	return 4 * vecBytes / int(unsafe.Sizeof(zero)), foldStep
}

// reproMaxExpGo is the portable pass for the largest exponent alone
// (maxExp; the tails of NEON's): the exponent field is compared as the
// high bits of the value without its sign, read as an integer, four lanes
// at a time.
func reproMaxExpGo[T float32 | float64](x []T) int {
	if num.KindOf[T]() == num.Float32 {
		return reproMaxField(num.Cast[uint32](x), 0xFF<<23, 23)
	}
	return reproMaxField(num.Cast[uint64](x), 0x7FF<<52, 52)
}

// reproMaxField is the largest (u & mask) >> shift among u.
func reproMaxField[U uint32 | uint64](u []U, mask U, shift uint) int {
	var m0, m1, m2, m3 U
	i := 0
	for ; i+4 <= len(u); i += 4 {
		m0 = max(m0, u[i]&mask)
		m1 = max(m1, u[i+1]&mask)
		m2 = max(m2, u[i+2]&mask)
		m3 = max(m3, u[i+3]&mask)
	}
	for ; i < len(u); i++ {
		m0 = max(m0, u[i]&mask)
	}
	return int(max(m0, m1, m2, m3) >> shift)
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

// reproFold is the portable fold: two lanes, so that the adds of
// neighbouring elements overlap. Per element: three adds or subtracts per
// fold and an OR.
func reproFold[T float32 | float64](x []T, mA, mB, mC float64) (a, b, c float64, resid uint64) {
	a0, a1 := mA, mA
	b0, b1 := mB, mB
	c0, c1 := mC, mC
	var r0, r1 uint64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		a0, b0, c0, r0 = reproStep(float64(x[i]), a0, b0, c0, r0)
		a1, b1, c1, r1 = reproStep(float64(x[i+1]), a1, b1, c1, r1)
	}
	if i < len(x) {
		a0, b0, c0, r0 = reproStep(float64(x[i]), a0, b0, c0, r0)
	}
	// Each lane's change is exact (Sterbenz) and a multiple of its grid,
	// and all of them together stay below 2^50 units: these sums are
	// exact in any order.
	return (a0 - mA) + (a1 - mA), (b0 - mB) + (b1 - mB), (c0 - mC) + (c1 - mC), (r0 | r1) &^ (1 << 63)
}

// reproFoldGo runs the portable fold of plan p.
func reproFoldGo[T float32 | float64](p reproPlan, x []T, mA, mB, mC float64) (a, b, c float64, resid uint64) {
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
func reproFoldX3[T float32 | float64](x []T, mA, mB, mC float64) (a, b, c float64) {
	a0, a1 := mA, mA
	b0, b1 := mB, mB
	c0, c1 := mC, mC
	i := 0
	for ; i+2 <= len(x); i += 2 {
		var v0, v1 float64
		a0, b0, v0 = reproStep2(float64(x[i]), a0, b0)
		a1, b1, v1 = reproStep2(float64(x[i+1]), a1, b1)
		c0 += v0 // exact: v0 is on fold C's grid
		c1 += v1
	}
	if i < len(x) {
		var v float64
		a0, b0, v = reproStep2(float64(x[i]), a0, b0)
		c0 += v
	}
	return (a0 - mA) + (a1 - mA), (b0 - mB) + (b1 - mB), (c0 - mC) + (c1 - mC)
}

// reproFoldX2 is reproFold for a block on fold B's grid (reproX2): fold
// B is a plain addition and there is no fold C.
func reproFoldX2[T float32 | float64](x []T, mA, mB float64) (a, b float64) {
	a0, a1 := mA, mA
	b0, b1 := mB, mB
	i := 0
	for ; i+2 <= len(x); i += 2 {
		v0, v1 := float64(x[i]), float64(x[i+1])
		t0, t1 := a0+v0, a1+v1
		v0 -= t0 - a0 // exact: the rounding error of a0 + v0
		v1 -= t1 - a1
		a0, a1 = t0, t1
		b0 += v0 // exact: v0 is on fold B's grid
		b1 += v1
	}
	if i < len(x) {
		v := float64(x[i])
		t := a0 + v
		v -= t - a0
		a0 = t
		b0 += v
	}
	return (a0 - mA) + (a1 - mA), (b0 - mB) + (b1 - mB)
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
// exponent field is e (1..reproFastExp): mA = 1.5·2^52·gA with
// gA = 2^(e-1060), so that every |x| < 2^(e-1022) = 2^38·gA, and
// mB, mC likewise with gB = gA·2^-39 and gC = gB·2^-39, each grid at least
// 2^-1074 (every float64 is a multiple of that). A fold's residual is at
// most half its grid, 2^38 units of the next one.
func reproMagic(e int) (mA, mB, mC float64) {
	m := func(field int) float64 { return math.Float64frombits(uint64(max(field, 1))<<52 | 1<<51) }
	return m(e + 15), m(e - 24), m(e - 63)
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

// reproAddDense adds the dense x in blocks with the kernels k.
func reproAddDense[T float32 | float64](a *ReproAcc, k reproKernels[T], x []T) {
	for len(x) > 0 {
		blk := x[:min(len(x), reproBlock)]
		x = x[len(blk):]
		next := x[:min(len(x), len(blk))]
		e, p := k.plan(blk)
		if e == 0 {
			for _, v := range blk {
				a.addOne(float64(v))
			}
			a.settle()
			continue
		}
		mA, mB, mC := reproMagic(e)
		sA, sB, sC, res := k.foldPlan(blk, next, p, mA, mB, mC)
		if res != 0 {
			sA, sB, sC = reproFoldDeposit(a, blk, mA, mB, mC)
		}
		a.deposit(sA)
		a.deposit(sB)
		a.deposit(sC)
		// e > 0: a value other than a zero took part.
		a.any, a.nonNegZero = true, true
		a.settle()
	}
}

// reproFoldDeposit is the fold on one lane with every residual deposited
// exactly: the path of a block whose values span more than the two folds
// cover.
func reproFoldDeposit[T float32 | float64](a *ReproAcc, x []T, mA, mB, mC float64) (sA, sB, sC float64) {
	tA, tB, tC := mA, mB, mC
	for _, v := range x {
		var r uint64
		tA, tB, tC, r = reproStep(float64(v), tA, tB, tC, 0)
		if r&^(1<<63) != 0 {
			a.deposit(math.Float64frombits(r))
		}
	}
	return tA - mA, tB - mB, tC - mC
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
