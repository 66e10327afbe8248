package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/testkit"
)

// TestFoldSelectedContinues holds FoldSelected to its contract: the
// selected valid elements added to s in selection order, the invalid ones
// skipped, whatever s is. A state's Sum continues from its carry, and a
// decoded state may carry any value, -0.0 included: from -0.0, a
// selection with no valid entry must give -0.0 back, which adding +0.0
// for an invalid entry would not.
func TestFoldSelectedContinues(t *testing.T) {
	foldSelectedContinues[float64](t)
	foldSelectedContinues[float32](t)
}

func foldSelectedContinues[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 404))
	starts := []T{T(math.Copysign(0, -1)), 0, 1.5, T(math.Inf(-1)), T(math.NaN())}
	for _, n := range []int{1, 7, 64, 65, 300} {
		x := testkit.Values[T](r, n, testkit.Mixed)
		for _, null := range []float64{0, 0.1, 0.5, 1} {
			for _, off := range []int{0, 3, 9} {
				bm := testkit.Bitmap(r, n, off, null)
				sel := testkit.Selection(r, n, r.IntN(2*n)+1)
				for _, s := range starts {
					want := s
					for _, i := range sel {
						if p := off + int(i); bm[p>>3]>>(p&7)&1 != 0 {
							want += x[i]
						}
					}
					got := FoldSelected(s, x, bm, off, sel)
					if testkit.Bits(got) != testkit.Bits(want) && !(got != got && want != want) {
						t.Errorf("%T n=%d nulls=%v off=%d from %v: %v (%#x), want %v (%#x)",
							s, n, null, off, s, got, testkit.Bits(got), want, testkit.Bits(want))
					}
				}
			}
		}
	}
}
