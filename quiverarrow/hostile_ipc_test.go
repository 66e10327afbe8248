package quiverarrow

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// hostileRows is the length of the columns of hostileStream: its float64
// values buffer is 2040 bytes, a length no other buffer of the stream has.
const hostileRows = 255

// hostileStream is a valid IPC stream of one record batch with a float64,
// an int32, a boolean and a string column (or those of them that cols
// names by index), each with nulls, the boolean column with 11 of them (a
// count no other column has).
func hostileStream(t testing.TB, cols ...int) []byte {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer bld.Release()
	for i := range hostileRows {
		f := bld.Field(0).(*array.Float64Builder)
		if i%50 == 3 {
			f.AppendNull()
		} else {
			f.Append(float64(i) * 0.5)
		}
		n := bld.Field(1).(*array.Int32Builder)
		if i%40 == 1 {
			n.AppendNull()
		} else {
			n.Append(int32(i*1000 - 50000))
		}
		b := bld.Field(2).(*array.BooleanBuilder)
		if i%23 == 5 {
			b.AppendNull()
		} else {
			b.Append(i%3 == 0)
		}
		s := bld.Field(3).(*array.StringBuilder)
		if i%60 == 7 {
			s.AppendNull()
		} else {
			s.Append("ab")
		}
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	if len(cols) > 0 {
		fields, arrs := make([]arrow.Field, len(cols)), make([]arrow.Array, len(cols))
		for k, i := range cols {
			fields[k], arrs[k] = schema.Field(i), rec.Column(i)
		}
		schema = arrow.NewSchema(fields, nil)
		rec = array.NewRecordBatch(schema, arrs, hostileRows)
		defer rec.Release()
	}
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(schema))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// patch replaces the one occurrence of the little-endian int64s old in b
// with new, in a copy.
func patch(t *testing.T, b []byte, old, new []int64) []byte {
	t.Helper()
	enc := func(v []int64) []byte {
		out := make([]byte, 0, 8*len(v))
		for _, x := range v {
			out = binary.LittleEndian.AppendUint64(out, uint64(x))
		}
		return out
	}
	o := enc(old)
	if c := bytes.Count(b, o); c != 1 {
		t.Fatalf("the stream holds %v %d times, want once", old, c)
	}
	return bytes.Replace(b, o, enc(new), 1)
}

// readStream reads the record batches of an IPC stream through a message
// reader with size limits (the plain ipc.NewReader has none and may try
// to allocate what a flipped length says). It calls f with each batch the
// reader accepts and stops at the first it refuses. A panic inside
// arrow-go's reader ends the stream (arrow-go's limit, not quiverarrow's);
// a panic in f is not caught.
func readStream(data []byte, f func(rec arrow.RecordBatch)) {
	limits := []ipc.Option{ipc.WithMetadataSizeLimit(1 << 16), ipc.WithBodySizeLimit(1 << 20)}
	var rdr *ipc.Reader
	next := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		if rdr == nil {
			r, err := ipc.NewReaderFromMessageReader(ipc.NewMessageReader(bytes.NewReader(data), limits...), limits...)
			if err != nil {
				return false
			}
			rdr = r
		}
		return rdr.Next()
	}
	for next() {
		f(rdr.RecordBatch())
	}
	if rdr != nil {
		rdr.Release()
	}
}

// TestIPCShortBuffer alters the length of the float64 values buffer of a
// valid stream to 376 bytes (47 values for 255 rows): arrow-go's reader
// accepts the batch, and its values slice reaches into the next buffers.
func TestIPCShortBuffer(t *testing.T) {
	data := patch(t, hostileStream(t), []int64{8 * hostileRows}, []int64{376})
	seen := 0
	readStream(data, func(rec arrow.RecordBatch) {
		seen++
		col := rec.Column(0)
		if s, err := Sum[float64](col); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("Sum of a float64 column with a 376-byte buffer = %v, %v; want an error wrapping arrow.ErrInvalid", s, err)
		}
		if s, err := Summarize[float64](col); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("Summarize = %+v, %v; want an error wrapping arrow.ErrInvalid", s, err)
		}
		checkRecord(t, rec)
	})
	if seen != 1 {
		t.Fatalf("the reader accepted %d batches, want 1", seen)
	}
}

// TestIPCNegativeLength sets the length of a batch of a boolean and a
// string column, and of both columns, to -3, which arrow-go's reader
// accepts.
func TestIPCNegativeLength(t *testing.T) {
	data := hostileStream(t, 2, 3)
	data = patch(t, data, []int64{hostileRows, 11}, []int64{-3, 11})
	data = patch(t, data, []int64{hostileRows, 5}, []int64{-3, 5})
	data = patch(t, data, []int64{hostileRows}, []int64{-3})
	seen := 0
	readStream(data, func(rec arrow.RecordBatch) {
		seen++
		for i, col := range rec.Columns() {
			if n, err := CountValid(col); !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "has length -3") {
				t.Errorf("CountValid of column %d, of length -3 = %d, %v; want an error wrapping arrow.ErrInvalid", i, n, err)
			}
		}
		checkRecord(t, rec)
	})
	if seen != 1 {
		t.Fatalf("the reader accepted %d batches, want 1", seen)
	}
}

// splitSchema cuts an IPC stream after its first message, the schema,
// which has no body: an encapsulated message is a 0xFFFFFFFF marker, the
// metadata's length as a little-endian int32, and the metadata. The
// mutation tests alter only what follows: arrow-go's schema decoder
// sizes slices from flatbuffer vector lengths it does not bound (one
// flipped byte there made it ask for 300 GB), a limit of arrow-go's own
// that no check in quiverarrow can reach.
func splitSchema(t testing.TB, data []byte) (schema, rest []byte) {
	t.Helper()
	if len(data) < 8 || binary.LittleEndian.Uint32(data) != 0xFFFFFFFF {
		t.Fatal("not an encapsulated IPC stream")
	}
	end := 8 + int(binary.LittleEndian.Uint32(data[4:]))
	return data[:end:end], data[end:]
}

// TestIPCMutations checks 2,000 single-byte mutations of the record
// batch of a valid stream with checkRecord (300 in -short mode).
func TestIPCMutations(t *testing.T) {
	schema, batch := splitSchema(t, hostileStream(t))
	r := rand.New(rand.NewPCG(23, 2026))
	runs := 2000
	if testing.Short() {
		runs = 300
	}
	for range runs {
		data := append(bytes.Clone(schema), batch...)
		data[len(schema)+r.IntN(len(batch))] ^= byte(1 + r.IntN(255))
		readStream(data, func(rec arrow.RecordBatch) { checkRecord(t, rec) })
	}
}

// FuzzIPCStream mutates the record batch messages of a valid stream and
// checks every batch arrow-go's reader accepts with checkRecord.
func FuzzIPCStream(f *testing.F) {
	schema, batch := splitSchema(f, hostileStream(f))
	f.Add(batch)
	f.Fuzz(func(t *testing.T, batch []byte) {
		data := append(bytes.Clone(schema), batch...)
		readStream(data, func(rec arrow.RecordBatch) { checkRecord(t, rec) })
	})
}

// checkRecord checks every column of rec: one that malformed says is
// malformed gives an error wrapping arrow.ErrInvalid from every function
// that reads it, and any other gives the results of a plain loop over
// arrow-go's IsValid and Value. A panic fails the test.
func checkRecord(t *testing.T, rec arrow.RecordBatch) {
	t.Helper()
	for i, col := range rec.Columns() {
		name := fmt.Sprintf("column %d (%s)", i, col.DataType())
		switch a := col.(type) {
		case *array.Float64:
			checkFloat(t, name, a)
		case *array.Int32:
			checkInt(t, name, a)
		}
		checkCount(t, name, col)
	}
}

// malformed is the test's own statement of what quiverarrow must refuse:
// a negative length or offset, a null count outside [-1, length], or a
// validity bitmap (where the null count is not 0) or, with size > 0, a
// values buffer whose length, not its capacity, is short of offset+length.
func malformed(a arrow.Array, size int) bool {
	d := a.Data()
	n, off, nulls := d.Len(), d.Offset(), d.NullN()
	if n < 0 || off < 0 || nulls < -1 || nulls > n || n > math.MaxInt-off {
		return true
	}
	if n == 0 {
		return false
	}
	bufs := d.Buffers()
	if nulls != 0 {
		switch have := bufLen(bufs, 0); {
		case have == 0 && nulls > 0:
			return true
		case have > 0 && have < (off+n+7)/8:
			return true
		}
	}
	return size > 0 && bufLen(bufs, 1) < (off+n)*size
}

func bufLen(bufs []*memory.Buffer, i int) int {
	if i >= len(bufs) || bufs[i] == nil {
		return 0
	}
	return bufs[i].Len()
}

// isValid is row i's validity as quiverarrow defines it: a null count of
// 0 means no nulls, whatever a bitmap says.
func isValid(a arrow.Array, i int) bool {
	return a.Data().NullN() == 0 || a.IsValid(i)
}

func checkFloat(t *testing.T, name string, a *array.Float64) {
	if malformed(a, 8) {
		wantInvalid(t, name, attempt[float64](t, a), "", false)
		if _, err := SumReproducible[float64](a); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: SumReproducible: error %v, want arrow.ErrInvalid", name, err)
		}
		return
	}
	var vals []float64
	for i := range a.Len() {
		if isValid(a, i) {
			vals = append(vals, a.Value(i))
		}
	}
	want := quiver.Summarize(vals)
	want.Nulls = a.Len() - len(vals)
	if got, err := Summarize[float64](a); err != nil || !sameSummary(got, want) {
		t.Errorf("%s: Summarize = %+v, %v; want %+v", name, got, err, want)
	}
	if got, err := SumReproducible[float64](a); err != nil || math.Float64bits(got) != math.Float64bits(quiver.SumReproducible(vals)) {
		t.Errorf("%s: SumReproducible = %v, %v; want %v", name, got, err, quiver.SumReproducible(vals))
	}
}

func checkInt(t *testing.T, name string, a *array.Int32) {
	if malformed(a, 4) {
		wantInvalid(t, name, attempt[int32](t, a), "", false)
		if _, err := SumChecked[int32](a); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: SumChecked: error %v, want arrow.ErrInvalid", name, err)
		}
		return
	}
	var sum int64
	var vals []int32
	for i := range a.Len() {
		if isValid(a, i) {
			sum += int64(a.Value(i))
			vals = append(vals, a.Value(i))
		}
	}
	if got, err := SumChecked[int32](a); err != nil || got.Overflowed || got.Sum != sum {
		t.Errorf("%s: SumChecked = %+v, %v; want %d", name, got, err, sum)
	}
	want := quiver.Summarize(vals)
	want.Nulls = a.Len() - len(vals)
	if got, err := Summarize[int32](a); err != nil || got != want {
		t.Errorf("%s: Summarize = %+v, %v; want %+v", name, got, err, want)
	}
}

func checkCount(t *testing.T, name string, a arrow.Array) {
	var got int
	var err error
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("%s: CountValid panicked: %v", name, p)
			}
		}()
		got, err = CountValid(a)
	}()
	if malformed(a, 0) {
		if !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: CountValid = %d, %v; want an error wrapping arrow.ErrInvalid", name, got, err)
		}
		return
	}
	want := a.Len() // a null count of 0: no bitmap to read, whatever the length
	if a.Data().NullN() != 0 {
		want = 0
		for i := range a.Len() {
			if isValid(a, i) {
				want++
			}
		}
	}
	if err != nil || got != want {
		t.Errorf("%s: CountValid = %d, %v; want %d", name, got, err, want)
	}
}
