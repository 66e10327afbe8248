// Package quiver provides SIMD reductions over columnar data: sums, min and
// max, a fused min/max/null-count summary, an exact overflow-checked
// integer sum and valid-bit counts. Every reduction takes a slice directly
// and, optionally, one [Mask]: an Apache Arrow validity bitmap, a
// selection vector, or both.
//
//	total := quiver.Sum(prices)                                   // dense
//	total = quiver.Sum(prices, quiver.Valid(bitmap, offset))      // nulls skipped
//	total = quiver.Sum(prices, quiver.Valid(bitmap, 0).Select(sel)) // and a selection
//
// # Semantics
//
// The scalar reference in internal/ref is the specification; every backend
// matches it bit for bit, with one documented exception, float sums:
//
//   - Integer sums wrap into a 64-bit sum type: int64 for signed elements
//     ([SumInt]), uint64 for unsigned ones ([SumUint]).
//     [SumChecked] and [SumCheckedUint] also say, exactly, whether the
//     mathematical sum fits.
//   - Float sums ([Sum]) are accumulated in the element type under ADR-013:
//     the scalar backend is the strict left fold from +0.0; SIMD backends
//     add blocks into A=4 vector accumulators of W lanes, combine them
//     (0+2),(1+3) then +, fold the lanes low to high from +0.0 and add the
//     tail in index order. Results are reproducible for a given (version,
//     backend) but differ between backends in the last bits. [ActiveBackend]
//     says which layout is in use; build with -tags purego for the strict
//     fold everywhere.
//   - [Min], [Max], [MinMax] and [Summarize]: any participating NaN gives the
//     canonical quiet NaN (0x7FF8000000000000, or 0x7FC00000 for float32;
//     not math.NaN()); among equal values the first encountered wins, which
//     is visible only for +0.0 and -0.0; with no participating value Min is
//     the largest value of T and Max the lowest (for floats ±MaxFloat).
//     Go's builtin min and max and slices.Min and slices.Max differ on all
//     three points: they propagate NaN with its payload or by position,
//     builtin min treats -0.0 as less than +0.0, and slices.Min panics on
//     an empty slice.
//
// Participation is "selected and valid". Invalid elements are never read as
// values, so they may hold anything, NaN included.
//
// # Element types
//
// Every integer type and float32/float64, including named types whose
// underlying type is one of them (type Celsius float64).
//
// # Contract violations
//
// Every input outside the contract panics, before any kernel runs, with a
// message that starts with "quiver: " and names the argument and the
// numbers:
//
//   - [Valid] with a negative offset;
//   - a bitmap too short for the elements at its offset (it needs
//     ceil((offset+n)/8) bytes; none when n is 0), or an offset so large
//     that offset+n overflows int;
//   - a selection index that is not below the number of elements;
//   - [Mask.Select] on a Mask that already has a selection;
//   - more than one Mask, or a negative n for [CountValid].
//
// Nothing outside the contract returns a value, and no reduction
// allocates (AddParallel allocates its part results and goroutines).
//
// # Batches, merges and cores
//
// Each reduction has a partial state ([SumState], [IntSumState],
// [UintSumState], [SummaryState], [CountState]): a zero-value-ready type
// whose Add takes one batch with the same optional Mask, whose Merge
// takes the state of the piece that follows, and whose result methods
// give the reduction of everything so far. Batches fed in order give the
// one-call result over their concatenation, bit for bit, float sums
// included. Integer sums are exact in 128 bits, so a stream keeps its
// exact total even past 64 bits. AddParallel reduces one large batch on
// several goroutines with the same bits for any worker count. Merged
// float sums are the left fold of the pieces' sums (ADR-104);
// [SumReproducible] and [SumReproducibleState] give the exact sum rounded
// once, the same bits for any order, cut, merge, worker count or CPU
// (ADR-105).
//
// # Backends
//
// Kernels are chosen once, at init, from the CPU's features: AVX-512 or
// AVX2 on amd64, NEON on arm64, portable Go elsewhere. [ActiveBackend]
// reports the choice, [Backends] lists what is compiled in, and the build
// tag purego forces the strict scalar reference for every operation.
package quiver

import (
	"fmt"
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"

	"golang.org/x/exp/constraints"
)

// Number is the set of element types quiver reduces: every integer and
// floating-point type, named types included.
type Number interface {
	constraints.Integer | constraints.Float
}

// Mask restricts a reduction to the elements that are both valid and
// selected. The zero Mask selects every element and treats every element
// as valid, which is also what a reduction does when no Mask is passed.
//
// Build one with [Valid], [Select] or both ([Mask.Select]); a Mask is a
// small value that borrows its slices and never copies them.
type Mask struct {
	bits   []byte
	off    int
	sel    []uint32
	hasSel bool
}

// Valid returns a Mask over an Apache Arrow validity bitmap: element i is
// valid when bit offset+i of bitmap is set, bits counted least significant
// first within each byte. A nil bitmap means every element is valid, as
// Arrow's NullBitmapBytes returns for an array without nulls, so an Arrow
// array is used without copying:
//
//	quiver.Valid(arr.NullBitmapBytes(), arr.Data().Offset())
//
// Valid panics if offset is negative. A reduction over n elements panics
// unless bitmap is nil or holds bits offset through offset+n-1, that is at
// least ceil((offset+n)/8) bytes; with n = 0 no bit is read, so any bitmap
// and any offset >= 0 will do.
func Valid(bitmap []byte, offset int) Mask {
	if offset < 0 {
		panic(fmt.Sprintf("quiver: Valid: bitmap offset %d is negative", offset))
	}
	return Mask{bits: bitmap, off: offset}
}

// Select returns a Mask that visits x[sel[0]], x[sel[1]], ... in that
// order; duplicated indices are visited once per entry. Every element is
// valid. An empty or nil sel selects nothing. A reduction over n elements
// panics if an index is n or more.
func Select(sel []uint32) Mask {
	return Mask{sel: sel, hasSel: true}
}

// Select returns m with the selection sel, as [Select] does: the result
// visits the selected elements in selection order and skips those that
// m's bitmap marks invalid. A Mask holds one selection: Select panics if m
// already has one (compose two selections into one slice first).
func (m Mask) Select(sel []uint32) Mask {
	if m.hasSel {
		panic(fmt.Sprintf("quiver: Mask.Select: the mask already has a selection of %d indices", len(m.sel)))
	}
	m.sel, m.hasSel = sel, true
	return m
}

// maskOf validates the optional Mask of a reduction over n elements and
// returns its parts: the bitmap as the span of the elements' bits (nil: all
// valid) with the bit offset in its first byte, and the selection. The
// parts come back in registers (a struct result was spilled and copied,
// which cost about 10 ns per call), and the dense case is inlined into the
// caller.
func maskOf(n int, masks []Mask) (bits []byte, off int, sel []uint32, hasSel bool) {
	if len(masks) != 0 {
		bits, off, sel, hasSel = checkMask(n, masks, true)
	}
	return
}

// maskOfInLoop is maskOf for a caller whose selection kernels check every
// index themselves, in the one loop that reads them, before it uses the
// index (the sums and the summaries: a separate pass over sel cost a
// fifth of a selected Min in Go, and the test in the loop replaces Go's
// bounds check). Such a loop panics with selectionMessage, the message
// checkSelection gives; it has no effect to undo, so the panic is as good
// as one before it started.
func maskOfInLoop(n int, masks []Mask) (bits []byte, off int, sel []uint32, hasSel bool) {
	if len(masks) != 0 {
		bits, off, sel, hasSel = checkMask(n, masks, false)
	}
	return
}

// checkMask is maskOf for one or more Masks; checkSel says whether to
// check the selection's indices too.
func checkMask(n int, masks []Mask, checkSel bool) (bits []byte, off int, sel []uint32, hasSel bool) {
	switch len(masks) {
	case 1:
	default:
		panic(fmt.Sprintf("quiver: got %d masks, want at most one", len(masks)))
	}
	m := &masks[0]
	// The bitmap must be nil or cover n elements from bit m.off (>= 0:
	// Valid is the only way to set it). The sums are formed in uint64,
	// where they cannot wrap, so no offset or length near MaxInt slips
	// through; off+n itself must be an int, so that no later index
	// arithmetic (off+i for i < n) can wrap; and end+7 is only formed once
	// end is known to be an int.
	if m.bits != nil && n != 0 {
		if end := uint64(m.off) + uint64(n); end > math.MaxInt || (end+7)/8 > uint64(len(m.bits)) {
			badBitmap(m.bits, m.off, n)
		}
	}
	if m.hasSel && checkSel {
		checkSelection(m.sel, n)
	}
	bits, off = bitSpan(m.bits, m.off, n)
	return bits, off, m.sel, m.hasSel
}

// bitSpan returns the bytes of a validated bitmap that hold bits off
// through off+n-1, with length and capacity cut to them, and the position
// of bit off in the first one (0 to 7). Every backend receives its bitmap
// in this form, so no kernel can see a byte outside the elements' bits,
// and no index arithmetic below the API works with an offset above 7. A
// nil bitmap stays nil (all valid); with n = 0 the span is empty.
func bitSpan(bits []byte, off, n int) ([]byte, int) {
	if bits == nil {
		return nil, 0
	}
	if n == 0 {
		return bits[:0:0], 0
	}
	first := off >> 3
	// off&7 + n + 7 is done in uint so that it cannot wrap for n near
	// MaxInt; checkMask has made sure the span is inside bits.
	end := first + int((uint(off&7)+uint(n)+7)>>3)
	return bits[first:end:end], off & 7
}

// badBitmap panics with the message for a bitmap checkMask rejected.
func badBitmap(bits []byte, off, n int) {
	if off < 0 { // unreachable through Valid; kept for the zero-cost guarantee
		panic(fmt.Sprintf("quiver: validity bitmap offset %d is negative", off))
	}
	if off > math.MaxInt-n {
		panic(fmt.Sprintf("quiver: validity bitmap offset %d plus %d elements overflows int", off, n))
	}
	panic(fmt.Sprintf("quiver: validity bitmap has %d bytes, need %d for %d elements at offset %d",
		len(bits), (uint64(off)+uint64(n)+7)/8, n, off))
}

// checkSelection panics unless every index of sel is below n.
func checkSelection(sel []uint32, n int) {
	kernel.CheckSelection(active.Load().isa, sel, n)
}

// shortWord is the validity word of a short call's Masks, the one check
// a short masked call makes: for n <= 64 elements and one Mask without a
// selection whose bitmap is nil or covers the elements (the rule
// checkMask enforces), it returns their validity bits, bit i for element
// i and none at n or above, and true. Anything else (no Mask, more than
// one, a selection, a bitmap checkMask rejects) gives false, and the
// caller takes its general path, which panics where it must. It calls
// nothing, so it costs a few loads and compares.
func shortWord(n int, m []Mask) (uint64, bool) {
	if len(m) != 1 || m[0].hasSel || uint(n) > 64 {
		return 0, false
	}
	all := ^uint64(0) >> (64 - uint(n)) // n = 0: none
	bits, off := m[0].bits, m[0].off
	if bits == nil || n == 0 {
		return all, true
	}
	if off > math.MaxInt-64 { // off+n near overflow: checkMask names it
		return 0, false
	}
	if (off+n-1)>>3 >= len(bits) {
		return 0, false
	}
	b := bits[off>>3:]
	if len(b) < 8 {
		// A bitmap that ends within 8 bytes, as one sized for a short
		// input does: its n bits are below bit 56. kernel.ValidWord reads such
		// a tail a byte at a time, which is what lets it inline here;
		// that loop cost CountValid 38% at n = 32 (14.2 against 10.3 ns).
		return kernel.ShortBytes(b) >> uint(off&7) & all, true
	}
	return kernel.ValidWord(b, off&7, n) & all, true
}
