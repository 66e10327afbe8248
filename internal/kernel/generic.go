package kernel

import (
	"encoding/binary"
	mbits "math/bits"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// The generic ISA is portable Go that every platform can run. It keeps
// the reference's float sums exactly (strict, A=1) and uses independent
// accumulators only where the result cannot depend on the order: wrapping
// integer sums, integer min/max, and float min/max, whose only
// order-dependent outcomes (NaN payloads, which of ±0) are settled
// afterwards exactly as the reference settles them. It is what a CPU
// without the SIMD ISAs runs, and the baseline the SIMD ISAs are measured
// against beside the scalar one.

// genericSumInt wraps four independent sums on dense input and adds masked
// elements branch-free (value AND all-ones-or-zero).
func genericSumInt[T constraints.Integer, S int64 | uint64](x []T, bits []byte, off int) S {
	var zero T
	if bits == nil {
		if unsafe.Sizeof(zero) == 1 {
			return sumBytes[T, S](x)
		}
		return SumInts[T, S](x)
	}
	// One word of validity per 64 elements, element i's bit at off+i of
	// the span (so chunk i/64 starts at byte i/8 with the same offset
	// below 8), and the short path's two sums under it. A loop that
	// loaded, shifted and masked each element's bit into one sum ran at
	// 0.75 or 1.2 ns an element with where it fell in the binary (H414
	// in bench/oddlen_test.go).
	var s S
	bits, off = bits[off>>3:], off&7
	for i := 0; i < len(x); i += 64 {
		n := min(64, len(x)-i)
		if unsafe.Sizeof(zero) <= 2 {
			s += SumPackedWord[T, S](x[i:i+n], ValidWord(bits[i>>3:], off, n))
			continue
		}
		s += SumIntsWord[T, S](x[i:i+n], ValidWord(bits[i>>3:], off, n))
	}
	return s
}

// sumBytes is the wrapping sum of the 8-bit elements of x, eight a step as
// one little-endian word, in the 16-bit lanes of SumPackedWord without
// its mask: a round of at most 128 words (128 x 2 x 255 < 2^16 in a lane),
// whose lanes are then added in two 32-bit halves (their total reaches
// 2^18). A signed T's top bits are flipped, as there, and 128 for each
// element of the steps taken off at the end; the last elements are added
// one at a time. Four words a step under one bounds check, into two sums
// of lanes: 0.44-0.57x the time of SumInts' four sums of one element an
// add, where one word a step took 0.61-0.69x (H521 in
// bench/bytesums_test.go).
func sumBytes[T num.Number, S int64 | uint64](x []T) S {
	var zero T
	var flip uint64
	if zero-1 < zero { // signed
		flip = 0x80 * byteOnes
	}
	b := num.Cast[uint8](x)
	var s S
	for len(b) >= 8 {
		round := b[:min(len(b)/8, 128)*8]
		b = b[len(round):]
		var lanes, lanes2 uint64
		for len(round) >= 32 {
			q := round[:32:32]
			v0 := binary.LittleEndian.Uint64(q) ^ flip
			v1 := binary.LittleEndian.Uint64(q[8:]) ^ flip
			v2 := binary.LittleEndian.Uint64(q[16:]) ^ flip
			v3 := binary.LittleEndian.Uint64(q[24:]) ^ flip
			lanes += v0&evenBytes + v0>>8&evenBytes + v1&evenBytes + v1>>8&evenBytes
			lanes2 += v2&evenBytes + v2>>8&evenBytes + v3&evenBytes + v3>>8&evenBytes
			round = round[32:]
		}
		for len(round) >= 8 {
			v := binary.LittleEndian.Uint64(round) ^ flip
			lanes += v&evenBytes + v>>8&evenBytes
			round = round[8:]
		}
		lanes += lanes2
		pairs := lanes&0x0000FFFF0000FFFF + lanes>>16&0x0000FFFF0000FFFF // two 32-bit lanes
		s += S(pairs&0xFFFFFFFF + pairs>>32)
	}
	if flip != 0 {
		s -= S(len(x)-len(b)) << 7
	}
	for _, v := range x[len(x)-len(b):] {
		s += S(v)
	}
	return s
}

// genericSumFloat is the generic ISA's float sum under a bitmap (dense,
// portableSumFloat runs the scalar reference's loop): the strict fold of
// the valid elements of x from +0.0 in index order (A=1, W=1). A null
// element adds +0.0
// instead of being skipped: x + (+0.0) is x for every x but -0.0 (the
// infinities and NaN included; a NaN's payload is not specified), and a
// fold from +0.0 never holds -0.0 (in round-to-nearest a sum is -0.0
// only when both addends are), so the fold is the same. A null's +0.0 is
// its bits ANDed with a mask of its validity bit, from one validity word
// per 64 elements (addWordBits), instead of a branch per element that a
// random bitmap mispredicts.
func genericSumFloat[F float32 | float64, B uint32 | uint64](x []F, bits []byte, off int) F {
	u := num.Cast[B](x)
	bits, off = bits[off>>3:], off&7
	var s F
	for i := 0; i < len(u); i += 64 {
		k := min(64, len(u)-i)
		s = addWordBits(s, u[i:i+k], ValidWord(bits[i>>3:], off, k))
	}
	return s
}

// addWordBits adds to s, in index order, the elements of c (at most 64,
// the bits of F's) whose bit in w is set, and +0.0 for the others (see
// genericSumFloat). Out of line, a call per 64 elements, like the
// masked extremes' folds.
func addWordBits[F float32 | float64, B uint32 | uint64](s F, c []B, w uint64) F {
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4]
		p, q, r, t := y[0]&-B(w&1), y[1]&-B(w>>1&1), y[2]&-B(w>>2&1), y[3]&-B(w>>3&1)
		w >>= 4
		s += fromBits[F](p)
		s += fromBits[F](q)
		s += fromBits[F](r)
		s += fromBits[F](t)
	}
	for ; j < len(c); j++ { // the last 1 to 3
		s += fromBits[F](c[j] & -B(w&1))
		w >>= 1
	}
	return s
}

// genericSummary is the generic ISA's min, max and count of the valid
// elements of x; with WantMin or WantMax only that extreme is
// meaningful. Dense, it is the short loops at every length: FloatExtremes'
// strict chains for floats, IntMinMax's chains of conditional moves for
// integers (8- and 16-bit elements compared in int32). Four min/max pairs
// took 2.4 times as long for int64 at 4096 (eight accumulators left the
// loop index in memory) and 6 times for uint8 (byte min and max are
// branches; bench's H384-H387). Under a bitmap it is maskedFloatExtremes
// or maskedIntExtremes, one validity word per 64 elements.
func genericSummary[T num.Number](x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if len(x) == 0 {
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	if bits == nil {
		if num.IsFloat[T]() {
			return FloatExtremes(x, want)
		}
		lo, hi = IntMinMax(x)
		return lo, hi, len(x)
	}
	bits, off = bits[off>>3:], off&7
	first := firstValidIndex(bits, off, len(x))
	if first < 0 {
		return num.MaxOf[T](), num.LowestOf[T](), 0
	}
	var zero T
	var nan bool
	switch k := num.KindOf[T](); {
	case k == num.Float32:
		l, h, v, n := maskedFloatExtremes[float32, uint32](num.Cast[float32](x), bits, off, first, want)
		lo, hi, valid, nan = T(l), T(h), v, n
	case k == num.Float64:
		l, h, v, n := maskedFloatExtremes[float64, uint64](num.Cast[float64](x), bits, off, first, want)
		lo, hi, valid, nan = T(l), T(h), v, n
	case unsafe.Sizeof(zero) < 4 || k == num.Int32:
		l, h, v := maskedIntExtremes[T, int32](x, bits, off, first, want)
		return T(l), T(h), v
	case k == num.Uint32:
		l, h, v := maskedIntExtremes[T, uint32](x, bits, off, first, want)
		return T(l), T(h), v
	case k == num.Int64:
		l, h, v := maskedIntExtremes[T, int64](x, bits, off, first, want)
		return T(l), T(h), v
	default:
		l, h, v := maskedIntExtremes[T, uint64](x, bits, off, first, want)
		return T(l), T(h), v
	}
	switch want { // the other extreme is meaningless: keep it out of the zero test
	case WantMin:
		hi = lo
	case WantMax:
		lo = hi
	}
	return settleSummary(x, bits, off, lo, hi, valid, nan)
}

// firstValidIndex is the index of the first valid element of n under a
// validated bitmap span whose first byte holds element 0's bit at
// position off < 8, or -1 if none is.
func firstValidIndex(bits []byte, off, n int) int {
	for i := 0; i < n; i += 64 {
		k := min(64, n-i)
		if w := spanWord(bits[i>>3:], off, k); w != 0 {
			return i + mbits.TrailingZeros64(w)
		}
	}
	return -1
}

// maskedFloatExtremes folds the valid elements of a float x into the
// extremes want asks for, from x[first], its first valid element (the
// bitmap span as firstValidIndex's), and counts them; nan reports a valid
// NaN. It reads one validity word per 64 elements, and foldMinWord,
// foldMaxWord or foldBothWord folds them. The loop it replaces branched
// on each bit and kept four min/max pairs in memory: 0.36-0.9 of the
// plain masked loop's speed, where this one runs 1.1-7.6 times it
// (bench's H437-H450).
func maskedFloatExtremes[F float32 | float64, B uint32 | uint64](x []F, bits []byte, off, first int, want Extremes) (lo, hi F, valid int, nan bool) {
	u := num.Cast[B](x)
	ch := chains[F]{lo: x[first], lo1: x[first], hi: x[first], hi1: x[first], nan: x[first] != x[first]}
	for i := first &^ 63; i < len(u); i += 64 {
		k := min(64, len(u)-i)
		w := spanWord(bits[i>>3:], off, k)
		valid += mbits.OnesCount64(w)
		switch c := u[i : i+k]; want {
		case WantMin:
			ch = foldMinWord(ch, c, w, u[first])
		case WantMax:
			ch = foldMaxWord(ch, c, w, u[first])
		default:
			ch = foldBothWord(ch, c, w, u[first])
		}
	}
	lo, hi = joinChains(ch.lo, ch.lo1, ch.hi, ch.hi1)
	return lo, hi, valid, ch.nan
}

// chains is the running state of a masked fold: two chains per extreme
// and, for floats, whether a valid element was NaN.
type chains[T num.Number] struct {
	lo, lo1, hi, hi1 T
	nan              bool
}

// foldMinWord, foldMaxWord and foldBothWord fold into ch the elements of
// c (at most 64, the bits of F's) whose bit in w is set, the extremes
// want asks for in two chains each: a null element takes the bits b0 of
// the fold's first element (pick4), a value already folded that the
// strict comparisons of lower and higher never take again, so
// that no branch depends on the bitmap. Those comparisons branch only on
// a new extreme. Out of line, a call per 64 elements, one function per
// want, so that the chains stay in registers: inlined into the word loop,
// or in one function with a loop per want, some were kept on the stack.
func foldMinWord[F float32 | float64, B uint32 | uint64](ch chains[F], c []B, w uint64, b0 B) chains[F] {
	lo, lo1, nan := ch.lo, ch.lo1, ch.nan
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4] // one bounds check for the four
		p, q, r, s := pick4(w, y[0], y[1], y[2], y[3], b0)
		w >>= 4
		lo, nan = lower(lo, fromBits[F](p), nan)
		lo1, nan = lower(lo1, fromBits[F](q), nan)
		lo, nan = lower(lo, fromBits[F](r), nan)
		lo1, nan = lower(lo1, fromBits[F](s), nan)
	}
	for ; j < len(c); j++ { // the last 1 to 3
		if w&1 != 0 {
			lo, nan = lower(lo, fromBits[F](c[j]), nan)
		}
		w >>= 1
	}
	ch.lo, ch.lo1, ch.nan = lo, lo1, nan
	return ch
}

func foldMaxWord[F float32 | float64, B uint32 | uint64](ch chains[F], c []B, w uint64, b0 B) chains[F] {
	hi, hi1, nan := ch.hi, ch.hi1, ch.nan
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4] // one bounds check for the four
		p, q, r, s := pick4(w, y[0], y[1], y[2], y[3], b0)
		w >>= 4
		hi, nan = higher(hi, fromBits[F](p), nan)
		hi1, nan = higher(hi1, fromBits[F](q), nan)
		hi, nan = higher(hi, fromBits[F](r), nan)
		hi1, nan = higher(hi1, fromBits[F](s), nan)
	}
	for ; j < len(c); j++ {
		if w&1 != 0 {
			hi, nan = higher(hi, fromBits[F](c[j]), nan)
		}
		w >>= 1
	}
	ch.hi, ch.hi1, ch.nan = hi, hi1, nan
	return ch
}

func foldBothWord[F float32 | float64, B uint32 | uint64](ch chains[F], c []B, w uint64, b0 B) chains[F] {
	lo, lo1, hi, hi1, nan := ch.lo, ch.lo1, ch.hi, ch.hi1, ch.nan
	j := 0
	for ; j+1 < len(c); j += 2 {
		y := c[j : j+2 : j+2]
		p, q := pick2(w, y[0], y[1], b0)
		w >>= 2
		v, v1 := fromBits[F](p), fromBits[F](q)
		lo, nan = lower(lo, v, nan)
		hi, nan = higher(hi, v, nan)
		lo1, nan = lower(lo1, v1, nan)
		hi1, nan = higher(hi1, v1, nan)
	}
	if j < len(c) && w&1 != 0 {
		v := fromBits[F](c[j])
		lo, nan = lower(lo, v, nan)
		hi, nan = higher(hi, v, nan)
	}
	return chains[F]{lo, lo1, hi, hi1, nan}
}

// fromBits is the float whose bit pattern is b (math.Float32frombits or
// math.Float64frombits for F's size, which B has).
func fromBits[F float32 | float64, B uint32 | uint64](b B) F {
	return *(*F)(unsafe.Pointer(&b))
}

// maskedIntExtremes is maskedFloatExtremes for integers, compared in W:
// T's machine type, or int32 for 8- and 16-bit T, whose min and max would
// be branches (amd64 has no 8-bit conditional move). Integer extremes are
// exact in any order.
func maskedIntExtremes[T num.Number, W constraints.Integer](x []T, bits []byte, off, first int, want Extremes) (lo, hi W, valid int) {
	v0 := W(x[first])
	ch := chains[W]{lo: v0, lo1: v0, hi: v0, hi1: v0}
	for i := first &^ 63; i < len(x); i += 64 {
		k := min(64, len(x)-i)
		w := spanWord(bits[i>>3:], off, k)
		valid += mbits.OnesCount64(w)
		switch c := x[i : i+k]; want {
		case WantMin:
			ch = foldIntMin(ch, c, w, v0)
		case WantMax:
			ch = foldIntMax(ch, c, w, v0)
		default:
			ch = foldIntBoth(ch, c, w, v0)
		}
	}
	return min(ch.lo, ch.lo1), max(ch.hi, ch.hi1), valid
}

// foldIntMin, foldIntMax and foldIntBoth are foldMinWord, foldMaxWord
// and foldBothWord for integers: a null element takes the fold's first
// value v0 (pick4), and the builtin min and max, conditional moves where
// Go has them, fold the two chains per extreme.
func foldIntMin[T num.Number, W constraints.Integer](ch chains[W], c []T, w uint64, v0 W) chains[W] {
	lo, lo1 := ch.lo, ch.lo1
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4]
		p, q, r, s := pick4(w, W(y[0]), W(y[1]), W(y[2]), W(y[3]), v0)
		w >>= 4
		lo, lo1 = min(lo, p, r), min(lo1, q, s)
	}
	for ; j < len(c); j++ { // the last 1 to 3
		if w&1 != 0 {
			lo = min(lo, W(c[j]))
		}
		w >>= 1
	}
	ch.lo, ch.lo1 = lo, lo1
	return ch
}

func foldIntMax[T num.Number, W constraints.Integer](ch chains[W], c []T, w uint64, v0 W) chains[W] {
	hi, hi1 := ch.hi, ch.hi1
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4]
		p, q, r, s := pick4(w, W(y[0]), W(y[1]), W(y[2]), W(y[3]), v0)
		w >>= 4
		hi, hi1 = max(hi, p, r), max(hi1, q, s)
	}
	for ; j < len(c); j++ {
		if w&1 != 0 {
			hi = max(hi, W(c[j]))
		}
		w >>= 1
	}
	ch.hi, ch.hi1 = hi, hi1
	return ch
}

func foldIntBoth[T num.Number, W constraints.Integer](ch chains[W], c []T, w uint64, v0 W) chains[W] {
	lo, lo1, hi, hi1 := ch.lo, ch.lo1, ch.hi, ch.hi1
	j := 0
	for ; j+1 < len(c); j += 2 {
		y := c[j : j+2 : j+2]
		p, q := pick2(w, W(y[0]), W(y[1]), v0)
		w >>= 2
		lo, lo1 = min(lo, p), min(lo1, q)
		hi, hi1 = max(hi, p), max(hi1, q)
	}
	if j < len(c) && w&1 != 0 {
		lo, hi = min(lo, W(c[j])), max(hi, W(c[j]))
	}
	return chains[W]{lo: lo, lo1: lo1, hi: hi, hi1: hi1}
}

// halvesWord4 adds to hi and lo the halves (see CheckedInts) of the
// elements of c (at most 64) whose bit in w is set, four an iteration:
// each element ANDed with a mask of its bit, the low half as a uint32
// conversion. checkedWord, one element at a time, took 1.5 times as long
// at 4096 (bench's H456-H458).
func halvesWord4[T int64 | uint64](c []T, w uint64, hi int64, lo uint64) (int64, uint64) {
	k := num.KindOf[T]()
	j := 0
	for ; j+3 < len(c); j += 4 {
		y := c[j : j+4 : j+4]
		a, b := uint64(y[0])&-(w&1), uint64(y[1])&-(w>>1&1)
		p, q := uint64(y[2])&-(w>>2&1), uint64(y[3])&-(w>>3&1)
		w >>= 4
		lo += uint64(uint32(a)) + uint64(uint32(b)) + uint64(uint32(p)) + uint64(uint32(q))
		hi += highHalf(T(a), k) + highHalf(T(b), k) + highHalf(T(p), k) + highHalf(T(q), k)
	}
	for ; j < len(c); j++ { // the last 1 to 3
		a := uint64(c[j]) & -(w & 1)
		w >>= 1
		lo += uint64(uint32(a))
		hi += highHalf(T(a), k)
	}
	return hi, lo
}

// genericCountValid counts set bits a word at a time: the bits before
// the first whole byte from that byte, whole 64-bit words, then the rest
// as one word. A loop over the head's and the rest's bits one at a time
// cost CountValid over 1031 elements 30% more than over 1024 (H411 in
// bench/oddlen_test.go). The words go four at a time under one bounds
// check, into two counters, so that the population counts of one step do
// not wait on each other's additions (H514 in bench/countwords_test.go).
func genericCountValid(bm []byte, off, n int) int {
	if n == 0 {
		return 0
	}
	c := 0
	p, end := off, off+n
	if h := p & 7; h != 0 { // the head: the bits before the first whole byte, one byte
		k := min(n, 8-h)
		c = mbits.OnesCount8(bm[p>>3] >> h & (1<<k - 1))
		p += k
	}
	b := p >> 3
	c2 := 0
	for ; p+256 <= end; p, b = p+256, b+32 {
		w := bm[b : b+32 : b+32]
		c += mbits.OnesCount64(binary.LittleEndian.Uint64(w)) + mbits.OnesCount64(binary.LittleEndian.Uint64(w[8:]))
		c2 += mbits.OnesCount64(binary.LittleEndian.Uint64(w[16:])) + mbits.OnesCount64(binary.LittleEndian.Uint64(w[24:]))
	}
	c += c2
	for ; p+64 <= end; p, b = p+64, b+8 {
		c += mbits.OnesCount64(binary.LittleEndian.Uint64(bm[b:]))
	}
	if r := end - p; r > 0 { // the tail: fewer than 64 bits from a byte boundary, one word
		var w uint64
		if len(bm)-b >= 8 {
			w = binary.LittleEndian.Uint64(bm[b:])
		} else {
			w = ShortBytes(bm[b : b+(r+7)>>3])
		}
		c += mbits.OnesCount64(w & (1<<r - 1))
	}
	return c
}
