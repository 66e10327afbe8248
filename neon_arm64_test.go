//go:build arm64 && !purego

package quiver

import (
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// neonGuard is usable memory between two pages the process may not
// touch: a kernel that reads one byte before a slice placed at its start,
// or one byte past a slice placed at its end, faults.
type neonGuard struct {
	mem        []byte // the whole mapping, guard pages included
	start, end int    // the usable bytes, mem[start:end]
}

func newNEONGuard(t *testing.T, pages int) *neonGuard {
	t.Helper()
	g := newGuardedBytes(t, pages*os.Getpagesize())
	return &neonGuard{mem: g.mem, start: g.start, end: g.start + len(g.body)}
}

// neonPlacement is where a test puts a slice in a neonGuard.
type neonPlacement int

const (
	atPageStart neonPlacement = iota // first byte right after the leading guard page
	atPageEnd                        // last byte right before the trailing guard page
)

func (p neonPlacement) String() string { return [...]string{"start", "end"}[p] }

// bitmapAt returns a copy of the bitmap src for elements from bit off. At
// the page end the bitmap's last byte is the last usable one. At the page
// start the byte holding bit off is the first usable one: the off/8 bytes
// before it, which no backend may read, lie in the guard page (they are
// not copied).
func (g *neonGuard) bitmapAt(p neonPlacement, src []byte, off int) []byte {
	if p == atPageEnd {
		b := g.mem[g.end-len(src) : g.end : g.end]
		copy(b, src)
		return b
	}
	skip := off >> 3
	b := g.mem[g.start-skip : g.start-skip+len(src) : g.start-skip+len(src)]
	copy(b[skip:], src[skip:])
	return b
}

// neonGuardCopy returns a copy of src whose first element starts right
// after the leading guard page, or whose last element ends right before
// the trailing one. Viewing the mapped bytes as []T needs unsafe; only this
// test does that.
func neonGuardCopy[T num.Number](g *neonGuard, p neonPlacement, src []T) []T {
	if len(src) == 0 {
		return []T{}
	}
	sz := int(unsafe.Sizeof(src[0]))
	at := g.start
	if p == atPageEnd {
		at = g.end - len(src)*sz
	}
	x := unsafe.Slice((*T)(unsafe.Pointer(&g.mem[at])), len(src))
	copy(x, src)
	return x
}

// TestNEONGuardPages runs every NEON kernel, through the public API, on
// data that starts right after an inaccessible page and on data that ends
// right before one, each with no bitmap and with bitmaps placed both ways,
// for every length up to 300 and lengths around the larger blocks (512
// bits of a count block, with and without an unaligned head), at every
// bitmap offset 0..63: a read before the start or past the end of x or of
// the elements' bitmap bytes faults. The results are checked against the
// reference too. With -short, lengths above 70 run a sample of offsets.
func TestNEONGuardPages(t *testing.T) {
	prev := ActiveBackend().Name
	if err := SetBackend("neon"); err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { SetBackend(prev) })
	data, bm := newNEONGuard(t, 4), newNEONGuard(t, 1)
	t.Run("float32", func(t *testing.T) { neonGuardFloat[float32](t, data, bm) })
	t.Run("float64", func(t *testing.T) { neonGuardFloat[float64](t, data, bm) })
	t.Run("int8", func(t *testing.T) { neonGuardSigned[int8](t, data, bm) })
	t.Run("int16", func(t *testing.T) { neonGuardSigned[int16](t, data, bm) })
	t.Run("int32", func(t *testing.T) { neonGuardSigned[int32](t, data, bm) })
	t.Run("int64", func(t *testing.T) { neonGuardSigned[int64](t, data, bm) })
	t.Run("uint8", func(t *testing.T) { neonGuardUnsigned[uint8](t, data, bm) })
	t.Run("uint16", func(t *testing.T) { neonGuardUnsigned[uint16](t, data, bm) })
	t.Run("uint32", func(t *testing.T) { neonGuardUnsigned[uint32](t, data, bm) })
	t.Run("uint64", func(t *testing.T) { neonGuardUnsigned[uint64](t, data, bm) })
}

// neonGuardLengths are every length up to 300 (every block of every
// element type several times over, with every tail) and the lengths around
// one and two 512-bit count blocks, also shifted by an unaligned head of 7.
func neonGuardLengths() []int {
	var ns []int
	for n := 0; n <= 300; n++ {
		ns = append(ns, n)
	}
	for _, c := range []int{512, 519, 1024, 1031} {
		ns = append(ns, c-1, c, c+1)
	}
	return append(ns, 1087)
}

// neonGuardShortOffsets are the bitmap offsets that -short keeps for the
// longer lengths: both ends of each byte and a spread of starting bytes.
var neonGuardShortOffsets = map[int]bool{0: true, 1: true, 6: true, 7: true, 8: true, 9: true, 15: true, 16: true, 23: true, 31: true, 33: true, 47: true, 56: true, 63: true}

// neonGuardShapes calls f for every length, data placement and offset, with
// no bitmap and with the bitmap at each placement.
func neonGuardShapes[T num.Number](t *testing.T, data, bm *neonGuard, f func(x []T, bits []byte, off int)) {
	r := rand.New(rand.NewPCG(7, uint64(num.KindOf[T]())))
	for _, n := range neonGuardLengths() {
		src := testkit.Values[T](r, n, testkit.Mixed)
		for _, dp := range []neonPlacement{atPageStart, atPageEnd} {
			x := neonGuardCopy(data, dp, src)
			f(x, nil, 0)
			for off := 0; off < 64; off++ {
				if testing.Short() && n > 70 && !neonGuardShortOffsets[off] {
					continue
				}
				bits := testkit.Bitmap(r, n, off, 0.3)
				for _, bp := range []neonPlacement{atPageStart, atPageEnd} {
					f(x, bm.bitmapAt(bp, bits, off), off)
				}
			}
		}
	}
}

func neonGuardFloat[T constraints.Float](t *testing.T, data, bm *neonGuard) {
	p := policyOf(ActiveBackend(), num.KindOf[T]())
	neonGuardShapes(t, data, bm, func(x []T, bits []byte, off int) {
		if got, want := Sum(x, Valid(bits, off)), oracle.Sum(x, bits, off, p); !sameFloat(got, want) {
			t.Fatalf("n=%d off=%d: Sum = %v, oracle %v", len(x), off, got, want)
		}
		neonGuardSummary(t, x, bits, off)
	})
}

func neonGuardSigned[T constraints.Signed](t *testing.T, data, bm *neonGuard) {
	neonGuardShapes(t, data, bm, func(x []T, bits []byte, off int) {
		m := ref.Mask{Bits: bits, Off: off}
		if got, want := SumInt(x, Valid(bits, off)), ref.SumInt[T, int64](x, m); got != want {
			t.Fatalf("n=%d off=%d: SumInt = %d, reference %d", len(x), off, got, want)
		}
		ws, wo := ref.SumCheckedSigned(x, m)
		if got := SumChecked(x, Valid(bits, off)); got != (CheckedSum[int64]{ws, wo}) {
			t.Fatalf("n=%d off=%d: SumChecked = %+v, reference {%d %v}", len(x), off, got, ws, wo)
		}
		neonGuardSummary(t, x, bits, off)
	})
}

func neonGuardUnsigned[T constraints.Unsigned](t *testing.T, data, bm *neonGuard) {
	neonGuardShapes(t, data, bm, func(x []T, bits []byte, off int) {
		m := ref.Mask{Bits: bits, Off: off}
		if got, want := SumUint(x, Valid(bits, off)), ref.SumInt[T, uint64](x, m); got != want {
			t.Fatalf("n=%d off=%d: SumUint = %d, reference %d", len(x), off, got, want)
		}
		ws, wo := ref.SumCheckedUnsigned(x, m)
		if got := SumCheckedUint(x, Valid(bits, off)); got != (CheckedSum[uint64]{ws, wo}) {
			t.Fatalf("n=%d off=%d: SumCheckedUint = %+v, reference {%d %v}", len(x), off, got, ws, wo)
		}
		neonGuardSummary(t, x, bits, off)
	})
}

func neonGuardSummary[T Number](t *testing.T, x []T, bits []byte, off int) {
	t.Helper()
	m := ref.Mask{Bits: bits, Off: off}
	lo, hi, count, nulls := ref.Summary(x, m)
	got := Summarize(x, Valid(bits, off))
	if testkit.Bits(got.Min) != testkit.Bits(lo) || testkit.Bits(got.Max) != testkit.Bits(hi) || got.Count != count || got.Nulls != nulls {
		t.Fatalf("n=%d off=%d: Summarize = %+v, reference {%v %v %d %d}", len(x), off, got, lo, hi, count, nulls)
	}
	if gl, gh := Min(x, Valid(bits, off)), Max(x, Valid(bits, off)); testkit.Bits(gl) != testkit.Bits(lo) || testkit.Bits(gh) != testkit.Bits(hi) {
		t.Fatalf("n=%d off=%d: Min, Max = %v, %v, reference %v, %v", len(x), off, gl, gh, lo, hi)
	}
	if bits != nil {
		if got, want := CountValid(len(x), Valid(bits, off)), ref.CountValid(len(x), m); got != want {
			t.Fatalf("n=%d off=%d: CountValid = %d, reference %d", len(x), off, got, want)
		}
	}
}
