package quiver_test

import (
	"fmt"
	"math"

	"github.com/quiverlabs/quiver"
)

func ExampleMask() {
	x := []float64{1, 2, 3, 4, 5}
	// The zero Mask, like no Mask, lets every element take part.
	fmt.Println(quiver.Sum(x, quiver.Mask{}))
	// A Mask built once serves every reduction over the same rows: here
	// element 1 is null and the selection keeps rows 4, 1 and 0.
	m := quiver.Valid([]byte{0b11101}, 0).Select([]uint32{4, 1, 0})
	fmt.Println(quiver.Sum(x, m), quiver.CountValid(len(x), m))
	// Output:
	// 15
	// 6 2
}

func ExampleSummary() {
	readings := []float32{12.5, float32(math.NaN()), -4, 7}
	valid := []byte{0b1101} // the NaN is null: it does not reach Min or Max
	s := quiver.Summarize(readings, quiver.Valid(valid, 0))
	fmt.Println(s.Min, s.Max, s.Count, s.Nulls)
	// A participating NaN makes Min and Max the canonical NaN.
	s = quiver.Summarize(readings)
	fmt.Println(s.Min, s.Max, s.Count, s.Nulls)
	// Output:
	// -4 12.5 3 1
	// NaN NaN 4 0
}

func ExampleCheckedSum() {
	var r quiver.CheckedSum[int64] = quiver.SumChecked([]int8{-128, -128, 127})
	// Narrow elements are summed in int64, so nothing overflows here.
	fmt.Println(r.Sum, r.Overflowed)
	u := quiver.SumCheckedUint([]uint64{math.MaxUint64, 1})
	// On overflow Sum holds the wrapped sum, as SumUint returns it.
	fmt.Println(u.Sum, u.Overflowed, u.Sum == quiver.SumUint([]uint64{math.MaxUint64, 1}))
	// Output:
	// -129 false
	// 0 true true
}

// spread is the distance between the smallest and the largest valid
// element of any numeric column: Number is the constraint of every quiver
// reduction, so generic code passes its own type parameter on.
func spread[T quiver.Number](x []T, m ...quiver.Mask) T {
	lo, hi := quiver.MinMax(x, m...)
	return hi - lo
}

func ExampleNumber() {
	fmt.Println(spread([]int16{4, -2, 9}))
	fmt.Println(spread([]float64{1.5, 2.5, 100}, quiver.Valid([]byte{0b011}, 0)))
	fmt.Println(spread([]uint32{7, 3}))
	// Output:
	// 11
	// 1
	// 4
}

func ExampleBackendInfo() {
	// The backends this CPU can run, most preferred first: the first is
	// the one a program starts with, the last the scalar reference, which
	// every build has.
	var usable []string
	for _, b := range quiver.Backends() {
		if b.Available {
			usable = append(usable, b.Name)
		}
	}
	fmt.Println(usable[0] == quiver.ActiveBackend().Name, usable[len(usable)-1])
	// Output: true scalar
}

func ExampleFloatPolicy() {
	// A backend's layout fixes the order of a float Sum's additions
	// (ADR-013): blocks of Accumulators × Lanes elements.
	for _, b := range quiver.Backends() {
		p := b.Float64
		if b.Name == "scalar" {
			fmt.Printf("%s: %d×%d, the strict left fold\n", b.Name, p.Accumulators, p.Lanes)
		}
	}
	// Output: scalar: 1×1, the strict left fold
}
