package quiverarrow_test

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver/quiverarrow"
)

// readings is a record batch of a station, a timestamp (seconds) and a
// temperature column, with a null station and a null temperature.
func readings() arrow.RecordBatch {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "station", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Second}},
		{Name: "temp", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.StringBuilder).AppendValues([]string{"north", "hill", "north", "", "hill", "north"},
		[]bool{true, true, true, false, true, true})
	b.Field(1).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{0, 30, 60, 90, 3600, 3630}, nil)
	b.Field(2).(*array.Float64Builder).AppendValues([]float64{12.5, 9, 13.5, 7, 0, 11},
		[]bool{true, true, true, true, false, true})
	return b.NewRecordBatch()
}

func printRecord(rec arrow.RecordBatch) {
	for i, f := range rec.Schema().Fields() {
		fmt.Printf("%-10s", f.Name)
		for row := range int(rec.NumRows()) {
			fmt.Printf(" %6s", rec.Column(i).ValueStr(row))
		}
		fmt.Println()
	}
}

func ExampleGroupBy() {
	rec := readings()
	defer rec.Release()

	// SELECT station, sum(temp), min(temp), max(temp), count(temp) ... GROUP BY station
	g, err := quiverarrow.NewGroupBy(rec.Schema(), "station", []string{"temp"},
		quiverarrow.AggSum|quiverarrow.AggMin|quiverarrow.AggMax|quiverarrow.AggCount)
	if err != nil {
		panic(err)
	}
	if err := g.Add(rec); err != nil { // once per record batch
		panic(err)
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	printRecord(out)
	// Output:
	// station     north   hill (null)
	// temp_sum       37      9      7
	// temp_min       11      9      7
	// temp_max     13.5      9      7
	// temp_count      3      1      1
}

func ExampleNewGroupByWindow() {
	rec := readings()
	defer rec.Release()

	// Hourly windows of the time column (in its unit, seconds), from 0.
	g, err := quiverarrow.NewGroupByWindow(rec.Schema(), "time", 3600, 0, []string{"temp"},
		quiverarrow.AggMax|quiverarrow.AggCount|quiverarrow.AggNulls)
	if err != nil {
		panic(err)
	}
	if err := g.Add(rec); err != nil {
		panic(err)
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	printRecord(out)
	// Output:
	// time       1970-01-01T00:00:00 1970-01-01T01:00:00
	// temp_max     13.5     11
	// temp_count      4      1
	// temp_nulls      0      1
}

func ExampleGroupBy_Merge() {
	rec := readings()
	defer rec.Release()

	// Two partitions of the rows, grouped on their own (say in two
	// goroutines), then merged: their keys are unified and the states
	// merged group by group.
	first, second := rec.NewSlice(0, 3), rec.NewSlice(3, 6)
	defer first.Release()
	defer second.Release()
	a, _ := quiverarrow.NewGroupBy(rec.Schema(), "station", []string{"temp"}, quiverarrow.AggSum|quiverarrow.AggCount)
	b, _ := quiverarrow.NewGroupBy(rec.Schema(), "station", []string{"temp"}, quiverarrow.AggSum|quiverarrow.AggCount)
	if err := a.Add(first); err != nil {
		panic(err)
	}
	if err := b.Add(second); err != nil {
		panic(err)
	}
	if err := a.Merge(b); err != nil {
		panic(err)
	}
	out, _ := a.NewRecordBatch(memory.DefaultAllocator)
	defer out.Release()
	printRecord(out)
	// Output:
	// station     north   hill (null)
	// temp_sum       37      9      7
	// temp_count      3      1      1
}

func ExampleGroupRecords() {
	// An IPC stream, read batch by batch and grouped as it is read.
	rec := readings()
	defer rec.Release()
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(rec.Schema()))
	_ = w.Write(rec)
	_ = w.Write(rec) // a second batch: the groups go on across batches
	_ = w.Close()

	rdr, err := ipc.NewReader(&buf)
	if err != nil {
		panic(err)
	}
	defer rdr.Release()
	out, err := quiverarrow.GroupRecords(rdr, "station", []string{"temp"}, quiverarrow.AggSum|quiverarrow.AggNulls, memory.DefaultAllocator)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	printRecord(out)
	// Output:
	// station     north   hill (null)
	// temp_sum       74     18     14
	// temp_nulls      0      2      0
}

func ExampleKeys() {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{40, 7, 40, 0, 7}, []bool{true, true, true, false, true})
	col := b.NewArray()
	defer col.Release()

	keys, err := quiverarrow.NewKeys(col.DataType())
	if err != nil {
		panic(err)
	}
	ids, err := keys.Append(nil, col) // group ids for quiver's grouped states
	fmt.Println(ids, err, keys.Len(), keys.NullID())
	distinct := keys.NewArray(memory.DefaultAllocator) // the key of each group
	defer distinct.Release()
	fmt.Println(distinct)
	// Output:
	// [0 1 0 2 1] <nil> 3 2
	// [40 7 (null)]
}

func ExampleKeys_Merge() {
	str := func(vals ...string) arrow.Array {
		b := array.NewStringBuilder(memory.DefaultAllocator)
		defer b.Release()
		b.AppendValues(vals, nil)
		return b.NewArray()
	}
	a, _ := quiverarrow.NewKeys(arrow.BinaryTypes.String)
	b, _ := quiverarrow.NewKeys(arrow.BinaryTypes.String)
	a.Append(nil, str("x", "y"))
	b.Append(nil, str("z", "x"))
	remap, err := a.Merge(b) // b's group j is a's group remap[j]
	fmt.Println(remap, err, a.Len())
	// Output:
	// [2 0] <nil> 3
}

func ExampleNewTimeBuckets() {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Millisecond})
	defer b.Release()
	b.AppendValues([]arrow.Timestamp{-1, 0, 999, 1000, 2500}, nil)
	col := b.NewArray()
	defer col.Release()

	// One-second windows: the window of v is floor(v / 1000).
	keys, err := quiverarrow.NewTimeBuckets(col.DataType(), 1000, 0)
	if err != nil {
		panic(err)
	}
	ids, _ := keys.Append(nil, col)
	starts := keys.NewArray(memory.DefaultAllocator)
	defer starts.Release()
	fmt.Println(ids, starts.(*array.Timestamp).TimestampValues())
	// Output:
	// [0 1 1 2 3] [-1000 0 1000 2000]
}

func ExampleErrOverflow() {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int8},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Field(0).(*array.Int8Builder).AppendValues([]int8{1, 1}, nil)
	b.Field(1).(*array.Int64Builder).AppendValues([]int64{1 << 62, 1 << 62}, nil)
	rec := b.NewRecordBatch()
	defer rec.Release()

	g, _ := quiverarrow.NewGroupBy(schema, "k", []string{"v"}, quiverarrow.AggSum)
	_ = g.Add(rec)
	_, err := g.NewRecordBatch(memory.DefaultAllocator)
	fmt.Println(errors.Is(err, quiverarrow.ErrOverflow))
	fmt.Println(err)
	// Output:
	// true
	// quiverarrow: integer sum overflows: the sum of column "v" in group 0 (key 1)
}

func ExampleAggregates() {
	fmt.Println(quiverarrow.AggAll, quiverarrow.AggMin|quiverarrow.AggCount)
	// Output:
	// sum|min|max|count|nulls min|count
}
