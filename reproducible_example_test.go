package quiver_test

import (
	"fmt"
	"math"
	"slices"

	"github.com/quiverlabs/quiver"
)

func ExampleSumReproducible() {
	x := []float64{1e16, 1, -1e16, 0.5, 1e-300}
	// The plain loop loses the 1 to the rounding of 1e16+1; the exact sum,
	// rounded once, keeps it, in every order and on every backend.
	var loop float64
	for _, v := range x {
		loop += v
	}
	y := slices.Clone(x)
	slices.Reverse(y)
	fmt.Println(loop, quiver.SumReproducible(x), quiver.SumReproducible(y))
	// Nulls and selections follow Sum's rules.
	valid := []byte{0b11101}
	fmt.Println(quiver.SumReproducible(x, quiver.Valid(valid, 0)))
	fmt.Println(quiver.SumReproducible([]float64{math.Inf(1), 2}), quiver.SumReproducible([]float64{math.Inf(1), math.Inf(-1)}))
	// Output:
	// 0.5 1.5 1.5
	// 0.5
	// +Inf NaN
}

func ExampleSumReproducibleState() {
	x := make([]float64, 100_000)
	for i := range x {
		x[i] = math.Sin(float64(i)) * math.Pow(10, float64(i%30-15))
	}
	// Batches fed to separate states, merged in any order, and a parallel
	// feed all give the bits of one call.
	var a, b, c quiver.SumReproducibleState[float64]
	a.Add(x[:30_000])
	b.Add(x[30_000:70_000])
	c.Add(x[70_000:])
	c.Merge(&a)
	c.Merge(&b)
	var p quiver.SumReproducibleState[float64]
	p.AddParallel(x, 4)
	one := quiver.SumReproducible(x)
	fmt.Println(c.Sum() == one, p.Sum() == one)
	// Output: true true
}
