package num

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func (a Int128) big() *big.Int {
	v := new(big.Int).Lsh(big.NewInt(a.Hi), 64)
	return v.Add(v, new(big.Int).SetUint64(a.Lo))
}

// TestInt128 checks Int128 against math/big on random and boundary sums.
func TestInt128(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	edges := []uint64{0, 1, math.MaxInt64, 1 << 63, math.MaxUint64, math.MaxUint64 - 1}
	for round := 0; round < 200; round++ {
		var a Int128
		want := new(big.Int)
		for k := 0; k < 50; k++ {
			v := r.Uint64()
			if r.IntN(3) == 0 {
				v = edges[r.IntN(len(edges))]
			}
			switch r.IntN(3) {
			case 0:
				a = a.AddInt64(int64(v))
				want.Add(want, big.NewInt(int64(v)))
			case 1:
				a = a.AddUint64(v)
				want.Add(want, new(big.Int).SetUint64(v))
			default:
				a = a.Sub(0, v)
				want.Sub(want, new(big.Int).SetUint64(v))
			}
			if a.big().Cmp(want) != 0 {
				t.Fatalf("round %d step %d: got %v, want %v", round, k, a.big(), want)
			}
			if a.FitsInt64() != want.IsInt64() || a.FitsUint64() != want.IsUint64() {
				t.Fatalf("%v: FitsInt64 %v FitsUint64 %v", want, a.FitsInt64(), a.FitsUint64())
			}
		}
	}
}
