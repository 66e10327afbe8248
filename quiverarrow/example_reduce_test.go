package quiverarrow_test

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/quiverarrow"
)

func ExampleSumInt() {
	// Response times in milliseconds, one of them missing.
	dt := &arrow.DurationType{Unit: arrow.Millisecond}
	b := array.NewDurationBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	b.AppendValues([]arrow.Duration{120, 80, 0, 1300}, []bool{true, true, false, true})
	waits := b.NewArray()
	defer waits.Release()

	// A Duration sum is a count of the column's unit.
	ms, err := quiverarrow.SumInt[arrow.Duration](waits)
	fmt.Println(time.Duration(ms)*time.Millisecond, err)

	// Small integers are widened to int64: no int8 wrap-around.
	b8 := array.NewInt8Builder(memory.DefaultAllocator)
	defer b8.Release()
	b8.AppendValues([]int8{100, 100, 100}, nil)
	small := b8.NewArray()
	defer small.Release()
	fmt.Println(quiverarrow.SumInt[int8](small))
	// Output:
	// 1.5s <nil>
	// 300 <nil>
}

func ExampleSumUint() {
	// A column in two chunks, as an *arrow.Chunked holds it.
	b := array.NewUint8Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]uint8{200, 0, 250}, []bool{true, false, true})
	first := b.NewArray()
	b.AppendValues([]uint8{255}, nil)
	second := b.NewArray()
	col := arrow.NewChunked(arrow.PrimitiveTypes.Uint8, []arrow.Array{first, second})
	defer col.Release()
	first.Release()
	second.Release()

	// The null is skipped and the sum is a uint64, not a uint8.
	fmt.Println(quiverarrow.SumUint[uint8](col.Chunks()...))
	// Output:
	// 705 <nil>
}

func ExampleSumCheckedUint() {
	b := array.NewUint64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]uint64{1 << 63, 1 << 62, 1 << 63}, nil)
	counters := b.NewArray()
	defer counters.Release()

	// The first two fit uint64; all three do not, and the sum says so.
	head := array.NewSlice(counters, 0, 2)
	defer head.Release()
	fits, _ := quiverarrow.SumCheckedUint[uint64](head)
	all, _ := quiverarrow.SumCheckedUint[uint64](counters)
	fmt.Printf("%+v\n%+v\n", fits, all)
	// Output:
	// {Sum:13835058055282163712 Overflowed:false}
	// {Sum:4611686018427387904 Overflowed:true}
}

func ExampleMin() {
	b := array.NewInt32Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int32{-100, 12, -3, 7}, []bool{false, true, true, true})
	depths := b.NewArray()
	defer depths.Release()

	// The null row is skipped, though its value slot holds -100.
	fmt.Println(quiverarrow.Min[int32](depths))

	// With no non-null value, Min is the largest int32: Summarize's
	// Count tells that case from a real minimum.
	b.AppendNulls(2)
	none := b.NewArray()
	defer none.Release()
	lo, _ := quiverarrow.Min[int32](none)
	s, _ := quiverarrow.Summarize[int32](none)
	fmt.Println(lo, s.Count)
	// Output:
	// -3 <nil>
	// 2147483647 0
}

func ExampleMax() {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]float64{21.5, 99, 23.25}, []bool{true, false, true})
	temps := b.NewArray()
	defer temps.Release()
	fmt.Println(quiverarrow.Max[float64](temps))

	// With no non-null value, Max is the lowest float64,
	// -math.MaxFloat64 (not -Inf).
	b.AppendNulls(3)
	none := b.NewArray()
	defer none.Release()
	hi, _ := quiverarrow.Max[float64](none)
	fmt.Println(hi == -math.MaxFloat64)
	// Output:
	// 23.25 <nil>
	// true
}

func ExampleMinMax() {
	// Delivery dates, in two chunks, one of them null.
	b := array.NewDate32Builder(memory.DefaultAllocator)
	defer b.Release()
	day := func(m time.Month, d int) arrow.Date32 {
		return arrow.Date32FromTime(time.Date(2024, m, d, 0, 0, 0, 0, time.UTC))
	}
	b.AppendValues([]arrow.Date32{day(3, 14), 0, day(1, 2)}, []bool{true, false, true})
	first := b.NewArray()
	defer first.Release()
	b.AppendValues([]arrow.Date32{day(6, 30), day(2, 29)}, nil)
	second := b.NewArray()
	defer second.Release()

	// One pass over both chunks; the results are arrow.Date32.
	lo, hi, err := quiverarrow.MinMax[arrow.Date32](first, second)
	if err != nil {
		panic(err)
	}
	fmt.Println(lo.FormattedString(), hi.FormattedString())
	// Output:
	// 2024-01-02 2024-06-30
}

func ExampleCountValid() {
	b := array.NewStringBuilder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]string{"ok", "", "retry", ""}, []bool{true, false, true, false})
	status := b.NewArray()
	defer status.Release()
	fmt.Println(quiverarrow.CountValid(status))

	// Any type with a validity bitmap, over several chunks: an array of
	// type Null counts as all null.
	empty := array.NewNull(5)
	defer empty.Release()
	fmt.Println(quiverarrow.CountValid(status, empty))
	// Output:
	// 2 <nil>
	// 2 <nil>
}

func ExampleAdd() {
	// Batches of a column that arrive one at a time.
	var total quiver.IntSumState[int64]
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{40, 2}, nil)
	first := b.NewArray()
	defer first.Release()
	b.AppendValues([]int64{7, 99, 1}, []bool{true, false, true})
	second := b.NewArray()
	defer second.Release()
	for _, arr := range []arrow.Array{first, second} {
		if err := quiverarrow.Add(&total, arr); err != nil { // T is inferred from &total
			panic(err)
		}
	}
	fmt.Println(total.Sum()) // the null 99 is skipped

	// A batch of another type is an error and leaves the state as it was.
	fb := array.NewFloat64Builder(memory.DefaultAllocator)
	defer fb.Release()
	fb.AppendValues([]float64{1e6}, nil)
	wrong := fb.NewArray()
	defer wrong.Release()
	err := quiverarrow.Add(&total, wrong)
	fmt.Println(errors.Is(err, arrow.ErrType), total.Sum())
	// Output:
	// 50
	// true 50
}

func ExampleAdder() {
	// quiver's SumState and SummaryState of float64 are both
	// Adder[float64], so one loop can feed a batch to each of them.
	var sum quiver.SumState[float64]
	var summary quiver.SummaryState[float64]
	states := []quiverarrow.Adder[float64]{&sum, &summary}

	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]float64{2.5, 0, 4, 1.5}, []bool{true, false, true, true})
	batch := b.NewArray()
	defer batch.Release()
	for _, s := range states {
		if err := quiverarrow.Add(s, batch); err != nil {
			panic(err)
		}
	}
	fmt.Println(sum.Sum())
	fmt.Printf("%+v\n", summary.Summary())
	// Output:
	// 8
	// {Min:1.5 Max:4 Count:3 Nulls:1}
}

func ExampleNewKeys() {
	// A dictionary-encoded key column, with a different dictionary in
	// each batch: the ids follow the values, not the dictionary indices.
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	batch := func(vals ...string) arrow.Array {
		b := array.NewDictionaryBuilder(memory.DefaultAllocator, dt).(*array.BinaryDictionaryBuilder)
		defer b.Release()
		for _, v := range vals {
			if v == "" {
				b.AppendNull()
				continue
			}
			if err := b.AppendString(v); err != nil {
				panic(err)
			}
		}
		return b.NewArray()
	}
	first, second := batch("eu", "us", "eu"), batch("ap", "", "us")
	defer first.Release()
	defer second.Release()

	keys, err := quiverarrow.NewKeys(dt)
	if err != nil {
		panic(err)
	}
	ids, _ := keys.Append(nil, first)
	ids, _ = keys.Append(ids, second)
	distinct := keys.NewArray(memory.DefaultAllocator) // of the value type, string
	defer distinct.Release()
	fmt.Println(ids, distinct)

	// Float keys are not supported.
	_, err = quiverarrow.NewKeys(arrow.PrimitiveTypes.Float64)
	fmt.Println(errors.Is(err, arrow.ErrNotImplemented))
	// Output:
	// [0 1 0 2 3 1] ["eu" "us" "ap" (null)]
	// true
}

func ExampleNewGroupBy() {
	// Bytes sent per host, over two record batches; a null bytes value
	// is counted in bytes_nulls, and a host without any value has a null
	// bytes_max.
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "host", Type: arrow.BinaryTypes.String},
		{Name: "bytes", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
		{Name: "latency", Type: arrow.PrimitiveTypes.Float32},
	}, nil)
	g, err := quiverarrow.NewGroupBy(schema, "host", []string{"bytes"},
		quiverarrow.AggSum|quiverarrow.AggMax|quiverarrow.AggNulls)
	if err != nil {
		panic(err)
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, hosts := range [][]string{{"db", "web", "db"}, {"web", "cache", "dns"}} {
		b.Field(0).(*array.StringBuilder).AppendValues(hosts, nil)
		b.Field(1).(*array.Uint32Builder).AppendValues([]uint32{512, 2048, 0}, []bool{true, true, false})
		b.Field(2).(*array.Float32Builder).AppendValues([]float32{0.5, 1.25, 3}, nil)
		rec := b.NewRecordBatch()
		if err := g.Add(rec); err != nil {
			panic(err)
		}
		rec.Release()
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	printRecord(out)

	// A float column cannot be a key.
	_, err = quiverarrow.NewGroupBy(schema, "latency", []string{"bytes"}, quiverarrow.AggSum)
	fmt.Println(errors.Is(err, arrow.ErrNotImplemented))
	// Output:
	// host           db    web  cache    dns
	// bytes_sum     512   2560   2048      0
	// bytes_max     512   2048   2048 (null)
	// bytes_nulls      1      0      0      1
	// true
}
