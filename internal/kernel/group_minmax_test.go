package kernel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// groupSpecStep is the row rule of the min-only (max-only) table, written
// plainly: the empty mark takes the row (a NaN row as the canonical NaN),
// a NaN entry stays, a NaN row makes the entry the canonical NaN, and a
// strictly smaller (larger) row replaces the entry.
func groupSpecStep[T num.Number](a, v T, isMax bool) T {
	switch {
	case GroupIsEmpty(a) && v != v:
		return num.NaN[T]()
	case GroupIsEmpty(a):
		return v
	case a != a:
		return a
	case v != v:
		return num.NaN[T]()
	case !isMax && v < a, isMax && v > a:
		return v
	}
	return a
}

// TestGroupMinMaxDense checks GroupMinDense and GroupMaxDense (the
// generated kernels where this build has them, the Go loops otherwise)
// and the masked loops' dense form against the plain rule, row by row,
// from tables holding marks, NaNs, zeros and numbers, over the special
// values (a NaN with the mark's payload among them) and random ones, for
// lengths around the unrolled blocks, with an id out of range at a random
// row or none: the same rows taken and the same table bits.
func TestGroupMinMaxDense(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 19))
	t.Run("float32", func(t *testing.T) { testGroupMinMaxDense[float32](t, r) })
	t.Run("float64", func(t *testing.T) { testGroupMinMaxDense[float64](t, r) })
	t.Run("int32", func(t *testing.T) { testGroupMinMaxDense[int32](t, r) })
	t.Run("int64", func(t *testing.T) { testGroupMinMaxDense[int64](t, r) })
	t.Run("uint32", func(t *testing.T) { testGroupMinMaxDense[uint32](t, r) })
	t.Run("uint64", func(t *testing.T) { testGroupMinMaxDense[uint64](t, r) })
	t.Run("int8", func(t *testing.T) { testGroupMinMaxDense[int8](t, r) })
	t.Run("uint16", func(t *testing.T) { testGroupMinMaxDense[uint16](t, r) })
}

func testGroupMinMaxDense[T num.Number](t *testing.T, r *rand.Rand) {
	specials := testkit.Specials[T]()
	if num.IsFloat[T]() {
		specials = append(specials, GroupEmpty[T]()) // a row NaN with the mark's payload
	}
	draw := func() T {
		if r.IntN(3) == 0 {
			return specials[r.IntN(len(specials))]
		}
		return testkit.Values[T](r, 1, testkit.Mixed)[0]
	}
	for _, n := range []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000} {
		for _, groups := range []int{1, 2, 3, 5, 300} {
			for trial := range 6 {
				x := make([]T, n)
				ids := make([]uint32, n)
				for i := range x {
					x[i], ids[i] = draw(), uint32(r.IntN(groups))
				}
				if trial%2 == 1 && n > 0 {
					ids[r.IntN(n)] = uint32(groups + r.IntN(3)) // out of range
				}
				for _, isMax := range []bool{false, true} {
					acc := make([]T, groups)
					for g := range acc {
						switch {
						case num.IsFloat[T]() && r.IntN(3) == 0:
							acc[g] = GroupEmpty[T]()
						case num.IsFloat[T]() && r.IntN(8) == 0:
							acc[g] = num.NaN[T]()
						default:
							acc[g] = draw()
							if acc[g] != acc[g] {
								acc[g] = num.NaN[T]() // tables hold only the canonical NaN
							}
						}
					}
					want := append([]T(nil), acc...)
					wk := n
					for i, v := range x {
						g := ids[i]
						if int(g) >= groups {
							wk = i
							break
						}
						want[g] = groupSpecStep(want[g], v, isMax)
					}
					for _, impl := range []string{"dense", "go", "gostore"} {
						if impl == "gostore" && num.IsFloat[T]() {
							continue // the storing Go loops are for integer types
						}
						got := append([]T(nil), acc...)
						var k int
						switch {
						case impl == "dense" && isMax:
							k = GroupMaxDense(got, x, ids)
						case impl == "dense":
							k = GroupMinDense(got, x, ids)
						case impl == "gostore" && isMax:
							k = groupMaxStoreGo(got, x, ids)
						case impl == "gostore":
							k = groupMinStoreGo(got, x, ids)
						case isMax:
							k = groupMaxDenseGo(got, x, ids)
						default:
							k = groupMinDenseGo(got, x, ids)
						}
						what := fmt.Sprintf("%s max=%v n=%d groups=%d trial=%d", impl, isMax, n, groups, trial)
						if k != wk {
							t.Fatalf("%s: %d rows taken, want %d", what, k, wk)
						}
						for g := range got {
							if testkit.Bits(got[g]) != testkit.Bits(want[g]) {
								t.Fatalf("%s: group %d: %v (%#x), want %v (%#x)", what, g, got[g], testkit.Bits(got[g]), want[g], testkit.Bits(want[g]))
							}
						}
					}
					if wk == n {
						// The masked kernels' dense case (validated ids).
						got := append([]T(nil), acc...)
						if isMax {
							GroupMax(got, x, ids, nil, 0, nil, false)
						} else {
							GroupMin(got, x, ids, nil, 0, nil, false)
						}
						for g := range got {
							if testkit.Bits(got[g]) != testkit.Bits(want[g]) {
								t.Fatalf("masked max=%v n=%d: group %d: %v, want %v", isMax, n, g, got[g], want[g])
							}
						}
					}
				}
			}
		}
	}
	_ = math.NaN
}
