package quiverarrow

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverlabs/quiver"
)

// roundTripSchema has a column of each kind of element: floats, signed and
// unsigned integers, and temporal types.
var roundTripSchema = arrow.NewSchema([]arrow.Field{
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "i16", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
	{Name: "u32", Type: arrow.PrimitiveTypes.Uint32, Nullable: true},
	{Name: "u64", Type: arrow.PrimitiveTypes.Uint64, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "date", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "t64", Type: arrow.FixedWidthTypes.Time64us, Nullable: true},
}, nil)

// roundTripBatches are record batches of roundTripSchema: built with
// nulls, some sliced at odd offsets, one empty and one without nulls.
func roundTripBatches(t *testing.T) []arrow.RecordBatch {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{1000, 0, 77, 4096, 3}
	if testing.Short() {
		sizes = []int{300, 0, 77, 3}
	}
	var recs []arrow.RecordBatch
	for k, n := range sizes {
		pNull := 0.25
		if k == 2 {
			pNull = 0
		}
		off := k % 8
		cols := make([]arrow.Array, len(roundTripSchema.Fields()))
		for i, f := range roundTripSchema.Fields() {
			a := buildAny(r, f.Type, off+n+5, pNull)
			cols[i] = array.NewSlice(a, int64(off), int64(off+n))
			a.Release()
		}
		recs = append(recs, array.NewRecordBatch(roundTripSchema, cols, int64(n)))
		for _, c := range cols {
			c.Release()
		}
	}
	return recs
}

// buildAny is build for a type known at run time.
func buildAny(r *rand.Rand, dt arrow.DataType, n int, pNull float64) arrow.Array {
	switch dt.ID() {
	case arrow.FLOAT64:
		return build(r, dt, floatGen[float64](), n, pNull)
	case arrow.FLOAT32:
		return build(r, dt, floatGen[float32](), n, pNull)
	case arrow.INT64:
		return build(r, dt, intGen[int64](64, true), n, pNull)
	case arrow.INT32:
		return build(r, dt, intGen[int32](32, true), n, pNull)
	case arrow.INT16:
		return build(r, dt, intGen[int16](16, true), n, pNull)
	case arrow.UINT16:
		return build(r, dt, intGen[uint16](16, false), n, pNull)
	case arrow.UINT32:
		return build(r, dt, intGen[uint32](32, false), n, pNull)
	case arrow.UINT64:
		return build(r, dt, intGen[uint64](64, false), n, pNull)
	case arrow.TIMESTAMP:
		return build(r, dt, intGen[arrow.Timestamp](64, true), n, pNull)
	case arrow.DATE32:
		return build(r, dt, intGen[arrow.Date32](32, true), n, pNull)
	case arrow.TIME64:
		// Parquet keeps times of day in range only.
		return build(r, dt, gen[arrow.Time64]{value: func(r *rand.Rand) arrow.Time64 { return arrow.Time64(r.Int64N(86_400_000_000)) }}, n, pNull)
	}
	panic("buildAny: no generator for " + dt.String())
}

// kind is what the round-trip tests do with a column of one type: the
// reference checks, and the results of the one-call functions and of
// AddColumn into the partial states, printed (float sums by their bits)
// so that two ways of reading the same column can be compared.
type kind struct {
	check   func(t *testing.T, c column)
	oneCall func(t *testing.T, chunks []arrow.Array) string
	stream  func(t *testing.T, open func() array.RecordReader, col int) string
}

func floatKind[T floatElem]() kind {
	return kind{
		check: func(t *testing.T, c column) { checkSummary[T](t, c); checkFloatSum[T](t, c) },
		oneCall: func(t *testing.T, chunks []arrow.Array) string {
			sum, err1 := Sum[T](chunks...)
			s, err2 := Summarize[T](chunks...)
			n, err3 := CountValid(chunks...)
			return result(t, fmt.Sprintf("sum %#x %+v %d", floatBits(sum), s, n), err1, err2, err3)
		},
		stream: func(t *testing.T, open func() array.RecordReader, col int) string {
			var sum quiver.SumState[T]
			var s quiver.SummaryState[T]
			err1, err2 := addColumn(&sum, open, col), addColumn(&s, open, col)
			return result(t, fmt.Sprintf("sum %#x %+v %d", floatBits(sum.Sum()), s.Summary(), s.Summary().Count), err1, err2)
		},
	}
}

func signedKind[T signedElem]() kind {
	return kind{
		check: func(t *testing.T, c column) { checkSummary[T](t, c); checkSignedSum[T](t, c) },
		oneCall: func(t *testing.T, chunks []arrow.Array) string {
			sum, err1 := SumChecked[T](chunks...)
			s, err2 := Summarize[T](chunks...)
			n, err3 := CountValid(chunks...)
			return result(t, fmt.Sprintf("sum %+v %+v %d", sum, s, n), err1, err2, err3)
		},
		stream: func(t *testing.T, open func() array.RecordReader, col int) string {
			var sum quiver.IntSumState[T]
			var s quiver.SummaryState[T]
			err1, err2 := addColumn(&sum, open, col), addColumn(&s, open, col)
			return result(t, fmt.Sprintf("sum %+v %+v %d", sum.Checked(), s.Summary(), s.Summary().Count), err1, err2)
		},
	}
}

func unsignedKind[T unsignedElem]() kind {
	return kind{
		check: func(t *testing.T, c column) { checkSummary[T](t, c); checkUnsignedSum[T](t, c) },
		oneCall: func(t *testing.T, chunks []arrow.Array) string {
			sum, err1 := SumCheckedUint[T](chunks...)
			s, err2 := Summarize[T](chunks...)
			n, err3 := CountValid(chunks...)
			return result(t, fmt.Sprintf("sum %+v %+v %d", sum, s, n), err1, err2, err3)
		},
		stream: func(t *testing.T, open func() array.RecordReader, col int) string {
			var sum quiver.UintSumState[T]
			var s quiver.SummaryState[T]
			err1, err2 := addColumn(&sum, open, col), addColumn(&s, open, col)
			return result(t, fmt.Sprintf("sum %+v %+v %d", sum.Checked(), s.Summary(), s.Summary().Count), err1, err2)
		},
	}
}

// kinds maps the types of roundTripSchema to their kind.
var kinds = map[arrow.Type]kind{
	arrow.FLOAT64:   floatKind[float64](),
	arrow.FLOAT32:   floatKind[float32](),
	arrow.INT64:     signedKind[int64](),
	arrow.INT16:     signedKind[int16](),
	arrow.UINT32:    unsignedKind[uint32](),
	arrow.UINT64:    unsignedKind[uint64](),
	arrow.TIMESTAMP: signedKind[arrow.Timestamp](),
	arrow.DATE32:    signedKind[arrow.Date32](),
	arrow.TIME64:    signedKind[arrow.Time64](),
}

// result is s, or a failure if any error is not nil.
func result(t *testing.T, s string, errs ...error) string {
	t.Helper()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// addColumn feeds column col of a freshly opened reader to s.
func addColumn[T elem](s Adder[T], open func() array.RecordReader, col int) error {
	rdr := open()
	defer rdr.Release()
	return AddColumn(s, rdr, col)
}

// checkRoundTrip reads the batches written by write back batch by batch
// through open, and checks every column three ways: the reference
// checks on the arrays read back, the one-call results on them equal to
// those on the original batches, and AddColumn into partial states equal
// to those too.
func checkRoundTrip(t *testing.T, recs []arrow.RecordBatch, open func() array.RecordReader) {
	rdr := open()
	defer rdr.Release()
	read := make([][]arrow.Array, len(roundTripSchema.Fields()))
	batches := 0
	for rdr.Next() {
		batches++
		for i := range read {
			a := rdr.RecordBatch().Column(i)
			a.Retain() // the reader releases its batch on Next
			defer a.Release()
			read[i] = append(read[i], a)
		}
	}
	if err := rdr.Err(); err != nil {
		t.Fatal(err)
	}
	if batches < 2 {
		t.Fatalf("read %d batches, want several", batches)
	}
	for i, f := range roundTripSchema.Fields() {
		k := kinds[f.Type.ID()]
		var orig []arrow.Array
		for _, rec := range recs {
			orig = append(orig, rec.Column(i))
		}
		k.check(t, column{f.Name + " read back", read[i]})
		want := k.oneCall(t, orig)
		if got := k.oneCall(t, read[i]); got != want {
			t.Errorf("%s: read back in %d batches: %s, want %s", f.Name, batches, got, want)
		}
		if got := k.stream(t, open, i); got != want {
			t.Errorf("%s: AddColumn: %s, want %s", f.Name, got, want)
		}
	}
}

func TestIPCStream(t *testing.T) {
	recs := roundTripBatches(t)
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(roundTripSchema))
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, recs, func() array.RecordReader {
		rdr, err := ipc.NewReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		return rdr
	})
}

func TestIPCFile(t *testing.T) {
	recs := roundTripBatches(t)
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(roundTripSchema))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, recs, func() array.RecordReader {
		f, err := ipc.NewFileReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		// The file's batches, read one at a time by index, as a reader.
		var batches []arrow.RecordBatch
		for i := range f.NumRecords() {
			rec, err := f.RecordBatch(i)
			if err != nil {
				t.Fatal(err)
			}
			rec.Retain() // the file reader releases it on the next read
			batches = append(batches, rec)
		}
		rdr, err := array.NewRecordReader(f.Schema(), batches)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range batches {
			rec.Release() // the record reader holds its own references
		}
		return rdr
	})
}

func TestParquet(t *testing.T) {
	recs := roundTripBatches(t)
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(roundTripSchema, &buf,
		parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(1000)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkRoundTrip(t, recs, func() array.RecordReader {
		pf, err := file.NewParquetReader(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 100}, memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		rdr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rdr
	})
}
