package quiver

import (
	"math"
	"math/bits"
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
// The exact sum lives in reproAcc: a fixed-point number held as signed
// 64-bit digits of reproDigitBits bits each, digit i worth 2^(40i-1074),
// covering every finite float64 and any count of them. Values reach it in
// blocks of at most reproBlock elements:
//
//  1. An integer pass finds the largest exponent field e of the block
//     (the maxExp kernel).
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
//  3. The three fold sums are deposited exactly into the digits. If some r
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
	// reproChunk is how many participating values of a masked or
	// selected input are gathered at a time for the dense path.
	reproChunk = 1024
	// reproDigitBits is the width of one digit of the exact sum, and
	// reproDigits their number: digit 0 is worth 2^-1074, the smallest
	// subnormal, and the top digits leave room for carries of any count
	// of values of up to MaxFloat64.
	reproDigitBits = 40
	reproDigits    = 56
	reproDigitMask = 1<<reproDigitBits - 1
	// reproPendingMax is how many deposits the digits take between
	// normalisations: each adds less than 2^40 to a digit.
	reproPendingMax = 1 << 20
	// reproFastExp is the largest float64 exponent field the folds take:
	// above it the first fold's 1.5·2^52·gA would not be finite.
	reproFastExp = 2031
)

// reproKernels names a backend's pair of kernels for the reproducible sum
// of element type T (see ADR-105): the SIMD kernels of reproducible_<arch>.s
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

// maxExp returns the largest exponent field (bits 52..62 of a float64,
// 23..30 of a float32) among x; 0 for an empty x.
func (k reproKernels[T]) maxExp(x []T) int {
	if k.id == reproGo {
		return reproMaxExpGo(x)
	}
	// The SIMD kernels take a multiple of their step and return the field
	// shifted left by 20 (float64) or 23 (float32) within 32 bits.
	step, _ := reproSteps[T](k.id)
	shift := 20
	if num.KindOf[T]() == num.Float32 {
		shift = 23
	}
	full := len(x) - len(x)%step
	e := 0
	if full > 0 {
		e = int(archReproMax(k.id, x[:full]) >> shift)
	}
	return max(e, reproMaxExpGo(x[full:]))
}

// fold runs the three extraction folds over x with the fold constants mA,
// mB, mC (1.5·2^52 times each fold's grid), widening float32 to float64,
// and returns the exact sums of the extracted parts and the OR of the
// residuals' bits without their sign bit (0: every residual is 0). It
// needs every |x| < 2^38·gA. A SIMD kernel takes the largest multiple of
// its step; the tail's fold sums are multiples of the same grids and add
// to the kernel's exactly.
func (k reproKernels[T]) fold(x []T, mA, mB, mC float64) (a, b, c float64, resid uint64) {
	if k.id == reproGo {
		return reproFold(x, mA, mB, mC)
	}
	_, step := reproSteps[T](k.id)
	full := len(x) - len(x)%step
	if full > 0 {
		a, b, c, resid = archReproFold(k.id, x[:full], mA, mB, mC)
	}
	ta, tb, tc, tr := reproFold(x[full:], mA, mB, mC)
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
		w := validWord(bits[p>>3:], p&7, len(xs))
		for j, v := range xs {
			dst[c] = v
			c += int(w >> j & 1)
		}
	}
	return c
}

// reproSteps are the multiples of elements the SIMD kernels id take: four
// vectors of T per exponent-pass iteration; per fold iteration, the
// float64 lanes of two 256-bit vectors (AVX2), four 512-bit ones
// (AVX-512) or two 128-bit ones (NEON), as many float32 elements, each
// widened from half a register.
func reproSteps[T float32 | float64](id reproID) (maxStep, foldStep int) {
	var vecBytes int
	switch id {
	case reproAVX2, reproAVX2FMA:
		vecBytes, foldStep = 32, 2*4
	case reproAVX512:
		vecBytes, foldStep = 64, 4*8
	case reproNEON:
		vecBytes, foldStep = 16, 4
	}
	var zero T
	return 4 * vecBytes / int(unsafe.Sizeof(zero)), foldStep
}

// reproMaxExpGo is the portable exponent pass: the exponent field is
// compared as the high bits of the value without its sign, read as an
// integer, four lanes at a time.
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

// reproAcc is the exact sum of the values deposited so far and the flags
// of the values that are not finite numbers.
type reproAcc struct {
	// digits hold the finite values' exact sum, Σ digits[i]·2^(40i-1074).
	// Between normalisations a digit may leave [0, 2^40).
	digits [reproDigits]int64
	top    int32 // digits[top:] are zero
	// low is the index of the lowest digit that may be non-zero, plus
	// one; 0 when none is.
	low     int32
	pending int32 // deposits since the last normalisation
	// nan: a NaN took part; posInf, negInf: +Inf, -Inf took part;
	// nonNegZero: a value other than -0.0 took part (the exact zero is
	// then +0.0); any: something took part.
	nan, posInf, negInf, nonNegZero, any bool
}

// deposit adds the finite v to the digits exactly: its 53-bit significand,
// shifted to its place, spans at most three digits.
func (a *reproAcc) deposit(v float64) {
	b := math.Float64bits(v)
	e := int(b>>52) & 0x7FF
	m := b & (1<<52 - 1)
	if e == 0 {
		if m == 0 {
			return
		}
		e = 1 // subnormal: same unit as the smallest normal binade
	} else {
		m |= 1 << 52
	}
	pos := e - 1 // the significand's unit is 2^(e-1075) = 2^(pos-1074)
	i, sh := pos/reproDigitBits, uint(pos%reproDigitBits)
	lo, hi := m<<sh, m>>(64-sh) // m·2^sh, below 2^92; m>>64 is 0
	d0 := int64(lo & reproDigitMask)
	d1 := int64((lo>>40 | hi<<24) & reproDigitMask)
	d2 := int64(hi >> 16)
	if b>>63 != 0 {
		d0, d1, d2 = -d0, -d1, -d2
	}
	a.digits[i] += d0
	a.digits[i+1] += d1
	a.digits[i+2] += d2
	a.top = max(a.top, int32(i+3))
	if a.low == 0 || int32(i) < a.low-1 {
		a.low = int32(i + 1)
	}
	a.pending++
}

// addOne adds one participating value, whatever it is.
func (a *reproAcc) addOne(v float64) {
	a.any = true
	b := math.Float64bits(v)
	switch {
	case b&^(1<<63) > 0x7FF<<52:
		a.nan = true
	case b == 0x7FF<<52:
		a.posInf = true
	case b == 0xFFF<<52:
		a.negInf = true
	default:
		if b != 1<<63 {
			a.nonNegZero = true
		}
		a.deposit(v)
	}
}

// settle normalises the digits once enough deposits have been made that
// another block could overflow one.
func (a *reproAcc) settle() {
	if a.pending >= reproPendingMax {
		a.normalize()
	}
}

// normalize carries the digits so that all but the top one in use are in
// [0, 2^40).
func (a *reproAcc) normalize() {
	a.pending = 0
	if a.low == 0 {
		return
	}
	w := reproWindow(a.top)
	c := normalizeDigits(a.digits[a.low-1 : w])
	a.digits[w-1] += c << reproDigitBits
	a.top = int32(w)
}

// reproWindow is how many digits from the bottom hold a sum whose digits
// above top are zero, with room for the carries out of digits as large
// as the 2^62 a digit reaches between normalisations.
func reproWindow(top int32) int { return min(int(top)+2, reproDigits) }

// normalizeDigits carries every digit of d into [0, 2^40) and returns the
// carry out of the top, 0 or -1 (the sign of the sum) for digits that
// hold a sum within the reach of d.
func normalizeDigits(d []int64) int64 {
	var c int64
	for i := range d {
		v := d[i] + c
		c = v >> reproDigitBits
		d[i] = v & reproDigitMask
	}
	return c
}

// merge adds o's exact sum and flags to a.
func (a *reproAcc) merge(o *reproAcc) {
	if o.pending+a.pending >= reproPendingMax {
		// Both normalised, each digit of the sum is below 2^41 (the top
		// ones: below 2^41 in magnitude).
		a.normalize()
		b := *o
		b.normalize()
		a.addDigits(&b)
		a.pending = 1
	} else {
		a.addDigits(o)
		a.pending += o.pending + 1
	}
	a.nan = a.nan || o.nan
	a.posInf = a.posInf || o.posInf
	a.negInf = a.negInf || o.negInf
	a.nonNegZero = a.nonNegZero || o.nonNegZero
	a.any = a.any || o.any
}

// addDigits adds o's digits to a's.
func (a *reproAcc) addDigits(o *reproAcc) {
	if o.low == 0 {
		return
	}
	for i := o.low - 1; i < o.top; i++ {
		a.digits[i] += o.digits[i]
	}
	a.top = max(a.top, o.top)
	if a.low == 0 || o.low < a.low {
		a.low = o.low
	}
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
func reproAddDense[T float32 | float64](a *reproAcc, k reproKernels[T], x []T) {
	for len(x) > 0 {
		blk := x[:min(len(x), reproBlock)]
		x = x[len(blk):]
		e := reproExp64[T](k.maxExp(blk))
		if e == 0 {
			for _, v := range blk {
				a.addOne(float64(v))
			}
			a.settle()
			continue
		}
		mA, mB, mC := reproMagic(e)
		sA, sB, sC, res := k.fold(blk, mA, mB, mC)
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
func reproFoldDeposit[T float32 | float64](a *reproAcc, x []T, mA, mB, mC float64) (sA, sB, sC float64) {
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
// in order, into a buffer of reproChunk values that goes through the
// dense path and its kernels. The sum is exact, so which values share a
// block does not change it.
func reproAddMasked[T float32 | float64](a *reproAcc, k reproKernels[T], x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	var buf [reproChunk]T
	n := len(x)
	if hasSel {
		n = len(sel)
	}
	for lo := 0; lo < n; lo += reproChunk {
		hi := min(n, lo+reproChunk)
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

// roundDigits rounds the exact sum in d to the nearest float with a
// significand of p bits (53 or 24), ties to even, whose smallest unit is
// 2^emin (-1074 or -149) and whose largest finite exponent is emax (1023
// or 127). It returns the IEEE bits of the result (+0.0 for a zero sum;
// ±Inf on overflow).
func roundDigits(a *reproAcc, p uint, emin, emax int) uint64 {
	if a.low == 0 {
		return 0
	}
	// Only digits low-1 to w-1 can be non-zero: normalise those.
	var d [reproDigits]int64
	bot, w := int(a.low-1), reproWindow(a.top)
	copy(d[bot:w], a.digits[bot:w])
	neg := normalizeDigits(d[bot:w]) < 0
	if neg {
		for i := range d[bot:w] {
			d[bot+i] = -d[bot+i]
		}
		normalizeDigits(d[bot:w])
	}
	h := w - 1
	for h >= 0 && d[h] == 0 {
		h--
	}
	if h < 0 {
		return 0
	}
	// The top three digits as a 120-bit integer u = hi·2^64 + lo whose
	// bit 0 is worth 2^e0, and whether anything below them is set.
	digit := func(i int) uint64 {
		if i < 0 {
			return 0
		}
		return uint64(d[i])
	}
	hi := digit(h)<<16 | digit(h-1)>>24
	lo := digit(h-1)<<40 | digit(h-2)
	sticky := false
	for i := bot; i < h-2; i++ {
		sticky = sticky || d[i] != 0
	}
	e0 := reproDigitBits*(h-2) - 1074
	length := bits.Len64(lo)
	if hi != 0 {
		length = 64 + bits.Len64(hi)
	}
	top := e0 + length - 1 // exponent of the leading bit
	lsb := max(top-int(p-1), emin)
	// Bits to drop: at least 28, and at most length-1 for sums of T's
	// values (multiples of 2^emin); a smaller sum rounds to zero.
	s := uint(lsb - e0)
	if s >= 128 {
		return 0
	}
	m, rhi, rlo := shr128(hi, lo, s)
	// rem = u mod 2^s against half = 2^(s-1).
	hhi, hlo := uint64(0), uint64(0)
	if s-1 >= 64 {
		hhi = 1 << (s - 1 - 64)
	} else {
		hlo = 1 << (s - 1)
	}
	up := false
	switch {
	case rhi > hhi || (rhi == hhi && rlo > hlo):
		up = true
	case rhi == hhi && rlo == hlo:
		up = sticky || m&1 == 1
	}
	if up {
		m++
		if m == 1<<p {
			m >>= 1
			lsb++
		}
	}
	if m == 0 {
		return 0
	}
	var sign uint64
	if neg {
		sign = 1 << (p - 1 + uint(bitsOfExp(p)))
	}
	bias := emax
	if m < 1<<(p-1) { // subnormal: lsb == emin
		return sign | m
	}
	be := lsb + int(p-1) + bias // biased exponent
	if be >= 2*emax+1 {
		return sign | uint64(2*emax+1)<<(p-1) // infinity
	}
	return sign | uint64(be)<<(p-1) | m&(1<<(p-1)-1)
}

// bitsOfExp is the width of the exponent field of the format with a p-bit
// significand.
func bitsOfExp(p uint) int {
	if p == 24 {
		return 8
	}
	return 11
}

// shr128 returns (hi·2^64 + lo) >> s as one word (the caller knows it fits)
// and the s bits shifted out, for 1 <= s < 128.
func shr128(hi, lo uint64, s uint) (q, rhi, rlo uint64) {
	if s >= 64 {
		q = hi >> (s - 64)
		rhi = hi & (1<<(s-64) - 1)
		return q, rhi, lo
	}
	q = lo>>s | hi<<(64-s)
	return q, 0, lo & (1<<s - 1)
}

// SumReproducibleState is the partial state of [SumReproducible]: feed it
// batches with Add or AddParallel, combine states with Merge in any order,
// and read the sum with Sum. Because the state holds the exact sum of what
// it was fed, Sum gives the bits SumReproducible gives over all the values
// at once, however they were cut, ordered, merged or spread over
// goroutines, on every backend and platform.
//
// The zero value is an empty state, ready to use. A state is about 460
// bytes and allocates nothing; it is not safe for concurrent use (give
// each goroutine its own and merge them).
type SumReproducibleState[T constraints.Float] struct {
	acc reproAcc
}

// Add feeds the participating elements of x to the state, with the same
// Mask rules and panics as [Sum]. It does not allocate.
func (s *SumReproducibleState[T]) Add(x []T, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	s.add(active.Load(), x, bits, off, sel, hasSel)
}

// add feeds validated input to the state on backend b.
func (s *SumReproducibleState[T]) add(b *backend, x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	if num.KindOf[T]() == num.Float32 {
		reproAdd(&s.acc, b.repro32, num.Cast[float32](x), bits, off, sel, hasSel)
		return
	}
	reproAdd(&s.acc, b.repro64, num.Cast[float64](x), bits, off, sel, hasSel)
}

// reproAdd adds validated input with the kernels k: dense input straight
// through them, the rest gathered first.
func reproAdd[T float32 | float64](a *reproAcc, k reproKernels[T], x []T, bits []byte, off int, sel []uint32, hasSel bool) {
	if bits == nil && !hasSel {
		reproAddDense(a, k, x)
		return
	}
	reproAddMasked(a, k, x, bits, off, sel, hasSel)
}

// Merge adds other's values to s, as if they had been fed to s; other is
// unchanged. Merging is exact, so states merge in any order and any
// grouping with the same result. A nil other adds nothing.
func (s *SumReproducibleState[T]) Merge(other *SumReproducibleState[T]) {
	if other == nil {
		return
	}
	if other == s {
		o := *other
		s.acc.merge(&o.acc)
		return
	}
	s.acc.merge(&other.acc)
}

// Sum returns the sum of every value fed to the state, as
// [SumReproducible] defines it. It does not change the state, so feeding
// can go on.
func (s *SumReproducibleState[T]) Sum() T {
	a := &s.acc
	f32 := num.KindOf[T]() == num.Float32
	switch {
	case a.nan || a.posInf && a.negInf:
		return num.NaN[T]()
	case a.posInf:
		return T(math.Inf(1))
	case a.negInf:
		return T(math.Inf(-1))
	}
	var b uint64
	if f32 {
		b = roundDigits(a, 24, -149, 127)
	} else {
		b = roundDigits(a, 53, -1074, 1023)
	}
	if b == 0 && a.any && !a.nonNegZero {
		// Only -0.0 took part: the IEEE sum of -0.0s is -0.0.
		if f32 {
			b = 1 << 31
		} else {
			b = 1 << 63
		}
	}
	if f32 {
		f := math.Float32frombits(uint32(b))
		return T(f)
	}
	return T(math.Float64frombits(b))
}

// Reset empties the state.
func (s *SumReproducibleState[T]) Reset() { *s = SumReproducibleState[T]{} }

// reproMinPerWorker is the input, in elements, that each goroutine of
// AddParallel must have at least. The exact sum costs several times Sum
// per element, so a goroutine pays for itself much earlier than for the
// other states: measured with float64 on the ledger's 2-vCPU machine, two
// workers were 26% slower than one at 131072 elements and 10% faster at
// 262144, 36% at 1048576. A variable so that tests can push small inputs
// through the goroutines; it never affects the result, which is exact.
var reproMinPerWorker = 1 << 17

// AddParallel feeds x to the state as [SumReproducibleState.Add] does, on
// up to workers goroutines (GOMAXPROCS when workers <= 0): x (or its
// selection) is cut into one part per goroutine, each part is summed into
// a state of its own, and the states are merged into s. The result is the
// same for every worker count and every cut, since merging is exact.
// Below 131072 elements per worker it runs on the calling goroutine. It
// panics as [Sum] does, before any goroutine starts, and returns when
// every goroutine has finished.
func (s *SumReproducibleState[T]) AddParallel(x []T, workers int, m ...Mask) {
	bits, off, sel, hasSel := maskOf(len(x), m)
	b := active.Load()
	for _, p := range reduceParts(x, bits, off, sel, hasSel, workers, reproMinPerWorker,
		func(x []T, bits []byte, off int, sel []uint32, hasSel bool) (p SumReproducibleState[T]) {
			p.add(b, x, bits, off, sel, hasSel)
			return p
		}) {
		s.Merge(&p)
	}
}

// SumReproducible returns the sum of the participating elements of a float
// slice, correctly rounded: the exact mathematical sum of the values,
// rounded once to T (to nearest, ties to even). The result is therefore a
// function of the multiset of participating values alone: the same bits
// on every backend and platform, for any order of the values, and for any
// split into batches, merge order or worker count through
// [SumReproducibleState].
//
// Special values, decided on the multiset too: a NaN among the values, or
// both +Inf and -Inf, gives the canonical quiet NaN (0x7FF8000000000000,
// 0x7FC00000 for float32); otherwise an infinity gives itself; otherwise
// an exact sum beyond the largest finite value rounds to ±Inf. An exact
// zero is -0.0 if every participating value is -0.0, and +0.0 otherwise,
// including when nothing participates.
//
// Choose [Sum] for speed with reproducibility per (version, backend); choose
// SumReproducible when the bits must agree across machines, orders,
// batches or core counts, or when accuracy matters. It costs four to seven
// times Sum on SIMD backends and about twice the plain loop in portable
// Go; with a bitmap or a selection the participating values are first
// gathered into a buffer for the same kernels (see ADR-105 and
// docs/ledger.md). Float64 values more than 2^63 below the
// largest of their block of 4096 take a slower exact path.
//
// It panics as [Sum] does: if more than one Mask is given, if m's bitmap
// is too short for len(x) elements at its offset (see [Valid]), or if a
// selection index is len(x) or more.
func SumReproducible[T constraints.Float](x []T, m ...Mask) T {
	var s SumReproducibleState[T]
	s.Add(x, m...)
	return s.Sum()
}
