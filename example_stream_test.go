package quiver_test

import (
	"fmt"
	"math"

	"github.com/quiverlabs/quiver"
)

func ExampleSumState() {
	// Three record batches of one column; the middle one has a null.
	batches := [][]float64{{0.1, 0.2}, {0.3, math.NaN(), 0.4}, {0.5}}
	valid := [][]byte{nil, {0b101}, nil}

	var s quiver.SumState[float64]
	for i, b := range batches {
		s.Add(b, quiver.Valid(valid[i], 0))
	}
	// The same bits as one Sum over the joined column.
	joined := []float64{0.1, 0.2, 0.3, 0.4, 0.5}
	fmt.Println(s.Sum() == quiver.Sum(joined), s.Sum())
	// Output: true 1.5
}

func ExampleSumState_Merge() {
	// Each piece is summed on its own (say on another machine), then the
	// states merge in input order.
	var a, b quiver.SumState[float64]
	a.Add([]float64{1, 2, 3})
	b.Add([]float64{4, 5})
	a.Merge(&b)
	fmt.Println(a.Sum())
	// Output: 15
}

func ExampleSumState_AddParallel() {
	x := make([]float64, 1<<20)
	for i := range x {
		x[i] = 0.5
	}
	var s quiver.SumState[float64]
	s.AddParallel(x, 0) // GOMAXPROCS workers; the same bits for any count
	fmt.Println(s.Sum())
	// Output: 524288
}

func ExampleIntSumState() {
	var s quiver.IntSumState[int64]
	s.Add([]int64{math.MaxInt64, math.MaxInt64}) // the running sum leaves int64...
	fmt.Println(s.Checked().Overflowed, s.Exact())
	s.Add([]int64{-math.MaxInt64}) // ...and comes back: still exact
	fmt.Println(s.Checked())
	// Output:
	// true 18446744073709551614
	// {9223372036854775807 false}
}

func ExampleIntSumState_AddParallel() {
	x := make([]int32, 1<<20)
	for i := range x {
		x[i] = int32(i)
	}
	var s quiver.IntSumState[int32]
	s.AddParallel(x, 2)
	fmt.Println(s.Sum())
	// Output: 549755289600
}

func ExampleUintSumState() {
	var s quiver.UintSumState[uint64]
	s.Add([]uint64{math.MaxUint64})
	s.Add([]uint64{1})
	fmt.Println(s.Sum(), s.Checked().Overflowed, s.Exact())
	// Output: 0 true 18446744073709551616
}

func ExampleSummaryState() {
	// A chunked column: the first chunk is all null, the second has a
	// lone +Inf. Chunk minimums would give MaxFloat64 for the first one;
	// the state knows it saw nothing there.
	var s quiver.SummaryState[float64]
	s.Add([]float64{7, 8}, quiver.Valid([]byte{0}, 0))
	s.Add([]float64{math.Inf(1)})
	fmt.Printf("%+v\n", s.Summary())
	// Output: {Min:+Inf Max:+Inf Count:1 Nulls:2}
}

func ExampleSummaryState_Merge() {
	var a, b quiver.SummaryState[int16]
	a.Add([]int16{5, -2, 9})
	b.Add([]int16{12, 0})
	a.Merge(&b)
	fmt.Println(a.MinMax())
	// Output: -2 12
}

func ExampleCountState() {
	var c quiver.CountState
	c.Add(8, quiver.Valid([]byte{0b1111_0000}, 0))
	c.Add(3) // no bitmap: all valid
	fmt.Println(c.Count())
	// Output: 7
}
