//go:build amd64 && !purego

package kernel

import (
	mathbits "math/bits"
	"unsafe"

	"github.com/quiverlabs/quiver/internal/num"
)

// sizeOf is the size of T in bytes.
func sizeOf[T num.Number]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// summaryAsm names one element type's generated summary kernels for one
// instruction set (see internal/asm/amd64/summary for what they do):
// the fused ones, or with want WantMin or WantMax the min-only or
// max-only ones, which return the extreme they do not compute as its
// start, -Inf or +Inf. Its methods call them directly (asmcall_amd64.go).
type summaryAsm[T num.Number] struct {
	isa  ISA
	want Extremes
	// lanes is the vector width in elements.
	lanes int
	// tailInAsm: the kernels finish any length with a masked vector
	// (AVX-512); otherwise the masked kernels take whole steps of
	// max(lanes, 8) elements and Go finishes the rest, and the dense ones
	// take any length from one step on (denseSpan).
	tailInAsm bool
}

// denseSpan is how many of the first n elements of a dense column k's
// dense kernel takes; Go folds the rest. The AVX2 dense kernels read the
// last step of the column overlapping the one before it (tailOverlap in
// internal/asm/amd64/summary), which changes neither a min, a max nor
// the NaN check, so they take any length from one step on: Go folding
// the last few elements one at a time cost an AVX2 float64 Min over
// 1031 elements 19% more than over 1024 (H403 in bench/oddlen_test.go).
func (k summaryAsm[T]) denseSpan(n int) int {
	if k.tailInAsm || n >= k.step() {
		return n
	}
	return 0
}

func (k summaryAsm[T]) dense(x []T) (lo, hi T, nan bool) {
	lo, hi, nan = summaryDenseAsm(k.isa, k.want, hasFMA, x)
	if nan {
		nan = k.confirmNaN(x)
	}
	return lo, hi, nan
}

// confirmNaN says whether x, over which k's dense kernel reported a NaN,
// has one. The AVX2 dense float kernels detect NaN by sentinels, which
// can also turn NaN without one (their lo and hi leave NaN out either
// way). With FMA the sentinel sums products of vector pairs, where an
// infinity times a zero alarms too, so the additions' kernel checks
// again first. Its sums alarm falsely only where +Inf meets -Inf or a
// sum overflows both ways, which the exact scan settles. The other
// kernels' reports are exact.
func (k summaryAsm[T]) confirmNaN(x []T) bool {
	if k.isa != AVX2 || !num.IsFloat[T]() {
		return true
	}
	if hasFMA {
		if _, _, nan := summaryDenseAsm(k.isa, k.want, false, x); !nan {
			return false
		}
	}
	return hasNaN(x)
}

// hasNaN says whether an element of x is NaN.
func hasNaN[T num.Number](x []T) bool {
	for _, v := range x {
		if v != v {
			return true
		}
	}
	return false
}

// runDense returns the min and max of a dense x, folded from the order's
// Extremes (±Inf for floats: see floatSummary), and whether an element
// is NaN: the dense kernel over the span it takes, Go over the rest.
func (k summaryAsm[T]) runDense(x []T) (lo, hi T, nan bool) {
	m := k.denseSpan(len(x))
	if m > 0 {
		lo, hi, nan = k.dense(x[:m])
	} else {
		lo, hi = summaryStart[T]()
	}
	for _, v := range x[m:] {
		lo, hi, nan = summaryFold(lo, hi, nan, v)
	}
	return lo, hi, nan
}

// summaryDirect is Summary on amd64 (the exported Summary is one call of
// it): a masked x (bits non-nil) on AVX2 or AVX512 runs the kernels from
// here, and the test of their result; dense input and the other ISAs go
// through the typed entries (summaryOn sends its masked inputs here). A
// bitmap offset that is not a multiple of 8 leaves h < 8 elements before
// the bitmap's next byte boundary: the kernels take them as a step of
// their own (head: their bits, and h above), the AVX-512 ones as one
// masked vector, the AVX2 ones as one step over x[0:step], which needs a
// whole step after the head; so the loops see a byte-aligned bitmap
// without a copy. Where the kernels do not take x (AVX2, fewer than a step after
// the head, or no valid element for the seeded kernels to start from),
// the generic backend's loops do (genericSummary).
//
// The path it replaces (the switch on T, the typed entry, summaryOn, the
// wrapper run and its merge with the identities) cost a masked float64
// Min of 64 elements 13-16 ns above a kernel of 7-9 (bench's
// H486-H491).
func summaryDirect[T num.Number](isa ISA, x []T, bits []byte, off int, want Extremes) (lo, hi T, valid int) {
	if bits == nil || isa != AVX2 && isa != AVX512 {
		return summaryEntries(isa, x, bits, off, want)
	}
	bits, off = bits[off>>3:], off&7 // from the offset's byte, as genericSummary
	k := summaryKernels[T](isa, len(x), bits)
	k.want = want
	st := k.step()
	h := (8 - off) & 7
	if h >= len(x) || !k.tailInAsm && len(x)-h < st {
		return genericSummary(x, bits, off, want)
	}
	body, bm, head := x[h:], bits, uint64(0)
	if h > 0 {
		head = uint64(bits[0]>>off)&(1<<h-1) | uint64(h)<<8
		bm = bits[1:]
	}
	var tail uint64
	if len(body)&(st-1) != 0 {
		_, tail = k.maskedTail(body, bm, st) // the last bits only for a partial last step
	}
	var nan bool
	if k.seeded() {
		// The AVX2 kernels of both extremes, and the float ones of one,
		// start from a valid element and blend it into the invalid
		// lanes; with none valid there is nothing to call them for.
		s, ok := firstValid(body, bm)
		if w := head & 0xff; !ok && w != 0 {
			s, ok = x[mathbits.TrailingZeros64(w)], true // only the head has one
		}
		if !ok {
			return genericSummary(x, bits, off, want)
		}
		lo, hi, valid, nan = summarySeededAsm(isa, want, hasFMA, x, bm, head, tail, s)
		if nan && hasFMA {
			// The FMA sentinel (float kernels; integer ones never
			// report a NaN) can alarm without a NaN: an infinity met a
			// zero or an infinite product of the other sign. The
			// compares' kernel says exactly.
			_, _, _, nan = summarySeededAsm(isa, want, false, x, bm, head, tail, s)
		}
	} else {
		lo, hi, valid, nan = summaryMaskedAsm(isa, want, x, bm, head, tail)
	}
	// With a valid element (and for floats no NaN and no zero extreme:
	// settled), the kernel's extremes are the result: merged with the
	// identities they would not change. The rest is settled out of line.
	if !num.IsFloat[T]() && valid != 0 || settled(lo, hi, valid, nan) {
		return lo, hi, valid
	}
	return settleMasked(x, bits, off, want, lo, hi, valid, nan)
}

// settleMasked finishes summaryDirect's kernel result lo, hi, valid and
// nan where it is not final: merged with the identities, then the NaN,
// the empty case and a zero extreme settled as settleExtremes does.
//
//go:noinline
func settleMasked[T num.Number](x []T, bits []byte, off int, want Extremes, l, h T, valid int, n bool) (lo, hi T, count int) {
	lo, hi = summaryStart[T]()
	lo, hi, nan := summaryMerge(lo, hi, false, l, h, n)
	return settleExtremes(x, bits, off, want, lo, hi, valid, nan)
}

// settleExtremes finishes a fold's min and max of the valid elements of
// x (lo, hi, their count valid, whether one is NaN) under the rules of
// ref.Summary for want. Integer extremes are final.
func settleExtremes[T num.Number](x []T, bits []byte, off int, want Extremes, lo, hi T, valid int, nan bool) (T, T, int) {
	switch {
	case !num.IsFloat[T]():
		return lo, hi, valid
	case want == WantBoth:
		if settled(lo, hi, valid, nan) {
			return lo, hi, valid
		}
		return settleSummary(x, bits, off, lo, hi, valid, nan)
	case want == WantMin:
		// A min-only (max-only) kernel returns the extreme it does not
		// compute as its start, +Inf (-Inf); settleSummary's rescues run
		// for the one extreme, passed as both lo and hi, so that the
		// other cannot trigger the zero rescan.
		lo, _, valid = settleSummary(x, bits, off, lo, lo, valid, nan)
		return lo, lo, valid
	}
	_, hi, valid = settleSummary(x, bits, off, hi, hi, valid, nan)
	return hi, hi, valid
}

// step is how many elements one step of k's kernels takes: its lanes on
// AVX-512, max(lanes, 8) on AVX2 (two vectors of 64-bit lanes, the
// elements of one bitmap byte); a power of two either way.
func (k summaryAsm[T]) step() int {
	if k.tailInAsm {
		return k.lanes
	}
	return max(k.lanes, 8)
}

// maskedTail returns how many elements of x (bits byte-aligned with it;
// len(x) not a multiple of step, k.step()) k's masked kernel
// takes, m, and the validity of its last elements that it reads from
// tail instead of bits. The elements past m, if any, are Go's to fold.
// (A multiple of the step needs no call: m = len(x), tail = 0.)
//
// The AVX-512 kernels take all of x and finish the last len(x) mod
// lanes elements with a masked vector whose mask is tail. The AVX2 ones
// take all of x from one step on: the last r = len(x) mod step elements
// run as one more step over the final step's worth of x, overlapping the
// elements before them, and tail holds their bits at the top of that
// step's bits, the overlapped lanes' bits 0 (tailMasked in
// internal/asm/amd64/summary). Either way the bits are read here byte by
// byte, so no kernel loads bits past the bitmap that is left. (The sums'
// tailBits reads them too, from any bit offset, but as a call: this loop
// over at most 4 bytes from a byte boundary keeps maskedTail inlined in
// run, and a call here cost odd masked lengths 1-3 ns.)
func (k summaryAsm[T]) maskedTail(x []T, bits []byte, step int) (m int, tail uint64) {
	if !k.tailInAsm && len(x) < step {
		return 0, 0
	}
	r := len(x) & (step - 1) // not %: a division by a variable costs a dozen cycles and more
	full := len(x) - r       // a multiple of 8: the bits of the last r start a byte
	for i := range (r + 7) / 8 {
		tail |= uint64(bits[full/8+i]) << (8 * i)
	}
	tail &= 1<<r - 1
	if !k.tailInAsm {
		tail <<= step - r
	}
	return len(x), tail
}

// seeded says whether k's masked kernel is a seeded one
// (summarySeededAsm): AVX2, both extremes, or one for floats.
func (k summaryAsm[T]) seeded() bool {
	return k.isa == AVX2 && (k.want == WantBoth || num.IsFloat[T]())
}

// firstValid returns the first element of x whose bit is set in bits
// (byte-aligned with x), and false if none is.
func firstValid[T num.Number](x []T, bits []byte) (T, bool) {
	full := len(x) / 8
	for i, b := range bits[:full] {
		if b != 0 {
			return x[8*i+mathbits.TrailingZeros8(b)], true
		}
	}
	if r := len(x) % 8; r > 0 {
		if b := bits[full] & (1<<r - 1); b != 0 {
			return x[8*full+mathbits.TrailingZeros8(b)], true
		}
	}
	var zero T
	return zero, false
}

// summaryFold folds one valid element into a partial result.
func summaryFold[T num.Number](lo, hi T, nan bool, v T) (T, T, bool) {
	if v != v {
		return lo, hi, true
	}
	return min(lo, v), max(hi, v), nan
}

// summaryMerge merges two partial results. Which of two equal zeros wins
// does not matter here: floatSummary settles it afterwards.
func summaryMerge[T num.Number](lo, hi T, nan bool, l, h T, n bool) (T, T, bool) {
	if l < lo {
		lo = l
	}
	if h > hi {
		hi = h
	}
	return lo, hi, nan || n
}

// settleDense finishes denseSummaryOn's lo and hi of x, from k's dense
// kernel, when the kernel alarmed or an extreme is a zero: the rare cases,
// out of the line of a call. A single-extreme kernel's extreme stands for
// both, so that the other, its start, cannot trigger the zero rescan.
func (k summaryAsm[T]) settleDense(x []T, lo, hi T, alarm bool) (T, T) {
	switch k.want {
	case WantMin:
		hi = lo
	case WantMax:
		lo = hi
	}
	nan := alarm && k.confirmNaN(x)
	lo, hi, _ = settleSummary(x, nil, 0, lo, hi, len(x), nan)
	return lo, hi
}
