package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/oracle"
)

// TestBlockSum compares BlockSum with the ADR-013 oracle for A = 4 and
// every lane count a policy has, at every length it takes, bit for bit
// (NaN as a class: the payload is unspecified): random magnitudes over
// 2^-60..2^60 (so the order shows in the rounding), columns of ±0 (the
// accumulators' +0.0 start that BlockSum leaves out), and NaN and ±Inf
// at random places.
func TestBlockSum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, w := range []int{2, 4, 8, 16} {
		p := oracle.Policy{A: 4, W: w}
		for n := 4 * w; n < 8*w; n++ {
			for trial := range 200 {
				x := make([]float64, n)
				for i := range x {
					switch trial % 4 {
					case 0, 1:
						x[i] = r.NormFloat64() * math.Exp2(float64(r.IntN(120)-60))
					case 2:
						x[i] = math.Copysign(0, float64(r.IntN(2)*2-1))
					case 3:
						x[i] = r.NormFloat64()
						switch r.IntN(8) {
						case 0:
							x[i] = math.NaN()
						case 1:
							x[i] = math.Inf(1)
						case 2:
							x[i] = math.Inf(-1)
						}
					}
				}
				if got, want := BlockSum(x, w), oracle.Sum(x, nil, 0, p); !sameSum(got, want) {
					t.Fatalf("float64 w=%d n=%d trial %d: BlockSum %v (%#x), oracle %v (%#x)", w, n, trial, got, math.Float64bits(got), want, math.Float64bits(want))
				}
				y := make([]float32, n)
				for i, v := range x {
					y[i] = float32(v)
				}
				if got, want := BlockSum(y, w), oracle.Sum(y, nil, 0, p); !sameSum(float64(got), float64(want)) {
					t.Fatalf("float32 w=%d n=%d trial %d: BlockSum %v, oracle %v", w, n, trial, got, want)
				}
			}
		}
	}
}

// sameSum compares two sums bit for bit, any NaN equal to any NaN.
func sameSum(a, b float64) bool {
	if a != a || b != b {
		return a != a && b != b
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
