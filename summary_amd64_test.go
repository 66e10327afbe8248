//go:build amd64 && !purego

package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// The summary kernels are checked here on inputs the random differential
// suite is unlikely to build: zeros whose first occurrence is masked out,
// NaNs only in invalid lanes, infinities alone, and slices that end (or
// start) at an inaccessible page, for every length around the vector
// widths and every bitmap offset within a byte.

// checkSummaryBackends runs every available backend's summary kernel for T
// on one input and compares min, max and count with the reference, bit for
// bit; then the same for the min and max that Min and Max compute.
func checkSummaryBackends[T Number](t *testing.T, what string, x []T, bits []byte, off int) {
	t.Helper()
	lo, hi, count, _ := ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	for _, b := range registry {
		if !b.available {
			continue
		}
		gl, gh, gc := kernel.Summary(b.isa, x, bits, off, kernel.WantBoth)
		if testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) || gc != count {
			t.Fatalf("%s: %s %s n=%d off=%d: got (%v %#x, %v %#x, %d), reference (%v %#x, %v %#x, %d)",
				b.name, num.KindOf[T](), what, len(x), off, gl, testkit.Bits(gl), gh, testkit.Bits(gh), gc,
				lo, testkit.Bits(lo), hi, testkit.Bits(hi), count)
		}
		// Min and Max run the single-extreme kernels where a backend has
		// them (floats on amd64), which must agree with the fused one.
		if g, _, _ := kernel.Summary(b.isa, x, bits, off, kernel.WantMin); testkit.Bits(g) != testkit.Bits(lo) {
			t.Fatalf("%s: %s %s n=%d off=%d: min kernel %v %#x, reference %v %#x",
				b.name, num.KindOf[T](), what, len(x), off, g, testkit.Bits(g), lo, testkit.Bits(lo))
		}
		if _, g, _ := kernel.Summary(b.isa, x, bits, off, kernel.WantMax); testkit.Bits(g) != testkit.Bits(hi) {
			t.Fatalf("%s: %s %s n=%d off=%d: max kernel %v %#x, reference %v %#x",
				b.name, num.KindOf[T](), what, len(x), off, g, testkit.Bits(g), hi, testkit.Bits(hi))
		}
		switch xs := any(x).(type) {
		case []float32:
			checkExtremeCounts(t, b.name, b.isa, xs, bits, off, count)
		case []float64:
			checkExtremeCounts(t, b.name, b.isa, xs, bits, off, count)
		}
	}
}

// checkExtremeCounts checks the valid count that the min and max kernels
// of k return, when k has them.
func checkExtremeCounts[T float32 | float64](t *testing.T, name string, isa kernel.ISA, x []T, bits []byte, off, count int) {
	t.Helper()
	{
		if _, _, c := kernel.Summary(isa, x, bits, off, kernel.WantMin); c != count {
			t.Fatalf("%s: %s n=%d off=%d: min kernel counts %d valid, reference %d", name, num.KindOf[T](), len(x), off, c, count)
		}
	}
	{
		if _, _, c := kernel.Summary(isa, x, bits, off, kernel.WantMax); c != count {
			t.Fatalf("%s: %s n=%d off=%d: max kernel counts %d valid, reference %d", name, num.KindOf[T](), len(x), off, c, count)
		}
	}
}

// summaryLengths are lengths around every vector width and unrolled block
// of the kernels (up to 8 vectors of 64 one-byte lanes).
func summaryLengths() []int {
	var ns []int
	for n := 0; n <= 140; n++ {
		ns = append(ns, n)
	}
	for _, b := range []int{256, 512, 1024} {
		ns = append(ns, b-9, b-8, b-1, b, b+1, b+7, b+8, b+63, b+64, b+65)
	}
	return ns
}

// summaryAllValid returns a bitmap of n valid elements from bit off.
func summaryAllValid(n, off int) []byte {
	bm := make([]byte, (off+n+7)/8)
	for i := range n {
		bm[(off+i)>>3] |= 1 << ((off + i) & 7)
	}
	return bm
}

func summaryClearBit(bm []byte, p int) { bm[p>>3] &^= 1 << (p & 7) }

func TestSummaryFirstZeroMaskedOut(t *testing.T) {
	testFirstZeroMaskedOut[float64](t)
	testFirstZeroMaskedOut[float32](t)
}

// A -0.0 in an invalid lane before the first valid +0.0 must not win the
// tie, and neither may a later valid -0.0; the same with signs swapped.
func testFirstZeroMaskedOut[T float32 | float64](t *testing.T) {
	negZero := T(math.Copysign(0, -1))
	r := rand.New(rand.NewPCG(11, 11))
	for _, n := range summaryLengths() {
		if n < 3 {
			continue
		}
		for off := range 8 {
			for _, sign := range []T{1, -1} {
				// Min sees zeros when the rest is positive, Max when negative.
				x := make([]T, n)
				for i := range x {
					x[i] = sign * T(1+r.IntN(100))
				}
				i0 := r.IntN(n - 2)
				i1 := i0 + 1 + r.IntN(n-i0-2)
				i2 := i1 + 1 + r.IntN(n-i1-1)
				for _, first := range []T{0, negZero} {
					other := negZero
					if testkit.Bits(first) == testkit.Bits(negZero) {
						other = 0
					}
					x[i0], x[i1], x[i2] = other, first, other
					bm := summaryAllValid(n, off)
					summaryClearBit(bm, off+i0)
					checkSummaryBackends(t, "first zero after a masked-out zero", x, bm, off)
					checkSummaryBackends(t, "zeros dense", x, nil, 0)
				}
			}
		}
	}
}

// TestSummaryOnlyHeadValid covers a bitmap whose only valid elements are
// in its head, the elements before its first whole byte, and not the
// first of them: the AVX2 kernels that start from a valid element must
// take it from the head, and an invalid element must not stand in for
// it (every invalid element here is below and above every valid one, so
// a stand-in shows in the result).
func TestSummaryOnlyHeadValid(t *testing.T) {
	testOnlyHeadValid[float64](t, -1e300, 1e300)
	testOnlyHeadValid[float32](t, -1e30, 1e30)
	testOnlyHeadValid[int64](t, math.MinInt64, math.MaxInt64)
	testOnlyHeadValid[int32](t, math.MinInt32, math.MaxInt32)
	testOnlyHeadValid[int16](t, math.MinInt16, math.MaxInt16)
	testOnlyHeadValid[uint8](t, 0, math.MaxUint8)
}

func testOnlyHeadValid[T Number](t *testing.T, low, high T) {
	for _, n := range summaryLengths() {
		for off := 1; off < 8; off++ {
			h := 8 - off
			for j := 1; j < min(h, n); j++ {
				x := make([]T, n)
				for i := range x {
					x[i] = low
					if i%2 == 1 {
						x[i] = high
					}
				}
				x[j] = 5
				bm := make([]byte, (off+n+7)/8)
				bm[0] = 1 << (off + j)
				checkSummaryBackends(t, "only a head element valid", x, bm, off)
			}
		}
	}
}

func TestSummaryNaNOnlyInvalid(t *testing.T) {
	testNaNOnlyInvalid[float64](t)
	testNaNOnlyInvalid[float32](t)
}

// NaNs in invalid lanes do not participate; one valid NaN anywhere does.
func testNaNOnlyInvalid[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(12, 12))
	var nans []T
	for _, v := range testkit.Specials[T]() {
		if v != v {
			nans = append(nans, v)
		}
	}
	for _, n := range summaryLengths() {
		if n == 0 {
			continue
		}
		for off := range 8 {
			x := testkit.Values[T](r, n, testkit.Plain)
			bm := summaryAllValid(n, off)
			for i := range x {
				if r.IntN(3) == 0 {
					x[i] = nans[r.IntN(len(nans))]
					summaryClearBit(bm, off+i)
				}
			}
			checkSummaryBackends(t, "NaN only in invalid lanes", x, bm, off)
			j := r.IntN(n)
			x[j] = nans[r.IntN(len(nans))]
			bm[(off+j)>>3] |= 1 << ((off + j) & 7)
			checkSummaryBackends(t, "one valid NaN", x, bm, off)
		}
	}
}

func TestSummaryInfinities(t *testing.T) {
	testInfinities[float64](t)
	testInfinities[float32](t)
}

// The kernels start from ±Inf, not from the identities: a column of +Inf
// has min +Inf, a column of -Inf max -Inf, and with nothing valid the
// results are the identities ±MaxFloat.
func testInfinities[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(13, 13))
	for _, n := range summaryLengths() {
		for _, inf := range []T{T(math.Inf(1)), T(math.Inf(-1))} {
			x := make([]T, n)
			for i := range x {
				x[i] = inf
			}
			off := r.IntN(64)
			checkSummaryBackends(t, "all infinite", x, nil, 0)
			checkSummaryBackends(t, "all infinite, masked", x, summaryAllValid(n, off), off)
			checkSummaryBackends(t, "all infinite, sparse", x, testkit.Bitmap(r, n, off, 0.9), off)
			checkSummaryBackends(t, "nothing valid", x, testkit.Bitmap(r, n, off, 1), off)
		}
	}
}

func TestSummaryIntegerLimits(t *testing.T) {
	testIntegerLimits[int8](t)
	testIntegerLimits[int16](t)
	testIntegerLimits[int32](t)
	testIntegerLimits[int64](t)
	testIntegerLimits[uint8](t)
	testIntegerLimits[uint16](t)
	testIntegerLimits[uint32](t)
	testIntegerLimits[uint64](t)
}

// Integer limits as values, and invalid lanes holding the value that would
// win if they took part.
func testIntegerLimits[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(14, uint64(num.KindOf[T]())))
	sp := testkit.Specials[T]()
	for _, n := range summaryLengths() {
		off := r.IntN(64)
		x := make([]T, n)
		for i := range x {
			x[i] = sp[r.IntN(len(sp))]
		}
		checkSummaryBackends(t, "limits", x, nil, 0)
		checkSummaryBackends(t, "limits, masked", x, testkit.Bitmap(r, n, off, 0.5), off)
		for i := range x {
			x[i] = T(1 + r.IntN(50))
		}
		bm := summaryAllValid(n, off)
		if n > 0 {
			i, j := r.IntN(n), r.IntN(n)
			x[i], x[j] = num.MaxOf[T](), num.LowestOf[T]()
			summaryClearBit(bm, off+i)
			summaryClearBit(bm, off+j)
		}
		checkSummaryBackends(t, "limits masked out", x, bm, off)
		checkSummaryBackends(t, "nothing valid", x, testkit.Bitmap(r, n, off, 1), off)
	}
}

func TestSummaryGuardPages(t *testing.T) {
	guardSummary[float64](t)
	guardSummary[float32](t)
	guardSummary[int8](t)
	guardSummary[int16](t)
	guardSummary[int32](t)
	guardSummary[int64](t)
	guardSummary[uint8](t)
	guardSummary[uint16](t)
	guardSummary[uint32](t)
	guardSummary[uint64](t)
}

// guardSummary places x and its bitmap against inaccessible pages: a
// kernel that reads one byte too many (or too early) crashes the test.
// Every bitmap offset from 0 to 63; with -short (the emulated CPUs' runs,
// where this test took the most time) the first 16, which give every
// offset within a byte and both halves of a 16-bit load, and 31, 32
// and 63.
func guardSummary[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(15, uint64(num.KindOf[T]())))
	size := summarySizeOf[T]()
	lengths := summaryLengths()
	gx := newGuardedBytes(t, lengths[len(lengths)-1]*size)
	gb := newGuardedBytes(t, lengths[len(lengths)-1]/8+2)
	offs := make([]int, 64)
	for i := range offs {
		offs[i] = i
	}
	if testing.Short() {
		offs = append(offs[:16], 31, 32, 63)
	}
	for _, n := range lengths {
		for _, atStart := range []bool{false, true} {
			x := num.Cast[T](gx.bytes(n*size, !atStart))[:n:n]
			copy(x, testkit.Values[T](r, n, testkit.Mixed))
			checkSummaryBackends(t, "guarded, dense", x, nil, 0)
			for _, off := range offs {
				src := testkit.Bitmap(r, n, off, 0.3)
				bm := gb.bytes(len(src), !atStart)
				copy(bm, src)
				checkSummaryBackends(t, "guarded, masked", x, bm, off)
			}
		}
	}
}

func summarySizeOf[T Number]() int {
	switch num.KindOf[T]() {
	case num.Int8, num.Uint8:
		return 1
	case num.Int16, num.Uint16:
		return 2
	case num.Int32, num.Uint32, num.Float32:
		return 4
	}
	return 8
}

// TestSummaryUnalignedStarts runs inputs starting at every element offset
// within a 64-byte line: the dense AVX-512 kernels peel a masked head up to
// the first line boundary, and the head, the loops and the tail must meet
// exactly.
func TestSummaryUnalignedStarts(t *testing.T) {
	unalignedStarts[float64](t)
	unalignedStarts[float32](t)
	unalignedStarts[int8](t)
	unalignedStarts[int16](t)
	unalignedStarts[uint32](t)
	unalignedStarts[uint64](t)
}

func unalignedStarts[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(16, uint64(num.KindOf[T]())))
	for _, n := range summaryLengths() {
		base := testkit.Values[T](r, n+64, testkit.Mixed)
		for o := range 64 / summarySizeOf[T]() {
			x := base[o : o+n]
			checkSummaryBackends(t, "unaligned start", x, nil, 0)
			off := r.IntN(16)
			checkSummaryBackends(t, "unaligned start, masked", x, testkit.Bitmap(r, n, off, 0.2), off)
		}
	}
}

func TestSummaryDenseNaNAndZeros(t *testing.T) {
	denseNaNAndZeros[float64](t)
	denseNaNAndZeros[float32](t)
}

// Dense Min and Max call the single-extreme kernel without the layers of
// summaryAsm.run (AVX2: whole steps, the rest folded in the wrapper) and
// rescue only on a NaN or a zero result. These inputs put a NaN (of either
// sign, quiet or signaling, with a payload) in the aligned head, the first
// and last vector of the unrolled loop, the single-vector loop and the
// tail (masked on AVX-512, folded in Go on AVX2), alone or next to the
// extreme; and zeros of both signs in different
// accumulators and lanes, so that lane order and index order disagree on
// which zero comes first. Starts are shifted so that the head peel and the
// tail both take part.
func denseNaNAndZeros[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(17, uint64(num.KindOf[T]())))
	var nans []T
	if num.KindOf[T]() == num.Float32 {
		for _, b := range []uint32{0x7fc00000, 0xffc00000, 0x7f800001, 0xff812345} {
			nans = append(nans, T(math.Float32frombits(b)))
		}
	} else {
		for _, b := range []uint64{0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000012345} {
			nans = append(nans, T(math.Float64frombits(b)))
		}
	}
	negZero := T(math.Copysign(0, -1))
	lengths := append(summaryLengths(), 511, 512, 513, 1000, 1024+7, 4096, 4096+63)
	for _, n := range lengths {
		if n == 0 {
			continue
		}
		base := testkit.Values[T](r, n+16, testkit.Mixed)
		for _, shift := range []int{0, 1, 3} {
			x0 := base[shift : shift+n]
			// NaN at chosen positions: first, last, middle, one random.
			for _, p := range []int{0, n - 1, n / 2, r.IntN(n)} {
				x := append([]T(nil), x0...)
				x[p] = nans[r.IntN(len(nans))]
				checkSummaryBackends(t, "one NaN", x, nil, 0)
			}
			// Every position in the last vector: NaN only in the tail.
			for p := max(0, n-16); p < n; p++ {
				x := append([]T(nil), x0...)
				x[p] = nans[p%len(nans)]
				checkSummaryBackends(t, "NaN near the end", x, nil, 0)
			}
			// Zeros: all positive values with zeros of both signs, in an
			// order random over positions, so the minimum is a zero; and
			// all negative ones for the maximum.
			for _, sign := range []T{1, -1} {
				x := make([]T, n)
				for i := range x {
					x[i] = sign * (1 + T(r.IntN(100)))
				}
				for range 1 + r.IntN(4) {
					z := T(0)
					if r.IntN(2) == 0 {
						z = negZero
					}
					x[r.IntN(n)] = z
				}
				checkSummaryBackends(t, "zero extreme", x, nil, 0)
			}
		}
		for _, z := range []T{0, negZero} {
			x := make([]T, n)
			for i := range x {
				x[i] = z
			}
			checkSummaryBackends(t, "all one zero", x, nil, 0)
			// Opposite zero at the end, the start, or both.
			x[n-1] = -z
			checkSummaryBackends(t, "zeros, last differs", x, nil, 0)
			x[0] = -z
			checkSummaryBackends(t, "zeros, first and last differ", x, nil, 0)
		}
	}
}

func TestSummaryOppositeInfinities(t *testing.T) {
	oppositeInfinities[float64](t)
	oppositeInfinities[float32](t)
}

// The AVX2 dense kernels detect NaN by sentinel sums (per vector pair,
// a + b added into a chain), which turn NaN also where +Inf meets -Inf
// or where a chain overflows both ways; the wrapper must then find by an
// exact scan that there is no NaN. These inputs have no NaN: +Inf and -Inf
// in the same lane of neighbouring vectors, at every distance up to two
// unrolled iterations apart, and columns of huge values of both signs
// whose sums overflow. Min must be -Inf (or the least value), Max +Inf,
// never NaN.
func oppositeInfinities[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(19, uint64(num.KindOf[T]())))
	pinf, ninf := T(math.Inf(1)), T(math.Inf(-1))
	lanes := 32 / int(unsafe.Sizeof(T(0)))
	for _, n := range []int{64, 256, 1000, 4096} {
		base := testkit.Values[T](r, n, testkit.Plain) // no NaN
		for _, d := range []int{1, lanes, 2 * lanes, 3 * lanes, 8 * lanes, 16 * lanes} {
			for _, p := range []int{0, lanes - 1, n/2 - d} {
				if p < 0 || p+d >= n {
					continue
				}
				x := append([]T(nil), base...)
				x[p], x[p+d] = pinf, ninf
				checkSummaryBackends(t, "+Inf and -Inf", x, nil, 0)
			}
		}
		// Sentinel sums that overflow to +Inf and to -Inf.
		big := T(math.MaxFloat32)
		if num.KindOf[T]() == num.Float64 {
			f := math.MaxFloat64
			big = T(f)
		}
		x := make([]T, n)
		for i := range x {
			x[i] = big / 2
			if i%(4*lanes) >= 2*lanes {
				x[i] = -big / 2
			}
		}
		checkSummaryBackends(t, "overflowing sums of both signs", x, nil, 0)
		for i := range x {
			x[i] = big
			if i >= n/2 {
				x[i] = -big
			}
		}
		checkSummaryBackends(t, "sums overflowing one way, then the other", x, nil, 0)
	}
}
