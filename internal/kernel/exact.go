package kernel

import (
	"math"
	"math/bits"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The exact accumulator of the reproducible sum (ADR-105): the digit
// arithmetic behind [ReproAcc], which holds the exact sum of every value
// deposited into it, and its rounding to float32 or float64. The kernels
// that feed it are in repro.go.

const (
	// reproDigitBits is the width of one digit of the exact sum, and
	// reproDigits their number: digit 0 is worth 2^-1074, the smallest
	// subnormal, and the top digits leave room for carries of any count
	// of values of up to MaxFloat64.
	reproDigitBits = 40
	reproDigits    = 56
	reproDigitMask = 1<<reproDigitBits - 1
	// ReproPendingMax is how many deposits the digits take between
	// normalisations: each adds less than 2^40 to a digit.
	ReproPendingMax = 1 << 20
)

// ReproAcc is the exact sum of the values deposited so far and the flags
// of the values that are not finite numbers.
type ReproAcc struct {
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

// ReproSum is the exact sum held by a, rounded once to T (to nearest,
// ties to even), with the special values of SumReproducible.
func ReproSum[T constraints.Float](a *ReproAcc) T {
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

// deposit adds the finite v to the digits exactly: its 53-bit significand,
// shifted to its place, spans at most three digits.
func (a *ReproAcc) deposit(v float64) {
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
	a.depositAt(m, b>>63 != 0, e-1) // the significand's unit is 2^(e-1075)
}

// depositUnits adds u units of the grid of the fold constant m to the
// digits exactly: m = 1.5·2^52·g is a normal float64 whose unit in the
// last place is the grid g.
func (a *ReproAcc) depositUnits(u int64, m float64) {
	if u == 0 {
		return
	}
	mag := uint64(u)
	if u < 0 {
		mag = -mag
	}
	a.depositAt(mag, u < 0, int(math.Float64bits(m)>>52)-1)
}

// depositAt adds ±m·2^(pos-1074) to the digits: m·2^(pos mod 40), below
// 2^104, spans at most three digits, each part below 2^40. pos+104 must
// stay within the digits' 2240 bits.
func (a *ReproAcc) depositAt(m uint64, neg bool, pos int) {
	i, sh := pos/reproDigitBits, uint(pos%reproDigitBits)
	lo, hi := m<<sh, m>>(64-sh) // m·2^sh, below 2^104; m>>64 is 0
	d0 := int64(lo & reproDigitMask)
	d1 := int64((lo>>40 | hi<<24) & reproDigitMask)
	d2 := int64(hi >> 16)
	if neg {
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
func (a *ReproAcc) addOne(v float64) {
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
func (a *ReproAcc) settle() {
	if a.pending >= ReproPendingMax {
		a.normalize()
	}
}

// normalize carries the digits so that all but the top one in use are in
// [0, 2^40).
func (a *ReproAcc) normalize() {
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

// Merge adds o's exact sum and flags to a.
func (a *ReproAcc) Merge(o *ReproAcc) {
	if o.pending+a.pending >= ReproPendingMax {
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
func (a *ReproAcc) addDigits(o *ReproAcc) {
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

// roundDigits rounds the exact sum in d to the nearest float with a
// significand of p bits (53 or 24), ties to even, whose smallest unit is
// 2^emin (-1074 or -149) and whose largest finite exponent is emax (1023
// or 127). It returns the IEEE bits of the result (+0.0 for a zero sum;
// ±Inf on overflow).
func roundDigits(a *ReproAcc, p uint, emin, emax int) uint64 {
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
