//go:build arm64 && !purego

package quiver

import (
	"math"
	"unsafe"

	"golang.org/x/exp/constraints"
	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
)

// The kernels are generated from the Arm encodings by the commands under
// internal/asm/arm64 (directives in generate.go); run go generate
// after changing a generator.

// The arm64 backend: NEON (Advanced SIMD) kernels. It starts as a copy of
// the generic backend and replaces every kernel. The assembly handles the
// whole vector iterations; the Go around it handles what the vectors
// cannot without reading past a slice: the bitmap head up to a byte
// boundary and the tails, and the exactness rescues of min and max.
var neonBackend = register(neonBackendBuild())

func neonBackendBuild() *backend {
	b := *genericBackend
	b.name, b.priority, b.available = "neon", 20, cpu.ARM64.HasASIMD
	// ADR-013 at NEON widths: four accumulators of one 128-bit vector.
	b.policy32 = oracle.Policy{A: 4, W: 4}
	b.policy64 = oracle.Policy{A: 4, W: 2}
	b.f32 = kernelSet[float32, float32]{sum: neonSumFloat[float32], summary: neonSummaryFloat[float32]}
	b.f64 = kernelSet[float64, float64]{sum: neonSumFloat[float64], summary: neonSummaryFloat[float64]}
	b.i8 = kernelSet[int8, int64]{sum: neonSumInt[int8, int64], summary: neonSummaryInt[int8]}
	b.i16 = kernelSet[int16, int64]{sum: neonSumInt[int16, int64], summary: neonSummaryInt[int16]}
	b.i32 = kernelSet[int32, int64]{sum: neonSumInt[int32, int64], summary: neonSummaryInt[int32]}
	b.i64 = kernelSet[int64, int64]{sum: neonSumInt[int64, int64], summary: neonSummaryInt[int64]}
	b.u8 = kernelSet[uint8, uint64]{sum: neonSumInt[uint8, uint64], summary: neonSummaryInt[uint8]}
	b.u16 = kernelSet[uint16, uint64]{sum: neonSumInt[uint16, uint64], summary: neonSummaryInt[uint16]}
	b.u32 = kernelSet[uint32, uint64]{sum: neonSumInt[uint32, uint64], summary: neonSummaryInt[uint32]}
	b.u64 = kernelSet[uint64, uint64]{sum: neonSumInt[uint64, uint64], summary: neonSummaryInt[uint64]}
	b.checkedI64 = neonCheckedI64
	b.checkedU64 = neonCheckedU64
	b.countValid = neonCountValid
	return &b
}

// bitAt reports whether bit p of bm is set.
func bitAt(bm []byte, p int) bool { return bm[p>>3]>>(p&7)&1 != 0 }

// vectorLanes is the number of T in a 128-bit vector.
func vectorLanes[T num.Number]() int {
	var zero T
	return 16 / int(unsafe.Sizeof(zero))
}

// neonSumFloat is the ADR-013 sum with A=4 accumulators of W=16/size
// lanes. The assembly adds whole blocks into accumulators held in memory;
// Go adds the blocks whose bitmap load would run past the bitmap's end,
// combines, folds and adds the tail, in exactly the oracle's order.
func neonSumFloat[T float32 | float64](x []T, bits []byte, off int) T {
	w := vectorLanes[T]()
	block := 4 * w
	full := len(x) / block
	var acc [16]T // +0.0; 4*w of them used
	switch {
	case full == 0:
	case bits == nil:
		kernelSumFloat(x, full, acc[:])
	default:
		// Block k reads 2*step bytes from byte k*step of bm, step being
		// the block's own bytes: the extra byte holds the bits that the
		// shift brings in. Only blocks whose load ends inside the bitmap
		// run in assembly.
		bm := bits[off>>3:]
		step := block / 8
		safe := 0
		if len(bm) >= 2*step {
			safe = min(full, (len(bm)-2*step)/step+1)
		}
		if safe > 0 {
			kernelSumFloatMasked(x, safe, bm, uint(off&7), acc[:])
		}
		negZero := T(math.Copysign(0, -1))
		for k := safe; k < full; k++ {
			for j := range block {
				v := negZero
				if i := k*block + j; bitAt(bits, off+i) {
					v = x[i]
				}
				acc[j] += v
			}
		}
	}
	for l := range w {
		acc[l] += acc[2*w+l]
		acc[w+l] += acc[3*w+l]
	}
	for l := range w {
		acc[l] += acc[w+l]
	}
	s := T(0)
	for l := range w {
		s += acc[l]
	}
	for i := full * block; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			s += x[i]
		}
	}
	return s
}

// alignHead is how many leading elements to handle in Go so that the
// bitmap position of the rest starts a byte (order-independent kernels
// only: float sums keep their blocks anchored at element 0).
func alignHead(n, off int) int { return min(n, (8-off&7)&7) }

// neonSumInt is the wrapping sum: an aligned bitmap head in Go, whole
// 64-byte iterations in assembly, the tail in Go. Wrapping addition is
// associative, so the split does not change the result.
func neonSumInt[T constraints.Integer, S int64 | uint64](x []T, bits []byte, off int) S {
	per := 4 * vectorLanes[T]()
	var s S
	i := 0
	if bits != nil {
		for ; i < alignHead(len(x), off); i++ {
			if bitAt(bits, off+i) {
				s += S(x[i])
			}
		}
	}
	if it := (len(x) - i) / per; it > 0 {
		s += S(kernelSumInt(x[i:], it, bits, (off+i)>>3))
		i += it * per
	}
	for ; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			s += S(x[i])
		}
	}
	return s
}

// neonSummaryInt is the integer min and max: head and tail in Go, whole
// iterations in assembly, lanes folded in Go. Integer min and max are
// exact in any order and the identities never win, so nothing needs
// rescuing; with no valid element the identities come out by themselves.
func neonSummaryInt[T constraints.Integer](x []T, bits []byte, off int) (lo, hi T, valid int) {
	lanes := vectorLanes[T]()
	per := 4 * lanes
	lo, hi = num.MaxOf[T](), num.LowestOf[T]()
	i := 0
	if bits != nil {
		for ; i < alignHead(len(x), off); i++ {
			if bitAt(bits, off+i) {
				lo, hi = min(lo, x[i]), max(hi, x[i])
			}
		}
	}
	if it := (len(x) - i) / per; it > 0 {
		var out [32]T
		kernelSummary(x[i:], it, bits, (off+i)>>3, out[:])
		for l := range lanes {
			lo, hi = min(lo, out[l]), max(hi, out[lanes+l])
		}
		i += it * per
	}
	for ; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			lo, hi = min(lo, x[i]), max(hi, x[i])
		}
	}
	valid = len(x)
	if bits != nil {
		valid = neonCountValid(bits, off, len(x))
	}
	return lo, hi, valid
}

// neonSummaryFloat is the float min and max. The kernels use FMIN and
// FMAX, which differ from the reference's strict compares in two ways that
// the Go here rescues: a NaN operand makes the lane NaN (the reference
// answers the canonical NaN for both results whenever a NaN participates,
// so any NaN result becomes that), and FMIN(+0, -0) is -0 where the
// reference keeps the first of equal values (a result equal to zero is
// replaced by the first participating zero, found by a rescan). Every
// other value equal to the minimum has the same bits, so no other tie is
// visible.
func neonSummaryFloat[T float32 | float64](x []T, bits []byte, off int) (lo, hi T, valid int) {
	lanes := vectorLanes[T]()
	per := 4 * lanes
	lo, hi = T(math.Inf(1)), T(math.Inf(-1))
	nan := false
	take := func(v T) {
		switch {
		case v != v:
			nan = true
		default:
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	i := 0
	if bits != nil {
		for ; i < alignHead(len(x), off); i++ {
			if bitAt(bits, off+i) {
				take(x[i])
			}
		}
	}
	if it := (len(x) - i) / per; it > 0 {
		var out [32]T
		kernelSummary(x[i:], it, bits, (off+i)>>3, out[:])
		// Identity lanes (±Inf) may only meet their own fold: a min lane
		// left at +Inf must not reach the max.
		for l := range lanes {
			vlo, vhi := out[l], out[lanes+l]
			nan = nan || vlo != vlo || vhi != vhi
			if vlo < lo {
				lo = vlo
			}
			if vhi > hi {
				hi = vhi
			}
		}
		i += it * per
	}
	for ; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			take(x[i])
		}
	}
	valid = len(x)
	if bits != nil {
		valid = neonCountValid(bits, off, len(x))
	}
	return settleFloatSummary(x, bits, off, lo, hi, valid, nan)
}

// neonCountValid counts set bits: the head up to a byte boundary in Go,
// whole 64-byte blocks with CNT, the rest with the generic word loop.
func neonCountValid(bm []byte, off, n int) int {
	head := alignHead(n, off) // bits before the first whole byte
	c := genericCountValid(bm, off, head)
	p, end := off+head, off+n
	for blocks := (end - p) / 512; blocks > 0; {
		k := min(blocks, maxCountBlocks)
		c += countBits(&bm[p>>3], k)
		p += 512 * k
		blocks -= k
	}
	return c + genericCountValid(bm, p, end-p)
}

// Per-call limits of the kernels whose lanes would otherwise wrap on
// enormous inputs; variables only so that a test can lower them.
var (
	// maxCountBlocks: countBits' 32-bit lanes gain at most 128 per block.
	maxCountBlocks = 1 << 24
	// maxSplitIters: each 64-bit lane of the split kernels gains at most
	// two 32-bit halves (below 2^33) per iteration.
	maxSplitIters = 1 << 26
)

// neonCheckedI64 sums exactly in 128 bits: the kernel sums the unsigned
// low halves and the signed high halves of the elements separately in
// 64-bit lanes, where neither can wrap, and Go combines them as
// high*2^32 + low.
func neonCheckedI64(x []int64, bits []byte, off int) (int64, bool) {
	var sum num.Int128
	addOne := func(v int64) { sum = sum.AddInt64(v) }
	i := 0
	if bits != nil {
		for ; i < alignHead(len(x), off); i++ {
			if bitAt(bits, off+i) {
				addOne(x[i])
			}
		}
	}
	for it := (len(x) - i) / 8; it > 0; {
		k := min(it, maxSplitIters)
		var out [4]uint64
		if bits == nil {
			splitI64(&x[i], k, &out)
		} else {
			splitI64Masked(&x[i], k, &bits[(off+i)>>3], &out)
		}
		h := int64(out[2]) + int64(out[3]) // sum of high halves, exact
		sum = sum.Add(h>>32, uint64(h)<<32).AddUint64(out[0] + out[1])
		i += 8 * k
		it -= k
	}
	for ; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			addOne(x[i])
		}
	}
	return int64(sum.Lo), !sum.FitsInt64()
}

// neonCheckedU64 is neonCheckedI64 for unsigned elements: both halves
// unsigned, overflow iff the high word of the 128-bit sum is not zero.
func neonCheckedU64(x []uint64, bits []byte, off int) (uint64, bool) {
	var sum num.Int128
	i := 0
	if bits != nil {
		for ; i < alignHead(len(x), off); i++ {
			if bitAt(bits, off+i) {
				sum = sum.AddUint64(x[i])
			}
		}
	}
	for it := (len(x) - i) / 8; it > 0; {
		k := min(it, maxSplitIters)
		var out [4]uint64
		if bits == nil {
			splitU64(&x[i], k, &out)
		} else {
			splitU64Masked(&x[i], k, &bits[(off+i)>>3], &out)
		}
		h := out[2] + out[3]
		sum = sum.Add(int64(h>>32), h<<32).AddUint64(out[0] + out[1])
		i += 8 * k
		it -= k
	}
	for ; i < len(x); i++ {
		if bits == nil || bitAt(bits, off+i) {
			sum = sum.AddUint64(x[i])
		}
	}
	return sum.Lo, !sum.FitsUint64()
}

// The kernel calls. The generic code above reaches the assembly through
// these switches on the machine type rather than through function values,
// so that the compiler sees direct calls to the //go:noescape declarations
// and keeps the inputs and the accumulator arrays off the heap.

// kernelSumFloat runs the dense float sum kernel of T on blocks blocks.
func kernelSumFloat[T float32 | float64](x []T, blocks int, acc []T) {
	if num.KindOf[T]() == num.Float32 {
		sumF32(&num.Cast[float32](x)[0], blocks, &num.Cast[float32](acc)[0])
		return
	}
	sumF64(&num.Cast[float64](x)[0], blocks, &num.Cast[float64](acc)[0])
}

// kernelSumFloatMasked runs the masked float sum kernel of T.
func kernelSumFloatMasked[T float32 | float64](x []T, blocks int, bm []byte, shift uint, acc []T) {
	if num.KindOf[T]() == num.Float32 {
		sumF32Masked(&num.Cast[float32](x)[0], blocks, &bm[0], shift, &num.Cast[float32](acc)[0])
		return
	}
	sumF64Masked(&num.Cast[float64](x)[0], blocks, &bm[0], shift, &num.Cast[float64](acc)[0])
}

// kernelSumInt runs T's wrapping sum kernel, dense when bits is nil, else
// with the bitmap from byte b. The result is the sum's bits in either sum
// type.
func kernelSumInt[T constraints.Integer](x []T, iters int, bits []byte, b int) uint64 {
	if bits == nil {
		switch num.KindOf[T]() {
		case num.Int8:
			return uint64(sumI8(&num.Cast[int8](x)[0], iters))
		case num.Int16:
			return uint64(sumI16(&num.Cast[int16](x)[0], iters))
		case num.Int32:
			return uint64(sumI32(&num.Cast[int32](x)[0], iters))
		case num.Int64:
			return uint64(sumI64(&num.Cast[int64](x)[0], iters))
		case num.Uint8:
			return sumU8(&num.Cast[uint8](x)[0], iters)
		case num.Uint16:
			return sumU16(&num.Cast[uint16](x)[0], iters)
		case num.Uint32:
			return sumU32(&num.Cast[uint32](x)[0], iters)
		}
		return sumU64(&num.Cast[uint64](x)[0], iters)
	}
	bm := &bits[b]
	switch num.KindOf[T]() {
	case num.Int8:
		return uint64(sumI8Masked(&num.Cast[int8](x)[0], iters, bm))
	case num.Int16:
		return uint64(sumI16Masked(&num.Cast[int16](x)[0], iters, bm))
	case num.Int32:
		return uint64(sumI32Masked(&num.Cast[int32](x)[0], iters, bm))
	case num.Int64:
		return uint64(sumI64Masked(&num.Cast[int64](x)[0], iters, bm))
	case num.Uint8:
		return sumU8Masked(&num.Cast[uint8](x)[0], iters, bm)
	case num.Uint16:
		return sumU16Masked(&num.Cast[uint16](x)[0], iters, bm)
	case num.Uint32:
		return sumU32Masked(&num.Cast[uint32](x)[0], iters, bm)
	}
	return sumU64Masked(&num.Cast[uint64](x)[0], iters, bm)
}

// kernelSummary runs T's min/max kernel into out, dense when bits is nil,
// else with the bitmap from byte b.
func kernelSummary[T num.Number](x []T, iters int, bits []byte, b int, out []T) {
	if bits == nil {
		switch num.KindOf[T]() {
		case num.Int8:
			summaryI8(&num.Cast[int8](x)[0], iters, &num.Cast[int8](out)[0])
		case num.Int16:
			summaryI16(&num.Cast[int16](x)[0], iters, &num.Cast[int16](out)[0])
		case num.Int32:
			summaryI32(&num.Cast[int32](x)[0], iters, &num.Cast[int32](out)[0])
		case num.Int64:
			summaryI64(&num.Cast[int64](x)[0], iters, &num.Cast[int64](out)[0])
		case num.Uint8:
			summaryU8(&num.Cast[uint8](x)[0], iters, &num.Cast[uint8](out)[0])
		case num.Uint16:
			summaryU16(&num.Cast[uint16](x)[0], iters, &num.Cast[uint16](out)[0])
		case num.Uint32:
			summaryU32(&num.Cast[uint32](x)[0], iters, &num.Cast[uint32](out)[0])
		case num.Uint64:
			summaryU64(&num.Cast[uint64](x)[0], iters, &num.Cast[uint64](out)[0])
		case num.Float32:
			summaryF32(&num.Cast[float32](x)[0], iters, &num.Cast[float32](out)[0])
		default:
			summaryF64(&num.Cast[float64](x)[0], iters, &num.Cast[float64](out)[0])
		}
		return
	}
	bm := &bits[b]
	switch num.KindOf[T]() {
	case num.Int8:
		summaryI8Masked(&num.Cast[int8](x)[0], iters, bm, &num.Cast[int8](out)[0])
	case num.Int16:
		summaryI16Masked(&num.Cast[int16](x)[0], iters, bm, &num.Cast[int16](out)[0])
	case num.Int32:
		summaryI32Masked(&num.Cast[int32](x)[0], iters, bm, &num.Cast[int32](out)[0])
	case num.Int64:
		summaryI64Masked(&num.Cast[int64](x)[0], iters, bm, &num.Cast[int64](out)[0])
	case num.Uint8:
		summaryU8Masked(&num.Cast[uint8](x)[0], iters, bm, &num.Cast[uint8](out)[0])
	case num.Uint16:
		summaryU16Masked(&num.Cast[uint16](x)[0], iters, bm, &num.Cast[uint16](out)[0])
	case num.Uint32:
		summaryU32Masked(&num.Cast[uint32](x)[0], iters, bm, &num.Cast[uint32](out)[0])
	case num.Uint64:
		summaryU64Masked(&num.Cast[uint64](x)[0], iters, bm, &num.Cast[uint64](out)[0])
	case num.Float32:
		summaryF32Masked(&num.Cast[float32](x)[0], iters, bm, &num.Cast[float32](out)[0])
	default:
		summaryF64Masked(&num.Cast[float64](x)[0], iters, bm, &num.Cast[float64](out)[0])
	}
}
