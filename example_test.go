package quiver_test

import (
	"fmt"
	"math"

	"github.com/quiverlabs/quiver"
)

func ExampleSum() {
	prices := []float64{1.5, 2.25, math.NaN(), 4}
	// Element 2 is null (bit 2 clear), so its NaN never reaches the sum.
	valid := []byte{0b1011}
	fmt.Println(quiver.Sum(prices, quiver.Valid(valid, 0)))
	// Output: 7.75
}

func ExampleSumInt() {
	deltas := []int8{100, 100, 100, -5}
	fmt.Println(quiver.SumInt(deltas)) // widened to int64: no int8 overflow
	// Output: 295
}

func ExampleSumUint() {
	pixels := []uint8{255, 255, 255}
	fmt.Println(quiver.SumUint(pixels))
	// Output: 765
}

func ExampleMin() {
	temps := []float64{21.5, -3, math.NaN(), 8}
	fmt.Println(quiver.Min(temps[:2], quiver.Mask{}))
	fmt.Println(quiver.Min(temps)) // a NaN participates: canonical NaN
	fmt.Println(quiver.Min([]float64{}) == math.MaxFloat64)
	// Output:
	// -3
	// NaN
	// true
}

func ExampleMax() {
	ticks := []int32{7, 42, -1, 99}
	valid := []byte{0b0111} // the 99 is null
	fmt.Println(quiver.Max(ticks, quiver.Valid(valid, 0)))
	// Output: 42
}

func ExampleMinMax() {
	negZero := math.Copysign(0, -1)
	lo, hi := quiver.MinMax([]float64{negZero, 0, 3})
	// Between -0 and +0 the first encountered wins.
	fmt.Println(math.Signbit(lo), hi)
	// Output: true 3
}

func ExampleSummarize() {
	x := []float64{3, 1, 4, 1, 5, 9, 2, 6}
	valid := []byte{0b11011110} // elements 0 and 5 are null
	s := quiver.Summarize(x, quiver.Valid(valid, 0))
	fmt.Printf("min %v max %v count %d nulls %d\n", s.Min, s.Max, s.Count, s.Nulls)
	// Output: min 1 max 6 count 6 nulls 2
}

func ExampleSummary_Empty() {
	s := quiver.Summarize([]float64{1, 2}, quiver.Valid([]byte{0}, 0))
	fmt.Println(s.Empty(), s.Nulls, s.Min == math.MaxFloat64)
	// Output: true 2 true
}

func ExampleSumChecked() {
	r := quiver.SumChecked([]int64{math.MaxInt64, 1})
	fmt.Println(r.Sum, r.Overflowed)
	r = quiver.SumChecked([]int64{math.MaxInt64, 1, -1}) // only the final sum matters
	fmt.Println(r.Sum, r.Overflowed)
	// Output:
	// -9223372036854775808 true
	// 9223372036854775807 false
}

func ExampleSumCheckedUint() {
	r := quiver.SumCheckedUint([]uint64{math.MaxUint64, 2})
	fmt.Println(r.Sum, r.Overflowed)
	// Output: 1 true
}

func ExampleCountValid() {
	valid := []byte{0b10110110, 0b1}
	fmt.Println(quiver.CountValid(9, quiver.Valid(valid, 0)))
	fmt.Println(quiver.CountValid(8, quiver.Valid(valid, 1))) // bits 1..8
	// Output:
	// 6
	// 6
}

func ExampleValid() {
	// An Arrow array's bitmap is used as it is, with the array's offset:
	// quiver.Valid(arr.NullBitmapBytes(), arr.Data().Offset()).
	// Here the slice starts at bit 3 of the bitmap, and bit 4 (element 1)
	// is clear.
	bitmap := []byte{0b11101000}
	x := []float64{10, 20, 30, 40, 50}
	fmt.Println(quiver.Sum(x, quiver.Valid(bitmap, 3)))
	// Output: 130
}

func ExampleSelect() {
	x := []float64{10, 20, 30, 40}
	// Selection order, duplicates counted once per entry.
	fmt.Println(quiver.Sum(x, quiver.Select([]uint32{3, 0, 3})))
	// Output: 90
}

func ExampleMask_Select() {
	x := []int64{10, 20, 30, 40}
	valid := []byte{0b1101} // element 1 is null
	s := quiver.Summarize(x, quiver.Valid(valid, 0).Select([]uint32{1, 2, 1}))
	fmt.Println(s.Min, s.Max, s.Count, s.Nulls)
	// Output: 30 30 1 2
}

func ExampleSetBackend() {
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	if err := quiver.SetBackend("scalar"); err != nil {
		panic(err)
	}
	// The scalar backend is the strict left fold: 0.1+0.2 first, then 0.3.
	fmt.Println(quiver.Sum([]float64{0.1, 0.2, 0.3}))
	fmt.Println(quiver.SetBackend("mmx"))
	// Output:
	// 0.6000000000000001
	// quiver: no backend "mmx" in this build
}

func ExampleActiveBackend() {
	b := quiver.ActiveBackend()
	fmt.Println(b.Available, b.Float64.Accumulators >= 1)
	// Output: true true
}

func ExampleBackends() {
	all := quiver.Backends()
	// The scalar reference is always compiled in, least preferred.
	last := all[len(all)-1]
	fmt.Println(last.Name, last.Available, last.Float64)
	// Output: scalar true {1 1}
}
