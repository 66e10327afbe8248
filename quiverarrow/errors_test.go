package quiverarrow

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

func float64Array(vals []float64, nulls ...int) *array.Float64 {
	b := array.NewFloat64Builder(memory.DefaultAllocator)
	defer b.Release()
	valid := make([]bool, len(vals))
	for i := range valid {
		valid[i] = true
	}
	for _, i := range nulls {
		valid[i] = false
	}
	b.AppendValues(vals, valid)
	return b.NewFloat64Array()
}

// TestErrors checks that every kind of input quiverarrow cannot reduce
// gives an error that wraps the arrow-go error for it, and no panic.
func TestErrors(t *testing.T) {
	f64 := float64Array([]float64{1, 2, 3}, 1)
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"a", "b"}, nil)
	str := sb.NewArray()
	noBitmap := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 2,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Float64Traits.CastToBytes([]float64{1, 2}))}, nil, 1, 0))
	shortBitmap := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 20,
		[]*memory.Buffer{memory.NewBufferBytes([]byte{0xff}), memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(make([]float64, 20)))}, nil, array.UnknownNullCount, 0))

	tests := []struct {
		name string
		err  error
		want error
		text string
	}{
		{"Sum of float64 as float32", second(Sum[float32](f64)), arrow.ErrType, "read as float32: its values are float64"},
		{"Summarize of float64 as int64", second(Summarize[int64](f64)), arrow.ErrType, "its values are float64"},
		{"Min of a timestamp as int64", second(Min[int64](array.MakeArrayOfNull(memory.DefaultAllocator, arrow.FixedWidthTypes.Timestamp_ms, 3))), arrow.ErrType, "arrow.Timestamp"},
		{"Sum of strings", second(Sum[float64](str)), arrow.ErrNotImplemented, "utf8 arrays are not supported"},
		{"SumChecked of float16", second(SumChecked[int16](array.MakeArrayOfNull(memory.DefaultAllocator, arrow.FixedWidthTypes.Float16, 2))), arrow.ErrNotImplemented, "float16"},
		{"Max of a nil array", second(Max[float64](nil)), arrow.ErrInvalid, "nil array"},
		{"Sum of nulls without a bitmap", second(Sum[float64](noBitmap)), arrow.ErrInvalid, "1 nulls and no validity bitmap"},
		{"Sum with a short bitmap", second(Sum[float64](shortBitmap)), arrow.ErrInvalid, "bitmap buffer has 1 bytes, need 3"},
		{"CountValid with a short bitmap", second(CountValid(shortBitmap)), arrow.ErrInvalid, "bitmap buffer has 1 bytes"},
		{"CountValid of a union", second(CountValid(array.MakeArrayOfNull(memory.DefaultAllocator,
			arrow.SparseUnionOf([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, []arrow.UnionTypeCode{0}), 2))), arrow.ErrNotImplemented, "sparse_union"},
		{"a bad chunk among good ones", second(Sum[float64](f64, f64, str)), arrow.ErrNotImplemented, "utf8"},
		{"Values of strings", third(Values[int32](str)), arrow.ErrNotImplemented, "utf8"},
		{"AddColumn past the last column", AddColumn(new(quiver.SumState[float64]), recordReader(t, f64), 1), arrow.ErrIndex, "column 1"},
		{"AddColumn of the wrong type", AddColumn(new(quiver.SumState[float32]), recordReader(t, f64), 0), arrow.ErrType, "float32"},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) || !strings.Contains(tt.err.Error(), tt.text) {
			t.Errorf("%s: error %v, want %v containing %q", tt.name, tt.err, tt.want, tt.text)
		}
	}
}

func second[R any](_ R, err error) error { return err }

func third[R, S any](_ R, _ S, err error) error { return err }

// recordReader is a reader of one batch with the single column a.
func recordReader(t *testing.T, a arrow.Array) array.RecordReader {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: a.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
	defer rec.Release()
	rdr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return rdr
}

// TestErrorLeavesState checks that a failing Add, or a failing chunk in a
// one-call reduction, changes nothing and returns the zero result.
func TestErrorLeavesState(t *testing.T) {
	f64 := float64Array([]float64{1, 2, 3})
	var s quiver.SummaryState[float64]
	if err := Add(&s, f64); err != nil {
		t.Fatal(err)
	}
	before := s.Summary()
	if err := Add(&s, array.MakeArrayOfNull(memory.DefaultAllocator, arrow.PrimitiveTypes.Int32, 4)); err == nil {
		t.Fatal("Add of an int32 array to a float64 state: no error")
	}
	if s.Summary() != before {
		t.Fatalf("a failed Add changed the state: %+v, was %+v", s.Summary(), before)
	}
	bad := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.BinaryTypes.String, 1)
	if got, err := Summarize[float64](f64, bad); err == nil || got != (quiver.Summary[float64]{}) {
		t.Fatalf("Summarize with a bad chunk = %+v, %v; want the zero Summary and an error", got, err)
	}
	if got, err := Min[float64](f64, bad); err == nil || got != 0 {
		t.Fatalf("Min with a bad chunk = %v, %v; want 0 and an error", got, err)
	}
}

// TestCountValidAnyType counts the valid rows of arrays that have no
// numeric values: strings, and the Null type, all null without a bitmap.
func TestCountValidAnyType(t *testing.T) {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"a", "", "c", "d"}, []bool{true, false, true, true})
	str := sb.NewArray()
	nulls := array.MakeArrayOfNull(memory.DefaultAllocator, arrow.Null, 5)
	sliced := array.NewSlice(str, 1, 3)
	want := 0
	for _, a := range []arrow.Array{str, nulls, sliced} {
		if a.DataType().ID() == arrow.NULL {
			continue // every row null, though arrow-go's IsValid says valid
		}
		for i := range a.Len() {
			if a.IsValid(i) {
				want++
			}
		}
	}
	if got, err := CountValid(str, nulls, sliced); err != nil || got != want {
		t.Fatalf("CountValid = %d, %v; want %d", got, err, want)
	}
}

// TestZeroNullCountSkipsBitmap checks that an array whose null count is 0
// is reduced without its bitmap, as the Arrow format allows: given a
// bitmap that contradicts the count, the values under its clear bits are
// summed.
func TestZeroNullCountSkipsBitmap(t *testing.T) {
	vals := []float64{1, 2, 4, 8}
	a := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, len(vals),
		[]*memory.Buffer{memory.NewBufferBytes([]byte{0b0001}), memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(vals))}, nil, 0, 0))
	dense := quiver.Sum(vals)
	if got, err := Sum[float64](a); err != nil || got != dense {
		t.Fatalf("Sum = %v, %v; want %v, every value", got, err, dense)
	}
	if x, m, err := Values[float64](a); err != nil || len(x) != 4 || quiver.CountValid(len(x), m) != 4 {
		t.Fatalf("Values = %v, %+v, %v; want every value and a Mask without a bitmap", x, m, err)
	}
	if n, err := CountValid(a); err != nil || n != len(vals) {
		t.Fatalf("CountValid = %d, %v; want %d", n, err, len(vals))
	}
}

// TestMinMaxRules checks quiver's NaN, ±0 and identity rules through
// Arrow arrays, across chunk boundaries too.
func TestMinMaxRules(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nanUnderNull := float64Array([]float64{3, math.NaN(), 1}, 1)
	if lo, hi, err := MinMax[float64](nanUnderNull); err != nil || lo != 1 || hi != 3 {
		t.Fatalf("MinMax with a NaN under a null = %v, %v, %v; want 1, 3", lo, hi, err)
	}
	withNaN := float64Array([]float64{3, math.NaN(), 1})
	if m, err := Min[float64](nanUnderNull, withNaN); err != nil || math.Float64bits(m) != 0x7FF8000000000000 {
		t.Fatalf("Min with a NaN in the second chunk = %#x, %v; want the canonical NaN", math.Float64bits(m), err)
	}
	pz, nz := float64Array([]float64{0}), float64Array([]float64{negZero})
	if m, err := Min[float64](pz, nz); err != nil || math.Signbit(m) {
		t.Fatalf("Min(+0 | -0) = %v, %v; want +0, the first", m, err)
	}
	if m, err := Min[float64](nz, pz); err != nil || !math.Signbit(m) {
		t.Fatalf("Min(-0 | +0) = %v, %v; want -0, the first", m, err)
	}
	allNull := float64Array([]float64{5, 6}, 0, 1)
	s, err := Summarize[float64](allNull, allNull)
	if err != nil || !s.Empty() || s.Nulls != 4 || s.Min != math.MaxFloat64 || s.Max != -math.MaxFloat64 {
		t.Fatalf("Summarize of nulls only = %+v, %v; want empty with the identities and 4 nulls", s, err)
	}
}

// TestNoAllocs checks that the reductions do not allocate, for one array
// and for a chunked column, with and without nulls, but for one
// documented case: Add's interface call moves its Mask to the heap.
func TestNoAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters")
	}
	vals := make([]float64, 1000)
	for i := range vals {
		vals[i] = float64(i)
	}
	dense, nulls := float64Array(vals), float64Array(vals, 3, 500)
	chunks := arrow.NewChunked(arrow.PrimitiveTypes.Float64, []arrow.Array{dense, nulls, dense}).Chunks()
	ints := []arrow.Array{array.NewInt64Data(nulls.Data()), array.NewInt64Data(dense.Data())}
	var state quiver.SumState[float64]
	for _, tt := range []struct {
		name  string
		f     func()
		count float64
	}{
		{"Sum", func() { _, _ = Sum[float64](nulls) }, 0},
		{"Sum dense", func() { _, _ = Sum[float64](dense) }, 0},
		{"Summarize chunked", func() { _, _ = Summarize[float64](chunks...) }, 0},
		{"Min", func() { _, _ = Min[float64](nulls) }, 0},
		{"Max chunked", func() { _, _ = Max[float64](chunks...) }, 0},
		{"CountValid", func() { _, _ = CountValid(chunks...) }, 0},
		{"Values", func() { _, _, _ = Values[float64](nulls) }, 0},
		{"SumChecked chunked", func() { _, _ = SumChecked[int64](ints...) }, 0},
		{"Sum chunked", func() { _, _ = Sum[float64](chunks...) }, 0},
		{"Add dense", func() { _ = Add(&state, dense) }, 0},
		{"Add with nulls", func() { _ = Add(&state, nulls) }, 1},
	} {
		if n := testing.AllocsPerRun(50, tt.f); n != tt.count {
			t.Errorf("%s: %v allocations per call, want %v", tt.name, n, tt.count)
		}
	}
}
