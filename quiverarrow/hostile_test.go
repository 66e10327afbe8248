package quiverarrow

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// spare is a buffer of the first n bytes of b whose slice keeps b's whole
// capacity, as arrow-go's IPC reader makes them: the bytes past n belong
// to something else (the next buffers of the message).
func spare(b []byte, n int) *memory.Buffer {
	return memory.SliceBuffer(memory.NewBufferBytes(b), 0, n)
}

// attempt runs every reduction that reads T values on arr and returns
// their errors by name; a panic fails the test.
func attempt[T quiver.Number](t *testing.T, arr arrow.Array) map[string]error {
	t.Helper()
	errs := map[string]error{}
	try := func(name string, f func() error) {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("%s panicked: %v", name, p)
			}
		}()
		errs[name] = f()
	}
	try("Values", func() error { _, _, err := Values[T](arr); return err })
	try("Min", func() error { _, err := Min[T](arr); return err })
	try("Max", func() error { _, err := Max[T](arr); return err })
	try("MinMax", func() error { _, _, err := MinMax[T](arr); return err })
	try("Summarize", func() error { _, err := Summarize[T](arr); return err })
	try("Summarize chunked", func() error { _, err := Summarize[T](arr, arr); return err })
	try("Add", func() error { return Add(new(quiver.SummaryState[T]), arr) })
	try("CountValid", func() error { _, err := CountValid(arr); return err })
	return errs
}

// wantInvalid checks that each error wraps arrow.ErrInvalid and says
// what; CountValid, which reads no values, is checked only when
// countToo is set.
func wantInvalid(t *testing.T, name string, errs map[string]error, text string, countToo bool) {
	t.Helper()
	for op, err := range errs {
		if op == "CountValid" && !countToo {
			continue
		}
		if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), text) {
			t.Errorf("%s: %s: error %v, want arrow.ErrInvalid containing %q", name, op, err, text)
		}
	}
}

// TestShortValuesBuffer checks that a values buffer shorter than the
// array's offset+length is an error, though arrow-go's values slice
// reaches past it into the buffer's spare capacity.
func TestShortValuesBuffer(t *testing.T) {
	f64 := arrow.Float64Traits.CastToBytes([]float64{1, 2, 3, 4, 5, 6, 7, 8})
	i64 := arrow.Int64Traits.CastToBytes([]int64{1, 2, 3})
	bits := []byte{0xff, 0xff, 0xff, 0xff}
	for _, tt := range []struct {
		name string
		arr  arrow.Array
		text string
		f    bool
	}{
		{"float64: 2 values for 8 rows", array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 8,
			[]*memory.Buffer{nil, spare(f64, 16)}, nil, 0, 0)),
			"float64 values buffer has 16 bytes, need 64 for 8 rows at offset 0", true},
		{"float64 with nulls: 2 values for 8 rows", array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 8,
			[]*memory.Buffer{memory.NewBufferBytes(bits), spare(f64, 16)}, nil, 1, 0)),
			"values buffer has 16 bytes, need 64", true},
		{"float64: 6 values for 4 rows at offset 4", array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 4,
			[]*memory.Buffer{nil, spare(f64, 48)}, nil, 0, 4)),
			"values buffer has 48 bytes, need 64 for 4 rows at offset 4", true},
		{"int64: a 7-byte buffer", array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Int64, 1,
			[]*memory.Buffer{nil, spare(i64, 7)}, nil, 0, 0)),
			"int64 values buffer has 7 bytes, need 8 for 1 rows", false},
		{"int64: a 12-byte buffer", array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Int64, 2,
			[]*memory.Buffer{nil, spare(i64, 12)}, nil, 0, 0)),
			"int64 values buffer has 12 bytes, need 16 for 2 rows", false},
	} {
		if tt.f {
			errs := attempt[float64](t, tt.arr)
			wantInvalid(t, tt.name, errs, tt.text, false)
			if _, err := Sum[float64](tt.arr); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("%s: Sum: error %v, want arrow.ErrInvalid", tt.name, err)
			}
			if _, err := SumReproducible[float64](tt.arr); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("%s: SumReproducible: error %v, want arrow.ErrInvalid", tt.name, err)
			}
			continue
		}
		errs := attempt[int64](t, tt.arr)
		wantInvalid(t, tt.name, errs, tt.text, false)
		if _, err := SumInt[int64](tt.arr); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: SumInt: error %v, want arrow.ErrInvalid", tt.name, err)
		}
		if _, err := SumChecked[int64](tt.arr); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: SumChecked: error %v, want arrow.ErrInvalid", tt.name, err)
		}
	}
}

// TestShortBitmapBuffer checks the validity bitmap by its buffer's
// length too: a 1-byte bitmap with spare capacity for 20 rows.
func TestShortBitmapBuffer(t *testing.T) {
	vals := arrow.Float64Traits.CastToBytes(make([]float64, 20))
	for _, nulls := range []int{array.UnknownNullCount, 3} {
		arr := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 20,
			[]*memory.Buffer{spare([]byte{0xff, 0xff, 0xff, 0xff}, 1), memory.NewBufferBytes(vals)}, nil, nulls, 0))
		wantInvalid(t, "float64", attempt[float64](t, arr), "validity bitmap buffer has 1 bytes, need 3 for 20 rows at offset 0", true)
		str := array.MakeFromData(array.NewData(arrow.BinaryTypes.String, 20,
			[]*memory.Buffer{spare([]byte{0xff, 0xff, 0xff, 0xff}, 2), memory.NewBufferBytes(make([]byte, 84)), nil}, nil, nulls, 0))
		if _, err := CountValid(float64Array([]float64{1}), str); !errors.Is(err, arrow.ErrInvalid) ||
			!strings.Contains(err.Error(), "chunk 1: utf8 validity bitmap buffer has 2 bytes, need 3") {
			t.Errorf("CountValid of a string array with a short bitmap (null count %d): %v", nulls, err)
		}
	}
}

// TestValuesCut checks that the slice Values returns ends at the array's
// last row in length and capacity, and so does the Mask's bitmap: no
// kernel can be handed bytes past the array.
func TestValuesCut(t *testing.T) {
	f64 := arrow.Float64Traits.CastToBytes([]float64{1, 2, 3, 4, 5, 6, 7, 8})
	arr := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 3,
		[]*memory.Buffer{memory.NewBufferBytes([]byte{0xff, 0xff, 0xff}), memory.NewBufferBytes(f64)}, nil, 1, 2))
	x, m, err := Values[float64](arr)
	if err != nil || len(x) != 3 || cap(x) != 3 || x[0] != 3 {
		t.Fatalf("Values = %v (cap %d), %v; want [3 4 5] with capacity 3", x, cap(x), err)
	}
	if n := quiver.CountValid(len(x), m); n != 3 {
		t.Fatalf("CountValid of the Mask = %d, want 3", n)
	}
}

// TestNegativeLengths checks arrays whose length or offset is negative,
// as arrow-go's IPC reader accepts them for boolean and string columns.
func TestNegativeLengths(t *testing.T) {
	bools := []byte{0xff, 0xff}
	for _, tt := range []struct {
		name   string
		n, off int
		text   string
	}{
		{"length -3", -3, 0, "chunk 0: bool array has length -3"},
		{"offset -8", 4, -8, "chunk 0: bool array has offset -8"},
	} {
		arr := array.MakeFromData(array.NewData(arrow.FixedWidthTypes.Boolean, tt.n,
			[]*memory.Buffer{memory.NewBufferBytes([]byte{0xff, 0xff}), memory.NewBufferBytes(bools)}, nil, 1, tt.off))
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: CountValid panicked: %v", tt.name, p)
				}
			}()
			if _, err := CountValid(arr); !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("%s: CountValid: error %v, want arrow.ErrInvalid containing %q", tt.name, err, tt.text)
			}
		}()
	}
}

// TestTypedNil checks an arrow.Array holding a nil pointer, and an array
// without data.
func TestTypedNil(t *testing.T) {
	var typedNil *array.Float64
	for _, tt := range []struct {
		arr  arrow.Array
		text string
	}{{typedNil, "nil array"}, {&array.Float64{}, "array without data"}} {
		wantInvalid(t, "typed nil", attempt[float64](t, tt.arr), tt.text, true)
		if err := Add(new(quiver.SumState[float64]), tt.arr); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("Add of %#v: error %v", tt.arr, err)
		}
	}
	if _, err := Sum[float64](float64Array([]float64{1}), typedNil); !errors.Is(err, arrow.ErrInvalid) ||
		!strings.Contains(err.Error(), "chunk 1: nil array") {
		t.Errorf("Sum with a typed nil second chunk: %v", err)
	}
}

// TestDecimalsRejected checks that decimal arrays are not read as their
// unscaled integers, though their Go storage types are int32 and int64.
func TestDecimalsRejected(t *testing.T) {
	d32 := array.MakeFromData(array.NewData(&arrow.Decimal32Type{Precision: 9, Scale: 2}, 2,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{150, 250}))}, nil, 0, 0))
	d64 := array.MakeFromData(array.NewData(&arrow.Decimal64Type{Precision: 18, Scale: 3}, 2,
		[]*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes([]int64{150, 250}))}, nil, 0, 0))
	for name, err := range map[string]error{
		"Min decimal32":        second(Min[decimal.Decimal32](d32)),
		"SumInt decimal32":     second(SumInt[decimal.Decimal32](d32)),
		"Values decimal32":     third(Values[decimal.Decimal32](d32)),
		"SumChecked decimal64": second(SumChecked[decimal.Decimal64](d64)),
		"Summarize decimal64":  second(Summarize[decimal.Decimal64](d64)),
		"Add decimal64":        Add(new(quiver.IntSumState[decimal.Decimal64]), d64),
	} {
		if !errors.Is(err, arrow.ErrNotImplemented) || !strings.Contains(err.Error(), "decimal") {
			t.Errorf("%s: error %v, want arrow.ErrNotImplemented naming the decimal type", name, err)
		}
	}
}

// TestNullCountRange checks that a stored null count outside [-1, length]
// is an error, and that -1 (unknown) reads the bitmap.
func TestNullCountRange(t *testing.T) {
	vals := arrow.Float64Traits.CastToBytes([]float64{1, 2, 4, 8})
	mk := func(nulls int) arrow.Array {
		return array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 4,
			[]*memory.Buffer{memory.NewBufferBytes([]byte{0b0101}), memory.NewBufferBytes(vals)}, nil, nulls, 0))
	}
	wantInvalid(t, "null count 5", attempt[float64](t, mk(5)), "float64 array of length 4 has a null count of 5", true)
	wantInvalid(t, "null count -7", attempt[float64](t, mk(-7)), "has a null count of -7", true)
	if s, err := Sum[float64](mk(array.UnknownNullCount)); err != nil || s != 5 {
		t.Errorf("Sum with an unknown null count = %v, %v; want 5, through the bitmap", s, err)
	}
}

// TestChunkIndexInErrors checks that an error in a chunked column names
// the chunk.
func TestChunkIndexInErrors(t *testing.T) {
	good := float64Array([]float64{1, 2})
	bad := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 8,
		[]*memory.Buffer{nil, spare(arrow.Float64Traits.CastToBytes(make([]float64, 8)), 8)}, nil, 0, 0))
	_, err := Sum[float64](good, good, bad)
	if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "chunk 2: float64 values buffer has 8 bytes") {
		t.Fatalf("Sum with a bad third chunk: %v", err)
	}
}
