// Command nullcolumn reduces a column with nulls, the way an analytics engine
// would: a float64 column of readings where some rows are null (Arrow-style
// validity bitmap), a NaN hidden in a null slot, and a selection of rows.
// It prints each result and the backend that computed it.
//
//	go run ./examples/nullcolumn
package main

import (
	"fmt"
	"math"

	"github.com/quiverlabs/quiver"
)

func main() {
	// 20 readings; rows 3, 7 and 15 are null. Row 7 holds a NaN, which must
	// not leak into any result because the row is null.
	readings := make([]float64, 20)
	for i := range readings {
		readings[i] = float64(i%7) - 1.5
	}
	readings[7] = math.NaN()
	valid := []byte{0xFF, 0xFF, 0x0F} // all set for 20 rows ...
	for _, row := range []int{3, 7, 15} {
		valid[row/8] &^= 1 << (row % 8) // ... except the nulls
	}
	col := quiver.Valid(valid, 0)

	b := quiver.ActiveBackend()
	fmt.Printf("backend: %s (float64 sums: %d accumulators × %d lanes)\n",
		b.Name, b.Float64.Accumulators, b.Float64.Lanes)

	s := quiver.Summarize(readings, col)
	fmt.Printf("rows %d, valid %d, nulls %d\n", len(readings), quiver.CountValid(len(readings), col), s.Nulls)
	fmt.Printf("sum %g, min %g, max %g\n", quiver.Sum(readings, col), s.Min, s.Max)

	// A filter produced a selection vector: rows with an even index.
	var even []uint32
	for i := 0; i < len(readings); i += 2 {
		even = append(even, uint32(i))
	}
	sel := col.Select(even)
	fmt.Printf("even rows: sum %g, count %d\n", quiver.Sum(readings, sel), quiver.CountValid(len(readings), sel))

	// Integer column: exact sum with overflow detection.
	ids := []int64{math.MaxInt64 - 5, 3, 4}
	c := quiver.SumChecked(ids)
	fmt.Printf("checked int64 sum: %d (overflowed: %v)\n", c.Sum, c.Overflowed)
}
