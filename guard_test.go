package quiver

import (
	"fmt"
	"runtime/debug"
	"testing"
	"unsafe"

	"golang.org/x/exp/constraints"
)

// Guard-page tests: every input is placed so that its last byte is the last
// byte before an inaccessible page, or its first byte the first after one.
// A kernel that reads one byte outside its slice (data or bitmap) faults,
// and the fault is reported as a failure naming the case.

// guarded is readable, writable memory between two inaccessible pages
// (newGuarded and newGuardedBytes are in guard_unix_test.go; elsewhere the
// tests that need them skip).
type guarded struct {
	body []byte
	// mem is the whole mapping, guard pages included, and body is
	// mem[start:start+len(body)]: for tests that place a slice so that
	// bytes no backend may read lie in a guard page.
	mem   []byte
	start int
}

// bytes returns n bytes that end at the upper guard (atEnd) or start at the
// lower one, with their capacity cut to their length, filled with a
// pattern.
func (g *guarded) bytes(n int, atEnd bool) []byte {
	lo := 0
	if atEnd {
		lo = len(g.body) - n
	}
	b := g.body[lo : lo+n : lo+n]
	for i := range b {
		b[i] = byte(i*37 + 11)
	}
	return b
}

// guardedSlice returns n elements of T placed as bytes does (an empty one
// points at the guard itself).
func guardedSlice[T Number](g *guarded, n int, atEnd bool) []T {
	var zero T
	b := g.bytes(n*int(unsafe.Sizeof(zero)), atEnd)
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
}

// guardCase names one placement.
type guardCase struct {
	n, off      int
	dataAtEnd   bool
	bitmap      bool
	bitmapAtEnd bool
	sel         bool // also a selection, placed in guarded memory
}

func (c guardCase) String() string {
	return fmt.Sprintf("n=%d data-at-end=%v bitmap=%v off=%d bitmap-at-end=%v sel=%v",
		c.n, c.dataAtEnd, c.bitmap, c.off, c.bitmapAtEnd, c.sel)
}

// guardCases places every length up to beyond every backend's block
// (AVX-512 bytes: 4 × 64) with bitmap offsets 0 and 5, and the lengths
// around each block and word size with every bitmap offset 0..63.
func guardCases(short bool) []guardCase {
	maxN := 300
	if short {
		maxN = 140
	}
	everyOffset := map[int]bool{}
	for _, edge := range []int{0, 8, 16, 32, 64, 128, 256} {
		for d := -2; d <= 2; d++ {
			everyOffset[edge+d] = true
		}
	}
	var cs []guardCase
	for n := 0; n <= maxN; n++ {
		offs := []int{0, 5}
		if everyOffset[n] && !short {
			offs = make([]int, 64)
			for i := range offs {
				offs[i] = i
			}
		}
		for _, dataAtEnd := range []bool{true, false} {
			cs = append(cs, guardCase{n: n, dataAtEnd: dataAtEnd})
			cs = append(cs, guardCase{n: n, dataAtEnd: dataAtEnd, sel: true})
			for _, off := range offs {
				for _, bmEnd := range []bool{true, false} {
					cs = append(cs, guardCase{n: n, off: off, dataAtEnd: dataAtEnd, bitmap: true, bitmapAtEnd: bmEnd})
				}
				for _, bmEnd := range []bool{true, false} {
					cs = append(cs, guardCase{n: n, off: off, dataAtEnd: dataAtEnd, bitmap: true, bitmapAtEnd: bmEnd, sel: true})
				}
			}
		}
	}
	return cs
}

// guardSelection returns a selection of n elements in guarded memory,
// ending at the guard: every index backwards, then the last index again.
func guardSelection(g *guarded, n int) []uint32 {
	if n == 0 {
		return guardedSlice[uint32](g, 0, true)
	}
	sel := guardedSlice[uint32](g, n+1, true)
	for i := range n {
		sel[i] = uint32(n - 1 - i)
	}
	sel[n] = uint32(n - 1)
	return sel
}

// runGuarded calls every operation on T through run, with the inputs of each
// case in guarded memory (data in g, bitmap in gb, selection in gs), and
// reports a fault as a failure of that case. A bitmap one byte too short,
// ending at the guard, must give a quiver: panic, never a fault.
func runGuarded[T Number](t *testing.T, g, gb, gs *guarded, run func(x []T, m Mask)) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for _, c := range guardCases(testing.Short()) {
		x := guardedSlice[T](g, c.n, c.dataAtEnd)
		m := Mask{}
		if c.bitmap {
			m = Valid(gb.bytes((c.off+c.n+7)/8, c.bitmapAtEnd), c.off)
		}
		if c.sel {
			m = m.Select(guardSelection(gs, c.n))
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%v: %v", c, r)
				}
			}()
			run(x, m)
		}()
		if c.bitmap && c.n > 0 && !c.sel {
			short := Valid(gb.bytes((c.off+c.n+7)/8-1, c.bitmapAtEnd), c.off)
			quiverPanic(t, fmt.Sprintf("%v with the bitmap one byte short", c), func() { run(x, short) })
		}
	}
}

func guardFloat[T constraints.Float](t *testing.T, g, gb, gs *guarded) {
	runGuarded(t, g, gb, gs, func(x []T, m Mask) {
		sinkF64 = float64(Sum(x, m)) + float64(Summarize(x, m).Min) + float64(Min(x, m)) + float64(Max(x, m))
	})
}

// guardRepro runs SumReproducible on every case, with values that make
// its kernels run (finite, within a few binades: the pattern's bits would
// send most blocks down the value-by-value path).
func guardRepro[T constraints.Float](t *testing.T, g, gb, gs *guarded) {
	runGuarded(t, g, gb, gs, func(x []T, m Mask) {
		reproGuardValues(x)
		sinkF64 = float64(SumReproducible(x, m))
	})
}

// reproGuardValues fills x with finite values within a few binades.
func reproGuardValues[T constraints.Float](x []T) {
	for i := range x {
		x[i] = T(i%13-6) * 0.25
	}
}

func guardSigned[T constraints.Signed](t *testing.T, g, gb, gs *guarded) {
	runGuarded(t, g, gb, gs, func(x []T, m Mask) {
		sinkF64 = float64(SumInt(x, m)+SumChecked(x, m).Sum) + float64(Summarize(x, m).Max) + float64(Min(x, m))
	})
}

func guardUnsigned[T constraints.Unsigned](t *testing.T, g, gb, gs *guarded) {
	runGuarded(t, g, gb, gs, func(x []T, m Mask) {
		sinkF64 = float64(SumUint(x, m)+SumCheckedUint(x, m).Sum) + float64(Summarize(x, m).Max)
		sinkF64 += float64(CountValid(len(x), m))
	})
}

func TestGuardPages(t *testing.T) {
	g, gb, gs := newGuarded(t), newGuarded(t), newGuarded(t)
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float32", func(t *testing.T) { guardFloat[float32](t, g, gb, gs) })
		t.Run("float64", func(t *testing.T) { guardFloat[float64](t, g, gb, gs) })
		t.Run("repro/float32", func(t *testing.T) { guardRepro[float32](t, g, gb, gs) })
		t.Run("repro/float64", func(t *testing.T) { guardRepro[float64](t, g, gb, gs) })
		t.Run("int8", func(t *testing.T) { guardSigned[int8](t, g, gb, gs) })
		t.Run("int16", func(t *testing.T) { guardSigned[int16](t, g, gb, gs) })
		t.Run("int32", func(t *testing.T) { guardSigned[int32](t, g, gb, gs) })
		t.Run("int64", func(t *testing.T) { guardSigned[int64](t, g, gb, gs) })
		t.Run("uint8", func(t *testing.T) { guardUnsigned[uint8](t, g, gb, gs) })
		t.Run("uint16", func(t *testing.T) { guardUnsigned[uint16](t, g, gb, gs) })
		t.Run("uint32", func(t *testing.T) { guardUnsigned[uint32](t, g, gb, gs) })
		t.Run("uint64", func(t *testing.T) { guardUnsigned[uint64](t, g, gb, gs) })
	})
}

// TestGuardPagesReproLarge places dense inputs of 64 MB and more, where
// the avx512 backend's SumReproducible folds each block while it reads
// the next (reproDRAMBytes in internal/kernel), against a guard page: at
// the end, with a length that is a whole number of blocks, so that the
// last streaming call reads the input's last element, and one longer;
// and at the start.
func TestGuardPagesReproLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB inputs")
	}
	const n32, n64 = 16 << 20, 8 << 20 // 64 MB each
	g := newGuardedBytes(t, 4*(n32+7))
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, extra := range []int{0, 7} {
			for _, atEnd := range []bool{true, false} {
				what := fmt.Sprintf("n=64 MB+%d elements, at end %v", extra, atEnd)
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s: %v", what, r)
						}
					}()
					x64 := guardedSlice[float64](g, n64+extra, atEnd)
					reproGuardValues(x64)
					sinkF64 = SumReproducible(x64)
					x32 := guardedSlice[float32](g, n32+extra, atEnd)
					reproGuardValues(x32)
					sinkF64 = float64(SumReproducible(x32))
				}()
			}
		}
	})
}

// TestGuardPagesDetect proves the harness can fail: a read one byte past a
// guarded slice must fault.
func TestGuardPagesDetect(t *testing.T) {
	g := newGuarded(t)
	b := g.bytes(16, true)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() == nil {
			t.Error("reading past a guarded slice did not fault")
		}
	}()
	over := unsafe.Slice(unsafe.SliceData(b), 17) // deliberately one byte too long
	sinkF64 = float64(over[16])
}
