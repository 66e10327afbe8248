package quiverarrow

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// lengths are the array lengths the tests build: around quiver's short
// cut (64) and its float blocks, and a few long ones.
func lengths(t *testing.T) []int {
	if testing.Short() {
		return []int{0, 1, 7, 63, 64, 65, 300, 1000}
	}
	return []int{0, 1, 7, 8, 9, 31, 63, 64, 65, 127, 128, 129, 300, 1000, 4099, 20000}
}

// columns builds the test columns of one type: arrays from a builder with
// and without nulls, all null; slices of them at every offset mod 8 and
// slices of those slices; arrays from array.NewData at every offset with
// junk under the nulls, an unknown null count, and no bitmap; and chunked
// columns of all of these, with empty chunks among them.
func columns[T elem](t *testing.T, dt arrow.DataType, g gen[T]) []column {
	r := rand.New(rand.NewPCG(uint64(dt.ID()), 7))
	var cols []column
	add := func(name string, chunks ...arrow.Array) {
		cols = append(cols, column{fmt.Sprintf("%s/%s", dt, name), chunks})
	}
	var pieces []arrow.Array // single arrays, for the chunked columns
	for _, n := range lengths(t) {
		for _, p := range []float64{0, 0.2, 1} {
			a := build(r, dt, g, n, p)
			add(fmt.Sprintf("builder n=%d nulls=%.1f", n, p), a)
			pieces = append(pieces, a)
		}
		a := build(r, dt, g, n+16, 0.3)
		for off := range 8 {
			s := array.NewSlice(a, int64(off), int64(off+n))
			add(fmt.Sprintf("slice n=%d off=%d", n, off), s)
			pieces = append(pieces, s)
			if n > 2 {
				ss := array.NewSlice(s, int64(off%3+1), int64(n-1))
				add(fmt.Sprintf("slice of slice n=%d off=%d+%d", n, off, off%3+1), ss)
			}
		}
		for off := range 9 {
			add(fmt.Sprintf("NewData n=%d off=%d", n, off), raw(r, dt, g, n, off, 0.3, true, 0))
			add(fmt.Sprintf("NewData unknown null count n=%d off=%d", n, off), raw(r, dt, g, n, off, 0.3, true, array.UnknownNullCount))
			add(fmt.Sprintf("NewData no bitmap n=%d off=%d", n, off), raw(r, dt, g, n, off, 0, false, 0))
		}
	}
	empty := build(r, dt, g, 0, 0)
	for k := range 6 {
		var chunks []arrow.Array
		for range 2 + r.IntN(8) {
			if r.IntN(4) == 0 {
				chunks = append(chunks, empty)
			}
			chunks = append(chunks, pieces[r.IntN(len(pieces))])
		}
		chunks = append(chunks, empty)
		c := arrow.NewChunked(dt, chunks)
		add(fmt.Sprintf("chunked %d of %d chunks", k, len(chunks)), c.Chunks()...)
	}
	add("no chunks")
	return cols
}

func testFloat[T floatElem](t *testing.T, dt arrow.DataType) {
	for _, c := range columns(t, dt, floatGen[T]()) {
		checkSummary[T](t, c)
		checkFloatSum[T](t, c)
	}
}

func testSigned[T signedElem](t *testing.T, dt arrow.DataType, bits uint) {
	for _, c := range columns(t, dt, intGen[T](bits, true)) {
		checkSummary[T](t, c)
		checkSignedSum[T](t, c)
	}
}

func testUnsigned[T unsignedElem](t *testing.T, dt arrow.DataType, bits uint) {
	for _, c := range columns(t, dt, intGen[T](bits, false)) {
		checkSummary[T](t, c)
		checkUnsignedSum[T](t, c)
	}
}

// TestTypes runs every reduction on every supported Arrow type against
// the reference loops.
func TestTypes(t *testing.T) {
	tests := []struct {
		dt  arrow.DataType
		run func(*testing.T, arrow.DataType)
	}{
		{arrow.PrimitiveTypes.Int8, func(t *testing.T, dt arrow.DataType) { testSigned[int8](t, dt, 8) }},
		{arrow.PrimitiveTypes.Int16, func(t *testing.T, dt arrow.DataType) { testSigned[int16](t, dt, 16) }},
		{arrow.PrimitiveTypes.Int32, func(t *testing.T, dt arrow.DataType) { testSigned[int32](t, dt, 32) }},
		{arrow.PrimitiveTypes.Int64, func(t *testing.T, dt arrow.DataType) { testSigned[int64](t, dt, 64) }},
		{arrow.PrimitiveTypes.Uint8, func(t *testing.T, dt arrow.DataType) { testUnsigned[uint8](t, dt, 8) }},
		{arrow.PrimitiveTypes.Uint16, func(t *testing.T, dt arrow.DataType) { testUnsigned[uint16](t, dt, 16) }},
		{arrow.PrimitiveTypes.Uint32, func(t *testing.T, dt arrow.DataType) { testUnsigned[uint32](t, dt, 32) }},
		{arrow.PrimitiveTypes.Uint64, func(t *testing.T, dt arrow.DataType) { testUnsigned[uint64](t, dt, 64) }},
		{arrow.PrimitiveTypes.Float32, func(t *testing.T, dt arrow.DataType) { testFloat[float32](t, dt) }},
		{arrow.PrimitiveTypes.Float64, func(t *testing.T, dt arrow.DataType) { testFloat[float64](t, dt) }},
		{arrow.FixedWidthTypes.Date32, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Date32](t, dt, 32) }},
		{arrow.FixedWidthTypes.Date64, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Date64](t, dt, 64) }},
		{arrow.FixedWidthTypes.Time32ms, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Time32](t, dt, 32) }},
		{arrow.FixedWidthTypes.Time64ns, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Time64](t, dt, 64) }},
		{&arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Timestamp](t, dt, 64) }},
		{arrow.FixedWidthTypes.Duration_ns, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.Duration](t, dt, 64) }},
		{arrow.FixedWidthTypes.MonthInterval, func(t *testing.T, dt arrow.DataType) { testSigned[arrow.MonthInterval](t, dt, 32) }},
	}
	for _, tt := range tests {
		t.Run(tt.dt.String(), func(t *testing.T) { tt.run(t, tt.dt) })
	}
}
