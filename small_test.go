package quiver

import (
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestShortZeroTies puts a +0.0 and a -0.0 (each order) at every pair of
// positions of a short input whose other values are ±1 or ±Inf, so that
// the zero is the min, the max or neither, and the first zero sits on
// either of the short loops' chains (even and odd positions from the
// first participating element). Every backend, dense, under a bitmap at
// every offset mod 8 that drops one element, and through the partial
// state, must keep the reference's first zero.
func TestShortZeroTies(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		for n := 2; n <= 66; n++ {
			if testing.Short() && n > 20 && n%5 != 0 {
				continue
			}
			x := make([]float64, n)
			for p := 0; p < n; p++ {
				for q := 0; q < n; q++ {
					if p == q {
						continue
					}
					fill := []float64{1, -1, math.Inf(1), math.Inf(-1)}[(p+q)%4]
					for i := range x {
						x[i] = fill
					}
					x[p], x[q] = 0, math.Copysign(0, -1)
					checkShortSummary(t, x, nil, 0)
					off := (p + 3*q) % 8
					bits := make([]byte, (off+n+7)/8) // no spare byte
					for i := range n {
						if i != (p+q)%n || n < 3 {
							bits[(off+i)>>3] |= 1 << ((off + i) & 7)
						}
					}
					checkShortSummary(t, x, bits, off)
				}
			}
		}
	})
}

func checkShortSummary(t *testing.T, x []float64, bits []byte, off int) {
	t.Helper()
	var ms []Mask
	if bits != nil {
		ms = []Mask{Valid(bits, off)}
	}
	lo, hi, count, nulls := ref.Summary(x, ref.Mask{Bits: bits, Off: off})
	s := Summarize(x, ms...)
	var st SummaryState[float64]
	st.Add(x, ms...)
	lo2, hi2 := MinMax(x, ms...)
	got := [][2]float64{{s.Min, s.Max}, {Min(x, ms...), Max(x, ms...)}, {lo2, hi2}, {st.Summary().Min, st.Summary().Max}}
	for k, g := range got {
		if testkit.Bits(g[0]) != testkit.Bits(lo) || testkit.Bits(g[1]) != testkit.Bits(hi) {
			t.Fatalf("x=%v bits=%08b off=%d: form %d gave min %v max %v, reference %v %v", x, bits, off, k, g[0], g[1], lo, hi)
		}
	}
	if s.Count != count || s.Nulls != nulls {
		t.Fatalf("x=%v bits=%08b off=%d: count %d nulls %d, reference %d %d", x, bits, off, s.Count, s.Nulls, count, nulls)
	}
}

// TestShortWord checks shortWord against bit-by-bit reads for every
// length up to 64, every offset up to 80 and every bitmap length from the
// shortest that covers the elements (so the word's bytes end at the
// bitmap's end) to 10 bytes more, and that it declines whatever
// checkMask would reject.
func TestShortWord(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for n := 0; n <= 64; n++ {
		for off := 0; off <= 80; off++ {
			need := (off + n + 7) / 8
			for extra := -1; extra <= 10; extra++ {
				size := need + extra
				if size < 0 || (n == 0 && extra < 0) {
					continue
				}
				bits := make([]byte, size)
				for i := range bits {
					bits[i] = byte(r.Uint32())
				}
				w, ok := shortWord(n, []Mask{Valid(bits, off)})
				if extra < 0 && n > 0 {
					if ok {
						t.Fatalf("n=%d off=%d: accepted a bitmap of %d bytes, need %d", n, off, size, need)
					}
					continue
				}
				if !ok {
					t.Fatalf("n=%d off=%d size=%d: declined a valid bitmap", n, off, size)
				}
				for i := range 64 {
					want := i < n && ref.Valid(bits, off, i)
					if got := w>>i&1 != 0; got != want {
						t.Fatalf("n=%d off=%d size=%d: bit %d is %v, want %v", n, off, size, i, got, want)
					}
				}
			}
		}
	}
	for _, m := range [][]Mask{nil, {Select(nil)}, {Valid(nil, 0), Valid(nil, 0)}} {
		if _, ok := shortWord(3, m); ok {
			t.Fatalf("shortWord accepted %d masks %v", len(m), m)
		}
	}
	if w, ok := shortWord(5, []Mask{Valid(nil, 3)}); !ok || w != 31 {
		t.Fatalf("nil bitmap: %b %v", w, ok)
	}
	if _, ok := shortWord(65, []Mask{Valid(nil, 0)}); ok {
		t.Fatal("accepted 65 elements")
	}
	if _, ok := shortWord(3, []Mask{Valid(make([]byte, 8), math.MaxInt-1)}); ok {
		t.Fatal("accepted an offset near MaxInt")
	}
}

// TestBitmapSpan checks bitmapSpan against checkMask, the general path it
// shortens: for every length up to 200, offsets up to 80 and near
// MaxInt, and bitmaps from one byte too short to 10 bytes more than the
// elements need, it must accept exactly the single bitmap Masks that
// checkMask accepts (for n > 0) and return the same span, pointer, length
// and capacity, and the same bit offset; it must decline no bitmap, a
// selection, and zero or two Masks.
func TestBitmapSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	accepts := func(n int, m []Mask) (bits []byte, off int, ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		bits, off, _, _ = checkMask(n, m, true)
		return bits, off, true
	}
	for n := 0; n <= 200; n++ {
		for k := 0; k <= 82; k++ {
			off, need := k, (k+n+7)/8
			if k > 80 { // offsets near MaxInt: no bitmap here covers them
				off, need = math.MaxInt-(k-81), 1
			}
			for extra := -1; extra <= 10; extra++ {
				size := need + extra
				if size < 0 {
					continue
				}
				bm := make([]byte, size)
				for i := range bm {
					bm[i] = byte(r.Uint32())
				}
				m := []Mask{Valid(bm, off)}
				got, goff, ok := bitmapSpan(n, m)
				want, woff, wok := accepts(n, m)
				if wok && n == 0 {
					wok = false // an empty input is left to the general path
				}
				if ok != wok {
					t.Fatalf("n=%d off=%d bitmap of %d bytes: bitmapSpan says %v, checkMask %v", n, off, size, ok, wok)
				}
				if !ok {
					continue
				}
				if goff != woff || len(got) != len(want) || cap(got) != cap(want) || &got[0] != &want[0] {
					t.Fatalf("n=%d off=%d bitmap of %d bytes: span of %d bytes (cap %d) at bit %d, checkMask's %d (cap %d) at bit %d, same start %v",
						n, off, size, len(got), cap(got), goff, len(want), cap(want), woff, &got[0] == &want[0])
				}
			}
		}
	}
	bm := make([]byte, 8)
	for _, m := range [][]Mask{nil, {Valid(nil, 0)}, {Select(nil)}, {Valid(bm, 0).Select([]uint32{1})}, {Valid(bm, 0), Valid(bm, 0)}} {
		if _, _, ok := bitmapSpan(3, m); ok {
			t.Fatalf("bitmapSpan accepted %d masks %v", len(m), m)
		}
	}
}

// TestSelectedCheckedChunks runs the selected exact sums with chunks of a
// few entries, so that every chunk boundary of selExact
// is crossed, on values at the int64 and uint64 extremes, with and
// without a bitmap, against math/big through the reference.
func TestSelectedCheckedChunks(t *testing.T) {
	defer func(c int) { kernel.SelSplitChunk = c }(kernel.SelSplitChunk)
	r := rand.New(rand.NewPCG(3, 4))
	for _, chunk := range []int{1, 2, 3, 5, 1 << 30} {
		kernel.SelSplitChunk = chunk
		for n := 1; n < 40; n++ {
			xi := make([]int64, n)
			xu := make([]uint64, n)
			for i := range n {
				switch r.IntN(4) {
				case 0:
					xi[i], xu[i] = math.MaxInt64, math.MaxUint64
				case 1:
					xi[i], xu[i] = math.MinInt64, 1<<63
				default:
					xi[i], xu[i] = int64(r.Uint64()), r.Uint64()
				}
			}
			sel := testkit.Selection(r, n, 2*n)
			bits := testkit.Bitmap(r, n, 5, 0.3)
			for _, m := range []ref.Mask{{Sel: sel, HasSel: true}, {Bits: bits, Off: 5, Sel: sel, HasSel: true}} {
				mk := Select(sel)
				if m.Bits != nil {
					mk = Valid(bits, 5).Select(sel)
				}
				ws, wo := ref.SumCheckedSigned(xi, m)
				if g := SumChecked(xi, mk); g.Sum != ws || g.Overflowed != wo {
					t.Fatalf("chunk %d n=%d int64: %+v, want %d %v", chunk, n, g, ws, wo)
				}
				us, uo := ref.SumCheckedUnsigned(xu, m)
				if g := SumCheckedUint(xu, mk); g.Sum != us || g.Overflowed != uo {
					t.Fatalf("chunk %d n=%d uint64: %+v, want %d %v", chunk, n, g, us, uo)
				}
			}
		}
	}
}
