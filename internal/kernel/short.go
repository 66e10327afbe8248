package kernel

import (
	"encoding/binary"
	"math"
	mbits "math/bits"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// Short inputs. Below a few dozen elements the fixed cost of a kernel call
// (the dispatch switch, the wrapper, the assembly call and
// VZEROUPPER) is more than the work, so the public functions run the loops
// below instead, inline. Each computes exactly what every backend computes
// for such an input:
//
//   - integer sums wrap, checked sums are exact and min, max and counts are
//     exact, so the order of a loop does not show;
//   - a float sum of fewer elements than one ADR-013 block (A×W) is, on a
//     SIMD backend, the tail alone added in index order from +0.0, which is
//     the strict fold these loops do; the strict backends fold that way at
//     every length.
//
// SmallCut is the crossover in elements; below it the loops run. Below
// 64 elements a kernel call does not win: its fixed cost (20 to 30 ns for
// min and max, with the settle step) is about what these loops need for
// the whole input (docs/ledger.md has the short-input configurations
// against the plain Go loop). Float sums also stop at the active backend's
// block, where the blocked order starts.
//
// The exported functions test for a short dense input first and call
// these loops directly, so that such a call pays for one small frame; the
// rest of each operation lives in a function of its own.
const SmallCut = 64

// BitAt reports whether bit p of a validated bitmap is set.
func BitAt(bits []byte, p int) bool { return bits[p>>3]>>(p&7)&1 != 0 }

// AddValid adds the valid elements of x (element i is valid when bit
// off+i of bits is set; bits nil: all) to s in index order: from +0.0 it
// is the strict left fold of a short input, and the kernels' wrappers
// finish their tails with it. For integers it is the wrapping sum; a
// dense integer input is better served by SumInts.
func AddValid[T num.Number, S ~int64 | ~uint64 | ~float32 | ~float64](s S, x []T, bits []byte, off int) S {
	if bits == nil {
		for _, v := range x {
			s += S(v)
		}
		return s
	}
	if len(x) <= 64 {
		// One word of validity bits, tested in a register: no load or
		// bounds check per element.
		return AddWord(s, x, ValidWord(bits[off>>3:], off&7, len(x)))
	}
	for i, v := range x {
		if p := off + i; bits[p>>3]>>(p&7)&1 != 0 { // BitAt, written out: this inlines where the API instantiates it
			s += S(v)
		}
	}
	return s
}

// ValidWord returns the validity bits of n <= 64 elements as one word,
// bit i for element i, from a validated bitmap whose first byte holds
// the first element's bit at position off < 8. Bits at n and above are
// whatever the bitmap holds there.
func ValidWord(bits []byte, off, n int) uint64 {
	var w uint64
	if len(bits) >= 8 {
		w = binary.LittleEndian.Uint64(bits)
	} else {
		for i, b := range bits { // the bitmap's last bytes
			w |= uint64(b) << (8 * uint(i))
		}
	}
	w >>= uint(off)
	if off+n > 64 { // the last bits are in a ninth byte, and off > 0
		w |= uint64(bits[8]) << (64 - uint(off))
	}
	return w
}

// ShortBytes assembles a bitmap's last 0 to 7 bytes into a word, the
// first in the low byte, from loads that overlap where the length is not
// 4 or 1 to 3: bytes loaded twice land in the same place, so an OR joins
// them. A loop of one byte at a time cost a third of a 16-element masked
// sum.
func ShortBytes(b []byte) uint64 {
	n := uint(len(b))
	if n >= 4 {
		return uint64(binary.LittleEndian.Uint32(b)) |
			uint64(binary.LittleEndian.Uint32(b[n-4:]))<<(8*(n-4))
	}
	if n == 0 {
		return 0
	}
	return uint64(b[0]) | uint64(b[n/2])<<(8*(n/2)) | uint64(b[n-1])<<(8*(n-1))
}

// AddWord adds to s, in index order, the elements of x (at most 64)
// whose bit in w is set: from +0.0 the strict left fold of a short
// masked input. Bits of w at len(x) and above are ignored.
func AddWord[T num.Number, S ~int64 | ~uint64 | ~float32 | ~float64](s S, x []T, w uint64) S {
	for i, v := range x {
		if w>>(uint(i)&63)&1 != 0 {
			s += S(v)
		}
	}
	return s
}

// StrictSum is the strict left fold of a short dense float input from
// +0.0. The additions are one dependency chain whatever the code; four
// per iteration keep the loop's own overhead off it, and make its time
// depend less on where the loop falls in the instruction fetch lines (a
// one-add loop measured 10.2 or 12.5 ns at n = 16 with its layout).
func StrictSum[T constraints.Float](x []T) T {
	var s T
	for len(x) >= 4 {
		s += x[0]
		s += x[1]
		s += x[2]
		s += x[3]
		x = x[4:]
	}
	for _, v := range x {
		s += v
	}
	return s
}

// BlockSum is the dense float sum of x, 4*w <= len(x) < 8*w, in the
// order of ADR-013 under a policy of A = 4 accumulators of w lanes
// (oracle.Sum): lane l of the one whole block is (x[l] + x[2w+l]) +
// (x[w+l] + x[3w+l]), the lanes are added low to high from +0.0, and the
// tail follows in index order. The accumulators' +0.0 start is left out:
// it only turns a -0.0 into +0.0, and the final fold from +0.0 does the
// same to any zero, so the result is the same bits (TestBlockSum).
func BlockSum[T constraints.Float](x []T, w int) T {
	x0, x1, x2, x3 := x[:w], x[w:2*w], x[2*w:3*w], x[3*w:4*w]
	x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
	var s T
	for l, v := range x0 {
		s += (v + x2[l]) + (x1[l] + x3[l])
	}
	for _, v := range x[4*w:] {
		s += v
	}
	return s
}

// SumIntsWord is the wrapping sum of the elements of x (at most 64) whose
// bit in w is set. Each element is added under a mask of its bit rather
// than behind a branch, in two independent sums, so that a random bitmap
// costs no mispredictions. Its callers run SumPackedWord instead for 8-
// and 16-bit elements from PackedWordCut on (the test here kept it from
// inlining).
func SumIntsWord[T num.Number, S int64 | uint64](x []T, w uint64) S {
	var s0, s1 S
	for len(x) >= 2 { // written so that it inlines into the exported functions
		s0 += S(x[0]) & -S(w&1)
		s1 += S(x[1]) & -S(w>>1&1)
		x, w = x[2:], w>>2
	}
	if len(x) > 0 {
		s0 += S(x[0]) & -S(w&1)
	}
	return s0 + s1
}

// Constants of SumPackedWord and sumBytes: a 1 in every byte, every
// other byte's bits, and the bit of byte k of a spread bitmap byte in
// byte k.
const (
	byteOnes   = 0x0101010101010101
	evenBytes  = 0x00FF00FF00FF00FF
	byteBitsAt = 0x8040201008040201
)

// PackedWordCut is the length from which a masked sum of fewer than 64
// elements of T runs SumPackedWord in place of its word loop: SumIntsWord
// for the wrapping sums, HalvesWord, which splits each element at bit 32,
// for the exact ones (exact). Wider types never do. Measured on a Zen 5
// against those loops: 8-bit 0.75-0.86x at 8 elements (H518), 16-bit
// exact 0.85x at 4 (H523); the 16-bit wrapping sum 0.84-0.92x at 32 and
// 63, but 0.97-1.09x at 4 and 16, where SumIntsWord, inline, takes two
// elements an iteration (H523).
func PackedWordCut[T num.Number](exact bool) int {
	var zero T
	switch size := unsafe.Sizeof(zero); {
	case size == 1:
		return 8
	case size == 2 && exact:
		return 4
	case size == 2:
		return 32
	}
	return math.MaxInt
}

// SumPackedWord is SumIntsWord for 8- and 16-bit T and at most 64
// elements: as many a step as one little-endian word holds (eight or
// four). The step's bits of w become a mask of whole elements: the
// multiply copies them into every lane, the AND keeps bit k in lane k,
// and adding the lane's top bit less one sets that top bit exactly where
// bit k was set (no lane carries into the next). The masked elements are
// added as unsigned values into lanes twice their width (at most 8 steps
// of 2 x 255, or 16 of 2 x 65535: none overflows), folded to one sum at
// the end. A signed T's top bits are flipped first, which reads each
// value v as v+2^(bits-1), unsigned; that much is taken off for each
// valid element of the steps at the end. The wrapping sum is the same as
// element by element: integer addition does not depend on the order. A
// step of eight bytes costs about as many operations as two elements did
// in the loop of SumIntsWord (H517-H524 in bench/bytesums_test.go).
func SumPackedWord[T num.Number, S int64 | uint64](x []T, w uint64) S {
	var zero T
	size := unsafe.Sizeof(zero) // 1 or 2: every value below is a constant of T's shape
	bits := 8 * size
	per := 8 / int(size) // elements a step
	ones, bitsAt, even := uint64(byteOnes), uint64(byteBitsAt), uint64(evenBytes)
	if size == 2 {
		ones, bitsAt, even = 0x0001000100010001, 0x0008000400020001, 0x0000FFFF0000FFFF
	}
	top := ones << (bits - 1)
	var flip uint64
	if zero-1 < zero { // signed
		flip = top
	}
	w0 := w
	var lanes uint64
	rest := x
	for len(rest) >= per {
		var v uint64
		if size == 1 {
			v = binary.LittleEndian.Uint64(num.Cast[uint8](rest))
		} else {
			q := num.Cast[uint16](rest)[:4:4] // one load where the compiler merges the four
			v = uint64(q[0]) | uint64(q[1])<<16 | uint64(q[2])<<32 | uint64(q[3])<<48
		}
		spread := (w & (1<<per - 1)) * ones & bitsAt
		v = (v ^ flip) & ((spread + top - ones) & top >> (bits - 1) * (1<<bits - 1))
		lanes += v&even + v>>bits&even
		rest, w = rest[per:], w>>per
	}
	if size == 1 { // four 16-bit lanes to two 32-bit ones
		lanes = lanes&0x0000FFFF0000FFFF + lanes>>16&0x0000FFFF0000FFFF
	}
	s := S(lanes&0xFFFFFFFF + lanes>>32)
	if flip != 0 {
		stepped := uint(len(x) - len(rest)) // a multiple of per, at most 64
		s -= S(mbits.OnesCount64(w0&(1<<stepped-1))) << (bits - 1)
	}
	for _, v := range rest {
		s += S(v) & -S(w&1)
		w >>= 1
	}
	return s
}

// SumInts is the wrapping sum of a dense input in four independent sums:
// a one-sum loop this short runs at the speed of its loop overhead, and at
// half that where the code layout splits it over two fetch lines (a
// 63-element uint8 tail measured 42 against 20 ns).
func SumInts[T num.Number, S int64 | uint64](x []T) S {
	var s0, s1, s2, s3 S
	for len(x) >= 4 { // written so that it inlines into the exported functions
		s0 += S(x[0])
		s1 += S(x[1])
		s2 += S(x[2])
		s3 += S(x[3])
		x = x[4:]
	}
	for _, v := range x {
		s0 += S(v)
	}
	return s0 + s1 + s2 + s3
}

// CheckedSmall is the exact sum of the valid elements of a short input
// (fewer than 65, so narrow types cannot leave their 64-bit sum type), from
// a validated bitmap span (nil: all valid).
func CheckedSmall[T num.Number](x []T, bits []byte, off int) num.Int128 {
	if bits != nil {
		return checkedWord(x, spanWord(bits, off, len(x)))
	}
	return CheckedInts(x)
}

// CheckedInts is the exact sum of a short dense input (fewer than 2^31
// elements), a leaf the exported functions call directly. Each element is
// split at bit 32: the low halves (unsigned) and the high halves (signed
// for signed types) sum exactly in 64 bits, in two chains without a carry
// between them, for every integer type.
func CheckedInts[T num.Number](x []T) num.Int128 {
	k := num.KindOf[T]()
	var lo, lo1 uint64
	var hi, hi1 int64
	i := 0
	for ; i+2 <= len(x); i += 2 {
		lo += uint64(x[i]) & (1<<32 - 1)
		hi += highHalf(x[i], k)
		lo1 += uint64(x[i+1]) & (1<<32 - 1)
		hi1 += highHalf(x[i+1], k)
	}
	if i < len(x) {
		lo += uint64(x[i]) & (1<<32 - 1)
		hi += highHalf(x[i], k)
	}
	return JoinHalves[T](hi+hi1, lo+lo1)
}

// highHalf is v's bits from 32 up: arithmetic for a signed type (the high
// half carries the sign; -1 for a negative narrow value) and logical for
// an unsigned one (0 for a narrow value).
func highHalf[T num.Number](v T, k num.Kind) int64 {
	if k <= num.Int64 { // Int8 to Int64
		return int64(v) >> 32
	}
	return int64(uint64(v) >> 32)
}

// JoinHalves is hi·2^32 + lo in 128 bits. T is the element type of the
// sum it finishes; it only makes the function generic, because a generic
// caller instantiated in the API's user's package inlined this package's
// generic helpers but not its plain ones.
func JoinHalves[T num.Number](hi int64, lo uint64) num.Int128 {
	return num.Int128{Hi: hi >> 32, Lo: uint64(hi) << 32}.AddUint64(lo)
}

// checkedWord is the exact sum of the elements of x (at most 64) whose
// bit in w is set, in halves as CheckedInts.
func checkedWord[T num.Number](x []T, w uint64) num.Int128 {
	return JoinHalves[T](HalvesWord(x, w, num.KindOf[T]()))
}

// HalvesWord is checkedWord's loop: each element under a mask of its bit,
// split at bit 32 into two sums without a carry chain (joined by
// JoinHalves).
func HalvesWord[T num.Number](x []T, w uint64, k num.Kind) (hi int64, lo uint64) {
	for _, v := range x {
		keep := -(w & 1)
		lo += uint64(v) & keep & (1<<32 - 1)
		hi += highHalf(v, k) & int64(keep)
		w >>= 1
	}
	return hi, lo
}

// spanWord is the validity word of the n <= 64 elements of a validated
// bitmap span (see bitSpan), bits at n and above clear.
func spanWord(bits []byte, off, n int) uint64 {
	return ValidWord(bits, off, n) & (^uint64(0) >> (64 - uint(n)))
}

// SummarySmall is the reference's summary of a short input, from a
// validated bitmap span (nil: all valid); only the Extremes in want are
// computed (the other is meaningless). See SummaryWord.
func SummarySmall[T num.Number](x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if bits != nil {
		return SummaryWord(x, spanWord(bits, off, len(x)), want)
	}
	if len(x) == 0 {
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	if num.IsFloat[T]() {
		return FloatExtremes(x, want)
	}
	// Integers have no NaN and no visible ties: the builtins, conditional
	// moves, in any order give the reference's result.
	switch want {
	case WantMin:
		lo = ChainMin(x)
	case WantMax:
		hi = IntMax(x)
	default:
		lo, hi = IntMinMax(x)
	}
	return lo, hi, len(x)
}

// FloatExtremes is the reference's min and max of a short dense float
// input (not empty): the loops of SummaryWord without the bit test.
func FloatExtremes[T num.Number](x []T, want Extremes) (lo, hi T, valid int) {
	lo, hi = x[0], x[0]
	nan := x[0] != x[0]
	lo1, hi1 := lo, hi
	i := 1
	switch want {
	case WantMin:
		for ; i+2 <= len(x); i += 2 {
			lo, nan = lower(lo, x[i], nan)
			lo1, nan = lower(lo1, x[i+1], nan)
		}
	case WantMax:
		for ; i+2 <= len(x); i += 2 {
			hi, nan = higher(hi, x[i], nan)
			hi1, nan = higher(hi1, x[i+1], nan)
		}
	default:
		for ; i+2 <= len(x); i += 2 {
			lo, nan = lower(lo, x[i], nan)
			hi, nan = higher(hi, x[i], nan)
			lo1, nan = lower(lo1, x[i+1], nan)
			hi1, nan = higher(hi1, x[i+1], nan)
		}
	}
	if i < len(x) {
		lo, nan = lower(lo, x[i], nan)
		hi, nan = higher(hi, x[i], nan)
	}
	if lo, hi = joinChains(lo, lo1, hi, hi1); nan || lo == 0 || hi == 0 {
		lo, hi = settleChains(x, ^uint64(0), lo, hi, nan)
	}
	return lo, hi, len(x)
}

// ChainCut is the length below which a dense float Min, Max, MinMax or
// Summarize that runs the inline loops runs ChainMin, ChainMax or
// ChainMinMax instead of FloatExtremes. Their chains carry two MINSD and a
// POR an element on amd64 (7 cycles) and no branch; FloatExtremes'
// compares predict well once new extremes grow rare. On an AMD EPYC
// (family 26 model 2, Zen 5 class), 16 random float64 inputs in turn:
// the builtin min in two chains 4.3 against 7.0 ns at n=8, 13.3 against
// 14.5 at 24, level at 32, 3.5 against 1.4 us at 4096 (bench's
// H396-H401).
const ChainCut = 32

// SettleChains makes the extremes of ChainMin, ChainMax or ChainMinMax
// over a short dense float x the reference's where the builtin's rules
// differ from it (for one extreme, pass it as both lo and hi). The chains
// yield NaN exactly when an element is NaN, so a NaN extreme is the
// canonical NaN for both, with no second pass; they take -0 below +0,
// where the reference keeps the first of ±0 in index order (ADR-103), so
// a zero extreme is x's first zero. The callers inline the chains and
// call this only when their result is NaN or zero.
func SettleChains[T num.Number](x []T, lo, hi T) (T, T) {
	if lo != lo || hi != hi {
		return num.NaN[T](), num.NaN[T]()
	}
	return zeroTies(lo, hi, firstZeroShort(x))
}

// firstZeroShort is the first element of a short dense float x that
// equals zero, x known to hold one. It scans from the end and keeps each
// zero it meets by a conditional move on the element's bits, not a
// branch, so that where the zero lies costs no misprediction (firstZero's
// early exit mispredicts once a call, as long as a short scan).
func firstZeroShort[T num.Number](x []T) T {
	if num.KindOf[T]() == num.Float32 {
		return T(fromBits[float32](firstZeroBits(num.Cast[uint32](x))))
	}
	return T(fromBits[float64](firstZeroBits(num.Cast[uint64](x))))
}

// firstZeroBits is firstZeroShort's scan over the bit patterns of its
// floats: a zero is the element whose bits are zero below the sign.
func firstZeroBits[B uint32 | uint64](x []B) B {
	var z B
	for i := len(x) - 1; i >= 0; i-- {
		if b := x[i]; b<<1 == 0 {
			z = b
		}
	}
	return z
}

// ChainMax is ChainMin's maximum for floats: the builtin min of the
// negated elements, negated. The compiler's max of floats negates its
// running value on the chain, twice an element; these chains negate each
// element off them. The float rules of ChainMin hold. (Not for integers:
// the negation wraps.)
func ChainMax[T num.Number](x []T) T {
	nh, nh1 := -x[0], -x[0]
	for len(x) >= 3 {
		nh, nh1 = min(nh, -x[1]), min(nh1, -x[2])
		x = x[2:]
	}
	if len(x) == 2 {
		nh = min(nh, -x[1])
	}
	return -min(nh, nh1)
}

// ChainMinMax is ChainMin and ChainMax in one pass (over the inliner's
// budget: a call).
func ChainMinMax[T num.Number](x []T) (lo, hi T) {
	lo, lo1, nh, nh1 := x[0], x[0], -x[0], -x[0]
	for len(x) >= 3 {
		v, w := x[1], x[2]
		lo, lo1 = min(lo, v), min(lo1, w)
		nh, nh1 = min(nh, -v), min(nh1, -w)
		x = x[2:]
	}
	if len(x) == 2 {
		lo, nh = min(lo, x[1]), min(nh, -x[1])
	}
	return min(lo, lo1), -min(nh, nh1)
}

// ChainMin is the builtin min of a short dense input (not empty) in two
// chains, small enough to inline into Min. On integers the builtin
// compiles to conditional moves. On floats it yields NaN when either
// operand is NaN and takes -0 below +0, without a branch (two MINSD and a
// POR on amd64): so the result is NaN exactly when an element is, and a
// result that is neither NaN nor zero has the bits of the reference's
// (equal values have equal bits); the caller settles the other two cases
// with SettleChains.
func ChainMin[T num.Number](x []T) T {
	lo, lo1 := x[0], x[0]
	i := 1
	for ; i+2 <= len(x); i += 2 {
		lo, lo1 = min(lo, x[i]), min(lo1, x[i+1])
	}
	if i < len(x) {
		lo = min(lo, x[i])
	}
	return min(lo, lo1)
}

// IntMax is ChainMin's maximum for integers, in the builtin max. Floats
// take ChainMax: the compiler's max of floats negates its running value
// on the chain.
func IntMax[T num.Number](x []T) T {
	hi, hi1 := x[0], x[0]
	i := 1
	for ; i+2 <= len(x); i += 2 {
		hi, hi1 = max(hi, x[i]), max(hi1, x[i+1])
	}
	if i < len(x) {
		hi = max(hi, x[i])
	}
	return max(hi, hi1)
}

// IntMinLong and IntMaxLong are ChainMin and IntMax for the generic
// backend's dense inputs of any length: four chains instead of two, and
// 8- and 16-bit elements compared in int32 (see IntMinMax). Not for the
// shortest inputs: the API inlines ChainMin and IntMax, and two chains were
// faster below 32 elements. Four took 0.68x the time of two at 4096
// int64 (1.17 against 1.73 us; bench's H384).
func IntMinLong[T num.Number](x []T) T {
	var zero T
	if unsafe.Sizeof(zero) < 4 { // a constant of T's shape
		return T(minChains4[T, int32](x))
	}
	return minChains4[T, T](x)
}

func IntMaxLong[T num.Number](x []T) T {
	var zero T
	if unsafe.Sizeof(zero) < 4 {
		return T(maxChains4[T, int32](x))
	}
	return maxChains4[T, T](x)
}

// minChains4 and maxChains4 are the loops of IntMinLong and IntMaxLong,
// with the elements compared in W, which holds every value of T in order.
func minChains4[T, W num.Number](x []T) W {
	a := W(x[0])
	b, c, d := a, a, a
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y := x[i : i+4 : i+4] // one bounds check for the four
		a, b, c, d = min(a, W(y[0])), min(b, W(y[1])), min(c, W(y[2])), min(d, W(y[3]))
	}
	for _, v := range x[i:] {
		a = min(a, W(v))
	}
	return min(a, b, c, d)
}

func maxChains4[T, W num.Number](x []T) W {
	a := W(x[0])
	b, c, d := a, a, a
	i := 0
	for ; i+4 <= len(x); i += 4 {
		y := x[i : i+4 : i+4]
		a, b, c, d = max(a, W(y[0])), max(b, W(y[1])), max(c, W(y[2])), max(d, W(y[3]))
	}
	for _, v := range x[i:] {
		a = max(a, W(v))
	}
	return max(a, b, c, d)
}

// IntMinMax is both, in two chains each as IntMin and IntMax: a chain
// of a compare and a conditional move takes two cycles an element, and
// one chain per extreme took 25 ns for 32 int64 where two take 20
// (bench's H377). 8- and 16-bit elements are compared in int32, which
// holds each of their values in order: the compiler keeps a min or max
// of those types as a branch (amd64 has no 8-bit conditional move), which
// random data mispredicts.
func IntMinMax[T num.Number](x []T) (T, T) {
	var zero T
	if unsafe.Sizeof(zero) < 4 { // a constant of T's shape
		lo, hi := minMaxChains[T, int32](x)
		return T(lo), T(hi)
	}
	return minMaxChains[T, T](x)
}

// minMaxChains is IntMinMax's loop with the elements compared in W,
// which must hold every value of T in order. With W = T it inlines into
// IntMinMax (cost 80, the budget, on Go 1.26), so a call of 32- or 64-bit elements
// is one call; the int32 conversions of narrow ones put it at 84.
// The second chains start from the last element, which the pairs from
// x[1] leave out when len(x) is even (and read again when it is odd,
// which changes no extreme), so there is no tail to fold.
func minMaxChains[T, W num.Number](x []T) (W, W) {
	lo, lo1 := W(x[0]), W(x[len(x)-1])
	hi, hi1 := lo, lo1
	for i := 1; i < len(x)-1; i += 2 {
		a, b := W(x[i]), W(x[i+1])
		lo, lo1 = min(lo, a), min(lo1, b)
		hi, hi1 = max(hi, a), max(hi1, b)
	}
	return min(lo, lo1), max(hi, hi1)
}

// IntMinWord, IntMaxWord and IntMinMaxWord are IntMin, IntMax and
// IntMinMax over the elements whose bit in w (not zero) is set: from the
// first of them, a conditional move per element. Small enough to inline
// into the exported functions' masked short path. Min and Max use theirs
// below 16 elements only: from there SummaryWord's two chains of rarely
// taken branches were faster (int64, n = 32: 27 against 33 ns; a
// one-chain branch version took 35 ns), while the fused min and max gain
// at every length (n = 32: 33 against 37 ns).
func IntMinWord[T num.Number](x []T, w uint64) T {
	lo := x[mbits.TrailingZeros64(w)]
	for _, v := range x {
		if w&1 != 0 {
			lo = min(lo, v)
		}
		w >>= 1
	}
	return lo
}

func IntMaxWord[T num.Number](x []T, w uint64) T {
	hi := x[mbits.TrailingZeros64(w)]
	for _, v := range x {
		if w&1 != 0 {
			hi = max(hi, v)
		}
		w >>= 1
	}
	return hi
}

func IntMinMaxWord[T num.Number](x []T, w uint64) (lo, hi T) {
	lo = x[mbits.TrailingZeros64(w)]
	hi = lo
	for _, v := range x {
		if w&1 != 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
		w >>= 1
	}
	return lo, hi
}

// FloatMinWord and FloatMaxWord are the reference's strict fold over the
// elements of a short float x whose bit in w (not zero) is set, in index
// order, in one chain: only a smaller (larger) value replaces the
// extreme, so the first of ±0 stays, and a NaN, for which the comparison
// also passes, sets nan instead. Small enough to inline into Min and Max
// below 16 elements (from there SummaryWord's two chains are faster).
func FloatMinWord[T num.Number](x []T, w uint64) (lo T, nan bool) {
	lo = x[mbits.TrailingZeros64(w)]
	for _, v := range x {
		if !(v >= lo) && w&1 != 0 {
			if v != v {
				nan = true
			} else {
				lo = v
			}
		}
		w >>= 1
	}
	return lo, nan
}

func FloatMaxWord[T num.Number](x []T, w uint64) (hi T, nan bool) {
	hi = x[mbits.TrailingZeros64(w)]
	for _, v := range x {
		if !(v <= hi) && w&1 != 0 {
			if v != v {
				nan = true
			} else {
				hi = v
			}
		}
		w >>= 1
	}
	return hi, nan
}

// SummaryWord is the reference's summary of the elements of a short x
// (at most 64) whose bit in w is set. It folds them in two chains, even
// and odd positions from the first one, each with the strict comparisons
// of lower and higher: a branch that a short run of values rarely takes,
// so it costs less than the builtins' NaN and zero handling per element,
// and two chains run in parallel. settleChains joins them.
func SummaryWord[T num.Number](x []T, w uint64, want Extremes) (lo, hi T, valid int) {
	if w == 0 {
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	first := mbits.TrailingZeros64(w)
	if first >= len(x) {
		panic("quiver: validity word longer than its input") // not reached: w has no bit at len(x) or above
	}
	lo, hi, valid = x[first], x[first], mbits.OnesCount64(w)
	nan := lo != lo
	lo1, hi1 := lo, hi
	i := first + 1
	switch want {
	case WantMin:
		for ; i+2 <= len(x); i += 2 {
			if w>>(uint(i)&63)&1 != 0 {
				lo, nan = lower(lo, x[i], nan)
			}
			if w>>(uint(i+1)&63)&1 != 0 {
				lo1, nan = lower(lo1, x[i+1], nan)
			}
		}
	case WantMax:
		for ; i+2 <= len(x); i += 2 {
			if w>>(uint(i)&63)&1 != 0 {
				hi, nan = higher(hi, x[i], nan)
			}
			if w>>(uint(i+1)&63)&1 != 0 {
				hi1, nan = higher(hi1, x[i+1], nan)
			}
		}
	default:
		for ; i+2 <= len(x); i += 2 {
			if w>>(uint(i)&63)&1 != 0 {
				lo, nan = lower(lo, x[i], nan)
				hi, nan = higher(hi, x[i], nan)
			}
			if w>>(uint(i+1)&63)&1 != 0 {
				lo1, nan = lower(lo1, x[i+1], nan)
				hi1, nan = higher(hi1, x[i+1], nan)
			}
		}
	}
	if i < len(x) && w>>(uint(i)&63)&1 != 0 {
		lo, nan = lower(lo, x[i], nan)
		hi, nan = higher(hi, x[i], nan)
	}
	if lo, hi = joinChains(lo, lo1, hi, hi1); nan || lo == 0 || hi == 0 {
		lo, hi = settleChains(x, w, lo, hi, nan)
	}
	return lo, hi, valid
}

// lower folds v into the running minimum lo the way the reference's
// strict fold does: only a smaller v replaces lo, so the first of equal
// values (the first zero of a ±0 tie) stays; a NaN v sets nan instead.
// The branch is rarely taken on a short run of values, so it costs less
// than the float builtin's NaN and zero handling. For integers it is
// v < lo.
func lower[T num.Number](lo, v T, nan bool) (T, bool) {
	if !(v >= lo) {
		if v != v {
			return lo, true
		}
		return v, nan
	}
	return lo, nan
}

// higher is lower for the running maximum.
func higher[T num.Number](hi, v T, nan bool) (T, bool) {
	if !(v <= hi) {
		if v != v {
			return hi, true
		}
		return v, nan
	}
	return hi, nan
}

// joinChains joins the two chains of SummaryWord: the smaller of lo and
// lo1 and the larger of hi and hi1, each the first of equal values in its
// chain. A NaN or zero result then goes through settleChains.
func joinChains[T num.Number](lo, lo1, hi, hi1 T) (T, T) {
	if lo1 < lo {
		lo = lo1
	}
	if hi1 > hi {
		hi = hi1
	}
	return lo, hi
}

// settleChains finishes a joined result that is NaN or zero: the
// canonical NaN for both if any participating element is NaN, else, since
// equal values have the same bits but for ±0, a zero result becomes the
// first of the zeros in index order. (A chain that started on a NaN first
// element has moved on to the values after it, with nan set.)
func settleChains[T num.Number](x []T, w uint64, lo, hi T, nan bool) (T, T) {
	if !num.IsFloat[T]() { // an integer zero is just zero
		return lo, hi
	}
	if nan {
		return num.NaN[T](), num.NaN[T]()
	}
	var z T
	for i, v := range x {
		if v == 0 && w>>(uint(i)&63)&1 != 0 {
			z = v
			break
		}
	}
	return zeroTies(lo, hi, z)
}

// settleSummary turns a min and max computed in any order into the
// reference's exact result. lo and hi are the min and max of the valid
// elements, from a ±Inf start (the identities for integers), NaN-free or
// not; valid is their count and nan whether a valid element is NaN:
//
//   - any valid NaN gives the canonical NaN for both results;
//   - with no valid element the results are the identities (the ±Inf start
//     is exact otherwise: a lone +Inf stays +Inf);
//   - ±0 is the only tie that shows in the bits, and the reference's strict
//     fold keeps the FIRST participating zero, so a float result equal to
//     zero is replaced by the first valid zero in index order.
func settleSummary[T num.Number](x []T, bits []byte, off int, lo, hi T, valid int, nan bool) (T, T, int) {
	switch {
	case nan:
		return num.NaN[T](), num.NaN[T](), valid
	case valid == 0:
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	if num.IsFloat[T]() && (lo == 0 || hi == 0) {
		lo, hi = zeroTies(lo, hi, firstZero(x, bits, off))
	}
	return lo, hi, valid
}

// settled says whether settleSummary would return lo, hi and valid as
// they are: no NaN, some valid element, no zero extreme. Small enough to
// inline, so that a caller's common case costs no call.
func settled[T num.Number](lo, hi T, valid int, nan bool) bool {
	return !nan && valid != 0 && lo != 0 && hi != 0
}

// zeroTies gives an extreme that compares equal to zero the bits of z,
// the first participating zero: among ±0 the reference keeps the first in
// index order (ADR-103), where vector min and max, and the builtins, may
// return either.
func zeroTies[T num.Number](lo, hi, z T) (T, T) {
	if lo == 0 {
		lo = z
	}
	if hi == 0 {
		hi = z
	}
	return lo, hi
}

// firstZero returns the first valid element of x that equals zero (+0.0
// or -0.0); the caller knows there is one. A float's zero is found by its
// bits, zero below the sign: one integer compare and one branch an
// element, where a float compare branches on its parity flag too (bench's
// H497). Integers have one zero.
func firstZero[T num.Number](x []T, bits []byte, off int) T {
	switch num.KindOf[T]() {
	case num.Float32:
		return T(fromBits[float32](firstZeroBitsValid(num.Cast[uint32](x), bits, off)))
	case num.Float64:
		return T(fromBits[float64](firstZeroBitsValid(num.Cast[uint64](x), bits, off)))
	}
	return 0
}

// firstZeroBitsValid is firstZero's scan over the bit patterns of its
// floats; the validity bit is read only for a zero.
func firstZeroBitsValid[B uint32 | uint64](x []B, bits []byte, off int) B {
	for i, b := range x {
		if b<<1 == 0 {
			if p := off + i; bits == nil || bits[p>>3]>>(p&7)&1 != 0 {
				return b
			}
		}
	}
	return 0
}

// summaryStart is where a min and max fold in any order starts (the
// amd64 summary kernels): +Inf and -Inf for floats, the identities for
// integers.
func summaryStart[T num.Number]() (top, bottom T) {
	top, bottom = num.MaxOf[T](), num.LowestOf[T]()
	if num.IsFloat[T]() {
		top *= 2 // overflows to +Inf
		bottom *= 2
	}
	return top, bottom
}

// CountSmall counts the set bits among bits off..off+n-1 of a bitmap
// span (off < 8), n < 64.
func CountSmall(bits []byte, off, n int) int {
	return mbits.OnesCount64(spanWord(bits, off, n))
}
