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
//     ceil((offset+n)/8) bytes; none when n is 0), or an offset past the
//     bitmap's end when n is not 0;
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
	"unsafe"

	"github.com/quiverlabs/quiver/internal/kernel"

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
	// A Mask is four words on 64-bit systems, which the compiler keeps
	// in registers: a larger one, passed as the variadic argument, was
	// built in a temporary with 8-byte stores and copied into the argument
	// array with 16-byte loads that the CPU cannot forward from those
	// stores, 6-7 ns a masked call (bench/maskcost_test.go). So the
	// slices are held as a pointer and a length each (unsafe.SliceData and
	// unsafe.Slice turn them back), and the bitmap's offset is folded in.
	// (On 32-bit systems room's int64 makes it five words.)

	// bits is nil for no bitmap (every element valid); else it points at
	// the bitmap's byte that holds bit offset, or at the bitmap's start
	// when offset is past its end.
	bits *byte
	// room is the number of bits from offset to the bitmap's end,
	// 8*len(bitmap) - offset, when that is not negative (the bit offset
	// within *bits is then -room mod 8); when offset is past the end it is
	// -1 - offset.
	room int64
	// sel points at the selection's first index, or at noIndex for an
	// empty one; nil means no selection.
	sel  *uint32
	nsel int
}

// noIndex is what an empty selection points at, so that it is told from
// no selection.
var noIndex [1]uint32

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
		negativeOffset(offset)
	}
	// 8*len cannot overflow an int64: no slice holds 2^60 bytes. A nil
	// bitmap gives a nil pointer (every element valid), whatever room is.
	room := 8*int64(len(bitmap)) - int64(offset)
	if room < 0 { // the offset is past the end: keep it for the message
		room = -1 - int64(offset)
	}
	return Mask{bits: unsafe.SliceData(bitmap[min(offset>>3, len(bitmap)):]), room: room}
}

// negativeOffset panics for Valid's negative offset, out of line to keep
// Valid small. (The call still puts Valid over the inliner's budget; it
// returns its Mask in registers, about 3 ns a call on a Zen 5.)
//
//go:noinline
func negativeOffset(offset int) {
	panic(fmt.Sprintf("quiver: Valid: bitmap offset %d is negative", offset))
}

// Select returns a Mask that visits x[sel[0]], x[sel[1]], ... in that
// order; duplicated indices are visited once per entry. Every element is
// valid. An empty or nil sel selects nothing. A reduction over n elements
// panics if an index is n or more.
func Select(sel []uint32) Mask {
	p, n := selOf(sel)
	return Mask{sel: p, nsel: n}
}

// selOf returns the pointer and length a Mask holds for the selection
// sel: its first index, or noIndex for an empty one.
func selOf(sel []uint32) (*uint32, int) {
	if len(sel) == 0 {
		return &noIndex[0], 0
	}
	return unsafe.SliceData(sel), len(sel)
}

// bitmap returns m's bitmap from the byte that holds the offset's bit to
// its end, and that bit's position in the byte (0 to 7). m must have a
// bitmap whose offset is not past its end (room >= 0).
func (m *Mask) bitmap() ([]byte, int) {
	off := int(-m.room) & 7
	return unsafe.Slice(m.bits, (m.room+int64(off))>>3), off
}

// selection returns m's selection and whether it has one.
func (m *Mask) selection() ([]uint32, bool) {
	if m.sel == nil {
		return nil, false
	}
	return unsafe.Slice(m.sel, m.nsel), true
}

// Select returns m with the selection sel, as [Select] does: the result
// visits the selected elements in selection order and skips those that
// m's bitmap marks invalid. A Mask holds one selection: Select panics if m
// already has one (compose two selections into one slice first).
func (m Mask) Select(sel []uint32) Mask {
	if m.sel != nil {
		panic(fmt.Sprintf("quiver: Mask.Select: the mask already has a selection of %d indices", m.nsel))
	}
	m.sel, m.nsel = selOf(sel)
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
	// The bitmap must be nil or cover n elements from its offset: room,
	// the bits from the offset to its end, at least n (an offset past the
	// end has a negative room). No sum is formed, so nothing can wrap,
	// and a span that passes holds at most the bitmap's bytes from the
	// offset's on.
	if m.bits != nil && n != 0 && m.room < int64(n) {
		badBitmap(m.room, n)
	}
	sel, hasSel = m.selection()
	if hasSel && checkSel {
		checkSelection(sel, n)
	}
	bits, off = maskSpan(m, n)
	return bits, off, sel, hasSel
}

// maskSpan returns the bytes of m's bitmap, validated for n elements, that
// hold the elements' bits, with length and capacity cut to them, and the
// position of the first element's bit in the first one (0 to 7). Every
// backend receives its bitmap in this form, so no kernel can see a byte
// outside the elements' bits, and no index arithmetic below the API works
// with an offset above 7. No bitmap gives nil (all valid); with n = 0 the
// span is empty.
func maskSpan(m *Mask, n int) ([]byte, int) {
	if m.bits == nil {
		return nil, 0
	}
	if n == 0 {
		return unsafe.Slice(m.bits, 0), 0
	}
	b, off := m.bitmap()
	// off + n + 7 is done in uint so that it cannot wrap for n near
	// MaxInt; n <= room (checkMask) keeps the span inside b.
	end := int((uint(off) + uint(n) + 7) >> 3)
	return b[:end:end], off
}

// bitSpan returns the bytes of a validated bitmap that hold bits off
// through off+n-1, with length and capacity cut to them, and the position
// of bit off in the first one (0 to 7). The pieces of a validated span
// (AddParallel's parts, a state's runs) are cut with it.
func bitSpan(bits []byte, off, n int) ([]byte, int) {
	if bits == nil {
		return nil, 0
	}
	if n == 0 {
		return bits[:0:0], 0
	}
	first := off >> 3
	// off&7 + n + 7 is done in uint so that it cannot wrap for n near
	// MaxInt; the caller has made sure the span is inside bits.
	end := first + int((uint(off&7)+uint(n)+7)>>3)
	return bits[first:end:end], off & 7
}

// badBitmap panics with the message for a bitmap checkMask rejected for n
// elements, whose room (Mask.room) is below n.
func badBitmap(room int64, n int) {
	if room < 0 {
		panic(fmt.Sprintf("quiver: validity bitmap offset %d is past the end of the bitmap, for %d elements", -1-room, n))
	}
	panic(fmt.Sprintf("quiver: validity bitmap has %d bits from its offset to its end, need %d, one per element", room, n))
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
	if len(m) != 1 || m[0].sel != nil || uint(n) > 64 {
		return 0, false
	}
	all := ^uint64(0) >> (64 - uint(n)) // n = 0: none
	if m[0].bits == nil || n == 0 {
		return all, true
	}
	if m[0].room < int64(n) { // too short, or the offset past the end: checkMask says which
		return 0, false
	}
	b, off := m[0].bitmap()
	if len(b) < 8 {
		// A bitmap that ends within 8 bytes, as one sized for a short
		// input does: its n bits are below bit 56. kernel.ValidWord reads such
		// a tail a byte at a time, which is what lets it inline here;
		// that loop cost CountValid 38% at n = 32 (14.2 against 10.3 ns).
		return kernel.ShortBytes(b) >> uint(off) & all, true
	}
	return kernel.ValidWord(b, off, n) & all, true
}

// bitmapSpan is the one check a masked call of a kernel's length makes,
// written to inline into the API's function: for n > 0 elements and one
// Mask without a selection whose bitmap covers them (the rule checkMask
// enforces), it returns the span of the bitmap that holds their bits and
// the position of the first one in its first byte, as maskSpan does, and
// true. Anything else gives false, and the caller takes its general path,
// which panics where it must. A nil bitmap is declined too, and costs no
// test of its own: its room is 0 or negative (see Valid). The general path
// is up to three more frames (the API's general function, checkMask, a
// wrapper of the kernel's entry): 2 to 5 ns a call on a Zen 5 (H506-H511
// in bench/maskspan_test.go).
func bitmapSpan(n int, m []Mask) (bits []byte, off int, ok bool) {
	if len(m) != 1 || m[0].sel != nil || m[0].room < int64(n) || n == 0 {
		return nil, 0, false
	}
	// room >= n: the bitmap holds (room+off)/8 bytes from bits, and the
	// span's ceil((off+n)/8) is no more.
	off = int(-m[0].room) & 7
	return unsafe.Slice(m[0].bits, (uint(off)+uint(n)+7)>>3), off, true
}
