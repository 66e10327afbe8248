// Command parquetsummary tries quiver on real data: it writes a small
// Parquet file of weather readings (with nulls, several row groups, and
// timestamp, date, float and integer columns), reads it back with pqarrow
// batch by batch, reduces every column as it is read with quiverarrow and
// quiver's partial states, and prints a summary table: count, nulls, min,
// max and sum per column, and the backend that computed them.
//
//	go -C quiverarrow run ./examples/parquetsummary [-by column [-every duration]] [file.parquet]
//
// With a file argument it summarizes that file instead of writing one.
// With -by it groups the rows by the key column and prints one line per
// group: count, nulls, min, max and sum of every numeric column
// (quiverarrow.GroupBy); with -every as well, the key column is a
// timestamp column cut into windows of that duration (-by time -every 1h).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/quiverarrow"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "parquetsummary:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("parquetsummary", flag.ContinueOnError)
	by := fs.String("by", "", "group by this key column")
	every := fs.Duration("every", 0, "with -by on a timestamp column: group by windows of this width")
	if err := fs.Parse(args); err != nil {
		return err
	}
	path := ""
	switch fs.NArg() {
	case 0:
		dir, err := os.MkdirTemp("", "parquetsummary")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		path = filepath.Join(dir, "weather.parquet")
		if err := writeWeather(path, 100_000); err != nil {
			return err
		}
	case 1:
		path = fs.Arg(0)
	default:
		return fmt.Errorf("usage: parquetsummary [-by column [-every duration]] [file.parquet]")
	}
	if *every != 0 && *by == "" {
		return fmt.Errorf("-every needs -by, the timestamp column to cut into windows")
	}
	if *by != "" {
		return group(path, *by, *every)
	}
	return summarize(path)
}

// writeWeather writes rows readings from a few stations, one every
// minute, in row groups of 20000 rows.
func writeWeather(path string, rows int) error {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "station", Type: arrow.BinaryTypes.String},
		{Name: "time", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "day", Type: arrow.FixedWidthTypes.Date32},
		{Name: "temp_c", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "rain_mm", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "humidity", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
		{Name: "pressure_pa", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close() // on the error paths; w.Close closes it otherwise
	w, err := pqarrow.NewFileWriter(schema, f,
		parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(20_000)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	r := rand.New(rand.NewPCG(2024, 5))
	start := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	stations := []string{"north", "harbour", "airport", "hill"}
	for i := range rows {
		t := start.Add(time.Duration(i) * time.Minute)
		b.Field(0).(*array.StringBuilder).Append(stations[i%len(stations)])
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(t.UnixMilli()))
		b.Field(2).(*array.Date32Builder).Append(arrow.Date32FromTime(t))
		appendOrNull(r, 0.02, b.Field(3).(*array.Float64Builder), 12+8*r.NormFloat64())
		appendOrNull(r, 0.05, b.Field(4).(*array.Float32Builder), float32(max(0, r.ExpFloat64()-2)))
		appendOrNull(r, 0.01, b.Field(5).(*array.Uint8Builder), uint8(30+r.IntN(70)))
		appendOrNull(r, 0.03, b.Field(6).(*array.Int32Builder), int32(101_325+r.IntN(4000)-2000))
		if (i+1)%20_000 == 0 || i == rows-1 { // a row group per batch
			rec := b.NewRecordBatch()
			err := w.Write(rec)
			rec.Release()
			if err != nil {
				return err
			}
		}
	}
	return w.Close() // closes f too
}

// appendOrNull appends v, or a null with probability p.
func appendOrNull[T any](r *rand.Rand, p float64, b interface {
	Append(T)
	AppendNull()
}, v T) {
	if r.Float64() < p {
		b.AppendNull()
		return
	}
	b.Append(v)
}

// open returns a record reader of the Parquet file at path, batch by
// batch, and the file's reader; close closes both.
func open(path string) (rdr pqarrow.RecordReader, pf *file.Reader, close func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	pf, err = file.NewParquetReader(f)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 8192}, memory.DefaultAllocator)
	if err == nil {
		rdr, err = fr.GetRecordReader(context.Background(), nil, nil)
	}
	if err != nil {
		pf.Close()
		f.Close()
		return nil, nil, nil, err
	}
	return rdr, pf, func() { rdr.Release(); pf.Close(); f.Close() }, nil
}

// summarize reads the Parquet file at path batch by batch and prints one
// line per column.
func summarize(path string) error {
	rdr, pf, closeAll, err := open(path)
	if err != nil {
		return err
	}
	defer closeAll()

	schema := rdr.Schema()
	cols := make([]column, schema.NumFields())
	for i, field := range schema.Fields() {
		cols[i] = columnFor(field.Type)
	}
	rows, batches := 0, 0
	for rdr.Next() {
		rec := rdr.RecordBatch()
		rows += int(rec.NumRows())
		batches++
		for i, c := range cols {
			if err := c.add(rec.Column(i)); err != nil {
				return fmt.Errorf("column %s: %w", schema.Field(i).Name, err)
			}
		}
	}
	if err := rdr.Err(); err != nil {
		return err
	}

	fmt.Printf("%s: %d rows in %d row groups, read in %d batches; quiver backend %s\n\n",
		filepath.Base(path), rows, pf.NumRowGroups(), batches, quiver.ActiveBackend().Name)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "column\ttype\tcount\tnulls\tmin\tmax\tsum\t")
	for i, c := range cols {
		count, nulls, lo, hi, sum := c.row()
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t\n", schema.Field(i).Name, schema.Field(i).Type, count, nulls, lo, hi, sum)
	}
	return tw.Flush()
}

// column reduces one column batch by batch: add takes a batch's array,
// row gives the summary so far, formatted.
type column interface {
	add(arrow.Array) error
	row() (count, nulls int, lo, hi, sum string)
}

// columnFor picks the column reducer for an Arrow type: the Go value type
// T that quiverarrow reads it as, and how to print its values.
func columnFor(dt arrow.DataType) column {
	switch dt := dt.(type) {
	case *arrow.Float64Type:
		return &floatColumn[float64]{}
	case *arrow.Float32Type:
		return &floatColumn[float32]{}
	case *arrow.Int8Type:
		return &intColumn[int8]{}
	case *arrow.Int16Type:
		return &intColumn[int16]{}
	case *arrow.Int32Type:
		return &intColumn[int32]{}
	case *arrow.Int64Type:
		return &intColumn[int64]{}
	case *arrow.Uint8Type:
		return &uintColumn[uint8]{}
	case *arrow.Uint16Type:
		return &uintColumn[uint16]{}
	case *arrow.Uint32Type:
		return &uintColumn[uint32]{}
	case *arrow.Uint64Type:
		return &uintColumn[uint64]{}
	case *arrow.TimestampType:
		return &intColumn[arrow.Timestamp]{instant: func(v arrow.Timestamp) string {
			return v.ToTime(dt.Unit).Format(time.DateTime)
		}}
	case *arrow.Date32Type:
		return &intColumn[arrow.Date32]{instant: func(v arrow.Date32) string {
			return v.ToTime().Format(time.DateOnly)
		}}
	case *arrow.Date64Type:
		return &intColumn[arrow.Date64]{instant: func(v arrow.Date64) string {
			return v.ToTime().Format(time.DateOnly)
		}}
	case *arrow.Time32Type:
		return &intColumn[arrow.Time32]{instant: func(v arrow.Time32) string {
			return v.ToTime(dt.Unit).Format(time.TimeOnly)
		}}
	case *arrow.Time64Type:
		return &intColumn[arrow.Time64]{instant: func(v arrow.Time64) string {
			return v.ToTime(dt.Unit).Format(time.TimeOnly)
		}}
	case *arrow.DurationType:
		return &intColumn[arrow.Duration]{unit: dt.Unit.String()}
	}
	return &otherColumn{}
}

// floatColumn sums a float column and summarizes it, batch by batch.
type floatColumn[T float32 | float64] struct {
	sum     quiver.SumState[T]
	summary quiver.SummaryState[T]
}

func (c *floatColumn[T]) add(a arrow.Array) error {
	if err := quiverarrow.Add(&c.sum, a); err != nil {
		return err
	}
	return quiverarrow.Add(&c.summary, a)
}

func (c *floatColumn[T]) row() (int, int, string, string, string) {
	s := c.summary.Summary()
	lo, hi := "-", "-"
	if !s.Empty() {
		lo, hi = fmt.Sprintf("%.6g", s.Min), fmt.Sprintf("%.6g", s.Max)
	}
	return s.Count, s.Nulls, lo, hi, fmt.Sprintf("%.8g", c.sum.Sum())
}

// intColumn sums a signed integer column exactly and summarizes it; the
// date, time and timestamp columns print their min and max as instants,
// and no sum.
type intColumn[T int8 | int16 | int32 | int64 | arrow.Timestamp | arrow.Date32 | arrow.Date64 |
	arrow.Time32 | arrow.Time64 | arrow.Duration] struct {
	sum     quiver.IntSumState[T]
	summary quiver.SummaryState[T]
	instant func(T) string // nil: a number, and the sum
	unit    string         // the unit of a duration
}

func (c *intColumn[T]) add(a arrow.Array) error {
	if err := quiverarrow.Add(&c.sum, a); err != nil {
		return err
	}
	return quiverarrow.Add(&c.summary, a)
}

func (c *intColumn[T]) row() (int, int, string, string, string) {
	s := c.summary.Summary()
	lo, hi, sum := "-", "-", c.sum.Exact().String()+c.unit
	if c.instant != nil {
		sum = "-" // a sum of instants means nothing
	}
	if !s.Empty() {
		lo, hi = fmt.Sprint(s.Min)+c.unit, fmt.Sprint(s.Max)+c.unit
		if c.instant != nil {
			lo, hi = c.instant(s.Min), c.instant(s.Max)
		}
	}
	return s.Count, s.Nulls, lo, hi, sum
}

// uintColumn sums an unsigned integer column exactly and summarizes it.
type uintColumn[T uint8 | uint16 | uint32 | uint64] struct {
	sum     quiver.UintSumState[T]
	summary quiver.SummaryState[T]
}

func (c *uintColumn[T]) add(a arrow.Array) error {
	if err := quiverarrow.Add(&c.sum, a); err != nil {
		return err
	}
	return quiverarrow.Add(&c.summary, a)
}

func (c *uintColumn[T]) row() (int, int, string, string, string) {
	s := c.summary.Summary()
	lo, hi := "-", "-"
	if !s.Empty() {
		lo, hi = fmt.Sprint(s.Min), fmt.Sprint(s.Max)
	}
	return s.Count, s.Nulls, lo, hi, c.sum.Exact().String()
}

// otherColumn counts the valid rows of a column quiver has no values for
// (strings here).
type otherColumn struct{ rows, valid int }

func (c *otherColumn) add(a arrow.Array) error {
	n, err := quiverarrow.CountValid(a)
	c.rows += a.Len()
	c.valid += n
	return err
}

func (c *otherColumn) row() (int, int, string, string, string) {
	return c.valid, c.rows - c.valid, "-", "-", "-"
}

// group reads the Parquet file at path batch by batch into a GroupBy by
// the column key (or by windows of every of the timestamp column key)
// over every numeric column, and prints one line per group and column.
func group(path, key string, every time.Duration) error {
	rdr, _, closeAll, err := open(path)
	if err != nil {
		return err
	}
	defer closeAll()
	schema := rdr.Schema()
	var values []string
	for _, f := range schema.Fields() {
		switch f.Type.ID() {
		case arrow.FLOAT32, arrow.FLOAT64, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64,
			arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
			if f.Name != key {
				values = append(values, f.Name)
			}
		}
	}
	var g *quiverarrow.GroupBy
	if every > 0 {
		idx := schema.FieldIndices(key)
		if len(idx) != 1 {
			return fmt.Errorf("no column %q", key)
		}
		ts, ok := schema.Field(idx[0]).Type.(*arrow.TimestampType)
		if !ok {
			return fmt.Errorf("-every needs a timestamp column; %q is %s", key, schema.Field(idx[0]).Type)
		}
		width := int64(every / ts.Unit.Multiplier())
		g, err = quiverarrow.NewGroupByWindow(schema, key, width, 0, values, quiverarrow.AggAll)
	} else {
		g, err = quiverarrow.NewGroupBy(schema, key, values, quiverarrow.AggAll)
	}
	if err != nil {
		return err
	}
	for rdr.Next() {
		if err := g.Add(rdr.RecordBatch()); err != nil {
			return err
		}
	}
	if err := rdr.Err(); err != nil {
		return err
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		return err
	}
	defer out.Release()

	fmt.Printf("%s grouped by %s", filepath.Base(path), key)
	if every > 0 {
		fmt.Printf(" in windows of %s", every)
	}
	fmt.Printf(": %d groups; quiver backend %s\n\n", out.NumRows(), quiver.ActiveBackend().Name)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, key+"\tcolumn\tcount\tnulls\tmin\tmax\tsum\t")
	col := func(name string) arrow.Array { return out.Column(out.Schema().FieldIndices(name)[0]) }
	for row := range int(out.NumRows()) {
		for _, v := range values {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", out.Column(0).ValueStr(row), v,
				col(v+"_count").ValueStr(row), col(v+"_nulls").ValueStr(row),
				col(v+"_min").ValueStr(row), col(v+"_max").ValueStr(row), col(v+"_sum").ValueStr(row))
		}
	}
	return tw.Flush()
}
