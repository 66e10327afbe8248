package quiverarrow_test

import (
	"fmt"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/quiverarrow"
)

func ExampleSum() {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]float64{1.5, 2.25, 0, 4}, []bool{true, true, false, true})
	prices := b.NewFloat64Array()
	defer prices.Release()

	total, err := quiverarrow.Sum[float64](prices)
	fmt.Println(total, err)

	// A slice keeps its offset: rows 1 and 2 of prices.
	tail := array.NewSlice(prices, 1, 3)
	defer tail.Release()
	total, err = quiverarrow.Sum[float64](tail)
	fmt.Println(total, err)

	// The wrong type is an error, not a panic.
	_, err = quiverarrow.Sum[float32](prices)
	fmt.Println(err)
	// Output:
	// 7.75 <nil>
	// 2.25 <nil>
	// type error: quiverarrow: float64 array read as float32: its values are float64
}

func ExampleSumReproducible() {
	// The same column cut in two different ways: the reproducible sum
	// has the same bits for both, on every CPU.
	build := func(cuts ...[]float64) *arrow.Chunked {
		var chunks []arrow.Array
		for _, c := range cuts {
			b := array.NewFloat64Builder(memory.DefaultAllocator)
			b.AppendValues(c, nil)
			chunks = append(chunks, b.NewArray())
			b.Release()
		}
		return arrow.NewChunked(arrow.PrimitiveTypes.Float64, chunks)
	}
	a := build([]float64{0.1, 0.2}, []float64{0.3, 1e16, -1e16})
	b := build([]float64{0.1}, []float64{0.2, 0.3, 1e16}, []float64{-1e16})
	defer a.Release()
	defer b.Release()
	x, _ := quiverarrow.SumReproducible[float64](a.Chunks()...)
	y, _ := quiverarrow.SumReproducible[float64](b.Chunks()...)
	fmt.Println(x, x == y)
	// The float sum in order loses the small values against 1e16.
	s, _ := quiverarrow.Sum[float64](a.Chunks()...)
	fmt.Println(s)
	// Output:
	// 0.6 true
	// 0
}

func ExampleSummarize() {
	dt := &arrow.TimestampType{Unit: arrow.Second, TimeZone: "UTC"}
	b := array.NewTimestampBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for _, day := range []int{3, 1, 2} {
		b.Append(arrow.Timestamp(time.Date(2024, 5, day, 12, 0, 0, 0, time.UTC).Unix()))
	}
	b.AppendNull()
	events := b.NewArray()
	defer events.Release()

	s, err := quiverarrow.Summarize[arrow.Timestamp](events)
	if err != nil {
		panic(err)
	}
	fmt.Println("first:", s.Min.ToTime(dt.Unit).Format(time.DateTime))
	fmt.Println("last: ", s.Max.ToTime(dt.Unit).Format(time.DateTime))
	fmt.Println("count:", s.Count, "nulls:", s.Nulls)
	// Output:
	// first: 2024-05-01 12:00:00
	// last:  2024-05-03 12:00:00
	// count: 3 nulls: 1
}

func ExampleSumChecked() {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{1 << 62, 1 << 62}, nil)
	first := b.NewArray()
	b.AppendValues([]int64{-(1 << 62)}, nil)
	second := b.NewArray()
	col := arrow.NewChunked(arrow.PrimitiveTypes.Int64, []arrow.Array{first, second})
	defer col.Release()
	first.Release()
	second.Release()

	// The first chunk alone leaves int64; the column's sum does not.
	alone, _ := quiverarrow.SumChecked[int64](col.Chunk(0))
	whole, _ := quiverarrow.SumChecked[int64](col.Chunks()...)
	fmt.Printf("%+v\n%+v\n", alone, whole)
	// Output:
	// {Sum:-9223372036854775808 Overflowed:true}
	// {Sum:4611686018427387904 Overflowed:false}
}

func ExampleAddColumn() {
	schema := arrow.NewSchema([]arrow.Field{{Name: "reading", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	var batches []arrow.RecordBatch
	for k := range 3 { // three batches of 4 rows, the last row of each null
		col := b.Field(0).(*array.Float64Builder)
		col.AppendValues([]float64{float64(k + 1), 0.5, 0.25, 0}, []bool{true, true, true, false})
		batches = append(batches, b.NewRecordBatch())
	}
	rdr, err := array.NewRecordReader(schema, batches)
	if err != nil {
		panic(err)
	}
	defer rdr.Release()

	// The column is reduced batch by batch as it is read.
	var s quiver.SummaryState[float64]
	if err := quiverarrow.AddColumn(&s, rdr, 0); err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", s.Summary())
	// Output:
	// {Min:0.25 Max:3 Count:9 Nulls:3}
}

func ExampleValues() {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int32{5, -1, 7, 9, 2}, []bool{true, false, true, true, true})
	arr := b.NewArray()
	defer arr.Release()

	// The values and the null mask, for any quiver call: here a selection.
	x, m, err := quiverarrow.Values[int32](arr)
	if err != nil {
		panic(err)
	}
	fmt.Println(quiver.SumInt(x, m.Select([]uint32{0, 1, 3})))
	// Output:
	// 14
}
