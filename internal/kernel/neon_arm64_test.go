//go:build arm64 && !purego

package kernel

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestNEONChunking lowers the per-call limits of the checked-sum and count
// kernels so that the loops splitting long inputs into several calls run
// on test-sized inputs.
func TestNEONChunking(t *testing.T) {
	if !hasISA(NEON) {
		t.Skip("no NEON")
	}
	defer func(s, c int) { maxSplitIters, maxCountBlocks = s, c }(maxSplitIters, maxCountBlocks)
	maxSplitIters, maxCountBlocks = 1, 1
	r := rand.New(rand.NewPCG(8, 8))
	for _, n := range []int{0, 7, 8, 9, 16, 17, 64, 100, 1000, 4096 + 13} {
		for _, off := range []int{0, 3} {
			bits := testkit.Bitmap(r, n, off, 0.4)
			m := ref.Mask{Bits: bits, Off: off}
			xi := testkit.Values[int64](r, n, testkit.Plain)
			for _, b := range [][]byte{nil, bits} {
				m.Bits = b
				ws, wo := ref.SumCheckedSigned(xi, m)
				if s, o := neonCheckedI64(xi, b, off).Int64(); s != ws || o != wo {
					t.Fatalf("n=%d off=%d bitmap=%v: neonCheckedI64 = %d %v, reference %d %v", n, off, b != nil, s, o, ws, wo)
				}
				xu := testkit.Values[uint64](r, n, testkit.Plain)
				us, uo := ref.SumCheckedUnsigned(xu, m)
				if s, o := neonCheckedU64(xu, b, off).Uint64(); s != us || o != uo {
					t.Fatalf("n=%d off=%d bitmap=%v: neonCheckedU64 = %d %v, reference %d %v", n, off, b != nil, s, o, us, uo)
				}
			}
			m.Bits = bits
			if got, want := neonCountValid(bits, off, n), ref.CountValid(n, m); got != want {
				t.Fatalf("n=%d off=%d: neonCountValid = %d, reference %d", n, off, got, want)
			}
		}
	}
}

// TestNEONNarrowRuns checks the 8- and 16-bit sums across several runs of
// their narrow accumulators (128 and 2^15 iterations of 64 bytes) with the
// extreme values that fill those lanes fastest.
func TestNEONNarrowRuns(t *testing.T) {
	if !hasISA(NEON) {
		t.Skip("no NEON")
	}
	t.Run("int8", func(t *testing.T) { narrowRuns[int8](t, 3*128*64+77) })
	t.Run("uint8", func(t *testing.T) { narrowRuns[uint8](t, 3*128*64+77) })
	t.Run("int16", func(t *testing.T) { narrowRuns[int16](t, 2*(1<<15)*32+77) })
	t.Run("uint16", func(t *testing.T) { narrowRuns[uint16](t, 2*(1<<15)*32+77) })
}

func narrowRuns[T constraints.Integer](t *testing.T, n int) {
	r := rand.New(rand.NewPCG(9, uint64(num.KindOf[T]())))
	lo, hi := num.LowestOf[T](), num.MaxOf[T]()
	for _, fill := range []string{"lowest", "max", "random"} {
		x := make([]T, n)
		for i := range x {
			switch fill {
			case "lowest":
				x[i] = lo
			case "max":
				x[i] = hi
			default:
				x[i] = T(r.Uint64())
			}
		}
		for _, bits := range [][]byte{nil, testkit.Bitmap(r, n, 3, 0.1)} {
			m := ref.Mask{Bits: bits, Off: 3}
			if num.LowestOf[T]() < 0 {
				if got, want := uint64(neonSumInt[T, int64](x, bits, 3)), uint64(ref.SumInt[T, int64](x, m)); got != want {
					t.Errorf("%s, bitmap %v: sum %d, reference %d", fill, bits != nil, int64(got), int64(want))
				}
			} else if got, want := neonSumInt[T, uint64](x, bits, 3), ref.SumInt[T, uint64](x, m); got != want {
				t.Errorf("%s, bitmap %v: sum %d, reference %d", fill, bits != nil, got, want)
			}
		}
	}
}
