//go:build linux || darwin || freebsd

package quiver

import (
	"fmt"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/exp/constraints"
)

// Guard-page tests: every input is placed so that its last byte is the last
// byte before an inaccessible page, or its first byte the first after one.
// A kernel that reads one byte outside its slice (data or bitmap) faults,
// and the fault is reported as a failure naming the case.

// guarded is a readable, writable page between two inaccessible ones.
type guarded struct {
	mem  []byte
	page int
}

func newGuarded(t *testing.T) *guarded {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, r := range [][]byte{mem[:page], mem[2*page:]} {
		if err := syscall.Mprotect(r, syscall.PROT_NONE); err != nil {
			t.Skipf("mprotect: %v", err)
		}
	}
	return &guarded{mem: mem, page: page}
}

// bytes returns n bytes that end at the upper guard (atEnd) or start at the
// lower one, with their capacity cut to their length.
func (g *guarded) bytes(n int, atEnd bool) []byte {
	lo := g.page
	if atEnd {
		lo = 2*g.page - n
	}
	b := g.mem[lo : lo+n : lo+n]
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
}

func (c guardCase) String() string {
	return fmt.Sprintf("n=%d data-at-end=%v bitmap=%v off=%d bitmap-at-end=%v", c.n, c.dataAtEnd, c.bitmap, c.off, c.bitmapAtEnd)
}

func guardCases(short bool) []guardCase {
	maxN := 300 // beyond every backend's block (AVX-512 bytes: 4 × 64)
	if short {
		maxN = 140
	}
	var cs []guardCase
	for n := 0; n <= maxN; n++ {
		for _, dataAtEnd := range []bool{true, false} {
			cs = append(cs, guardCase{n: n, dataAtEnd: dataAtEnd})
			for _, off := range []int{0, 5} {
				for _, bmEnd := range []bool{true, false} {
					cs = append(cs, guardCase{n: n, off: off, dataAtEnd: dataAtEnd, bitmap: true, bitmapAtEnd: bmEnd})
				}
			}
		}
	}
	return cs
}

// runGuarded calls every operation on T through run, with the inputs of each
// case in guarded memory, and reports a fault as a failure of that case.
func runGuarded[T Number](t *testing.T, g, gb *guarded, run func(x []T, m Mask)) {
	t.Helper()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	for _, c := range guardCases(testing.Short()) {
		x := guardedSlice[T](g, c.n, c.dataAtEnd)
		m := Mask{}
		if c.bitmap {
			m = Valid(gb.bytes((c.off+c.n+7)/8, c.bitmapAtEnd), c.off)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%v: %v", c, r)
				}
			}()
			run(x, m)
		}()
	}
}

func guardFloat[T constraints.Float](t *testing.T, g, gb *guarded) {
	runGuarded(t, g, gb, func(x []T, m Mask) {
		sinkF64 = float64(Sum(x, m)) + float64(Summarize(x, m).Min) + float64(Min(x, m)) + float64(Max(x, m))
	})
}

func guardSigned[T constraints.Signed](t *testing.T, g, gb *guarded) {
	runGuarded(t, g, gb, func(x []T, m Mask) {
		sinkF64 = float64(SumInt(x, m)+SumChecked(x, m).Sum) + float64(Summarize(x, m).Max) + float64(Min(x, m))
	})
}

func guardUnsigned[T constraints.Unsigned](t *testing.T, g, gb *guarded) {
	runGuarded(t, g, gb, func(x []T, m Mask) {
		sinkF64 = float64(SumUint(x, m)+SumCheckedUint(x, m).Sum) + float64(Summarize(x, m).Max)
		sinkF64 += float64(CountValid(len(x), m))
	})
}

func TestGuardPages(t *testing.T) {
	g, gb := newGuarded(t), newGuarded(t)
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float32", func(t *testing.T) { guardFloat[float32](t, g, gb) })
		t.Run("float64", func(t *testing.T) { guardFloat[float64](t, g, gb) })
		t.Run("int8", func(t *testing.T) { guardSigned[int8](t, g, gb) })
		t.Run("int16", func(t *testing.T) { guardSigned[int16](t, g, gb) })
		t.Run("int32", func(t *testing.T) { guardSigned[int32](t, g, gb) })
		t.Run("int64", func(t *testing.T) { guardSigned[int64](t, g, gb) })
		t.Run("uint8", func(t *testing.T) { guardUnsigned[uint8](t, g, gb) })
		t.Run("uint16", func(t *testing.T) { guardUnsigned[uint16](t, g, gb) })
		t.Run("uint32", func(t *testing.T) { guardUnsigned[uint32](t, g, gb) })
		t.Run("uint64", func(t *testing.T) { guardUnsigned[uint64](t, g, gb) })
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
