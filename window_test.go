package quiver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/ref"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// The windowed functions against the one-call functions over each
// window's sub-slice (bit for bit, float sums included: the same call on
// the same backend) and, for the exact reductions, against the reference;
// RunBounds against the grouped states.

// windowBounds draws boundaries over n rows: empty windows, one window,
// windows of every length up to a few blocks.
func windowBounds(r *rand.Rand, n int) [][]int {
	out := [][]int{nil, {0}, {0, n}, {n, n}}
	for range 4 {
		b := []int{r.IntN(n/4 + 1)}
		for b[len(b)-1] < n {
			step := r.IntN(3 * 64)
			if r.IntN(5) == 0 {
				step = 0
			}
			b = append(b, min(n, b[len(b)-1]+step))
		}
		if r.IntN(2) == 0 {
			b = b[:len(b)-1-r.IntN(len(b)/2+1)+1]
		}
		out = append(out, b)
	}
	return out
}

func testWindowsFloat[T constraints.Float](t *testing.T, r *rand.Rand) {
	for _, n := range []int{0, 1, 63, 64, 65, 700, 3000} {
		for _, withBits := range []bool{false, true} {
			x := testkit.Values[T](r, n, testkit.Style(r.IntN(4)))
			off := 8*r.IntN(4) + 1 + r.IntN(7)
			var ms []Mask
			var bits []byte
			if withBits {
				bits = testkit.Bitmap(r, n, off, 0.2)
				ms = []Mask{Valid(bits, off)}
			}
			for _, bounds := range windowBounds(r, n) {
				desc := fmt.Sprintf("n=%d bits=%v bounds=%v", n, withBits, bounds)
				var sums, repro, mins, maxs, los, his []T
				var sums2 []Summary[T]
				sums = SumWindows(sums, x, bounds, ms...)
				repro = SumReproducibleWindows(repro, x, bounds, ms...)
				mins = MinWindows(mins, x, bounds, ms...)
				maxs = MaxWindows(maxs, x, bounds, ms...)
				los, his = MinMaxWindows(los, his, x, bounds, ms...)
				sums2 = SummarizeWindows(sums2, x, bounds, ms...)
				counts := CountValidWindows(nil, n, bounds, ms...)
				if len(sums) != max(0, len(bounds)-1) {
					t.Fatalf("%s: %d windows, want %d", desc, len(sums), len(bounds)-1)
				}
				for k := 1; k < len(bounds); k++ {
					a, b := bounds[k-1], bounds[k]
					var m []Mask
					rm := ref.Mask{}
					if withBits {
						m = []Mask{Valid(bits, off+a)}
						rm = ref.Mask{Bits: bits, Off: off + a}
					}
					xs := x[a:b]
					lo, hi, c, _ := ref.Summary(xs, rm)
					// A NaN sum compares as a class, as in TestDifferential:
					// Sum leaves its payload unspecified, and on wasm the
					// payload a NaN addition keeps can differ between two
					// compilations of the same fold.
					if !sameFloat(sums[k-1], Sum(xs, m...)) ||
						testkit.Bits(repro[k-1]) != testkit.Bits(SumReproducible(xs, m...)) ||
						testkit.Bits(mins[k-1]) != testkit.Bits(lo) || testkit.Bits(maxs[k-1]) != testkit.Bits(hi) ||
						testkit.Bits(los[k-1]) != testkit.Bits(lo) || testkit.Bits(his[k-1]) != testkit.Bits(hi) ||
						testkit.Bits(sums2[k-1].Min) != testkit.Bits(lo) || sums2[k-1].Count != c ||
						counts[k-1] != ref.CountValid(b-a, rm) {
						t.Fatalf("%s: window %d [%d:%d] disagrees with the one-call result", desc, k-1, a, b)
					}
				}
			}
		}
	}
}

func testWindowsInt[T constraints.Signed](t *testing.T, r *rand.Rand) {
	for _, n := range []int{0, 5, 64, 1000} {
		x := testkit.Values[T](r, n, testkit.Plain)
		off := 3 + r.IntN(60)
		bits := testkit.Bitmap(r, n, off, 0.3)
		for _, bounds := range windowBounds(r, n) {
			sums := SumIntWindows(nil, x, bounds, Valid(bits, off))
			checked := SumCheckedWindows(nil, x, bounds, Valid(bits, off))
			for k := 1; k < len(bounds); k++ {
				a, b := bounds[k-1], bounds[k]
				rm := ref.Mask{Bits: bits, Off: off + a}
				v, o := ref.SumCheckedSigned(x[a:b], rm)
				if sums[k-1] != ref.SumInt[T, int64](x[a:b], rm) || checked[k-1] != (CheckedSum[int64]{v, o}) {
					t.Fatalf("n=%d bounds=%v: window %d disagrees with the reference", n, bounds, k-1)
				}
			}
		}
	}
}

func testWindowsUint[T constraints.Unsigned](t *testing.T, r *rand.Rand) {
	for _, n := range []int{0, 5, 64, 1000} {
		x := testkit.Values[T](r, n, testkit.Plain)
		for _, bounds := range windowBounds(r, n) {
			sums := SumUintWindows(nil, x, bounds)
			checked := SumCheckedUintWindows(nil, x, bounds)
			for k := 1; k < len(bounds); k++ {
				a, b := bounds[k-1], bounds[k]
				v, o := ref.SumCheckedUnsigned(x[a:b], ref.Mask{})
				if sums[k-1] != ref.SumInt[T, uint64](x[a:b], ref.Mask{}) || checked[k-1] != (CheckedSum[uint64]{v, o}) {
					t.Fatalf("n=%d bounds=%v: window %d disagrees with the reference", n, bounds, k-1)
				}
			}
		}
	}
}

func TestWindows(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		r := rand.New(rand.NewPCG(5, 19))
		t.Run("float64", func(t *testing.T) { testWindowsFloat[float64](t, r) })
		t.Run("float32", func(t *testing.T) { testWindowsFloat[float32](t, r) })
		t.Run("int64", func(t *testing.T) { testWindowsInt[int64](t, r) })
		t.Run("int16", func(t *testing.T) { testWindowsInt[int16](t, r) })
		t.Run("uint64", func(t *testing.T) { testWindowsUint[uint64](t, r) })
		t.Run("uint8", func(t *testing.T) { testWindowsUint[uint8](t, r) })
	})
}

// TestRunBounds: the windows of sorted ids give what the grouped states
// give for the same rows (exact reductions), and the boundaries have one
// entry per group plus one.
func TestRunBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 19))
	for _, n := range []int{0, 1, 10, 100, 5000} {
		for _, groups := range []int{1, 2, 7, 300} {
			ids := make([]uint32, n)
			for i := range ids {
				ids[i] = uint32(r.IntN(groups))
			}
			slices.Sort(ids)
			x := testkit.Values[int64](r, n, testkit.Mixed)
			bounds := RunBounds(nil, ids, groups)
			if len(bounds) != groups+1 || bounds[0] != 0 || bounds[groups] != n {
				t.Fatalf("n=%d groups=%d: bounds %v", n, groups, bounds)
			}
			for g := range groups {
				for i := bounds[g]; i < bounds[g+1]; i++ {
					if ids[i] != uint32(g) {
						t.Fatalf("n=%d groups=%d: row %d of group %d has id %d", n, groups, i, g, ids[i])
					}
				}
			}
			var s GroupSummaryState[int64]
			var is GroupIntSumState[int64]
			s.Grow(groups)
			is.Grow(groups)
			s.Add(x, ids)
			is.Add(x, ids)
			if got, want := SummarizeWindows(nil, x, bounds), s.Summaries(nil); !slices.Equal(got, want) {
				t.Fatalf("n=%d groups=%d: windows %v, grouped %v", n, groups, got, want)
			}
			if got, want := SumCheckedWindows(nil, x, bounds), is.CheckedSums(nil); !slices.Equal(got, want) {
				t.Fatalf("n=%d groups=%d: windows %v, grouped %v", n, groups, got, want)
			}
		}
	}
}
