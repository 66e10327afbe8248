package quiverarrow

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// Values returns the values of arr as a []T, with the array's offset
// already applied (element i is row i of arr), and the [quiver.Mask] of
// its nulls: quiver.Valid over the array's own validity bitmap at the
// array's own offset when arr may have nulls, the zero Mask (every element
// valid, the dense kernels) when its null count is 0, whether or not a
// bitmap was allocated. Nothing is copied: the slice and the Mask borrow
// arr's buffers, so they are valid while arr is. The slice ends at the
// array's last row in length and capacity, and the bitmap at the byte of
// its last row, so nothing past the array can be reached through them.
//
// T is the Go type of the array's values as arrow-go stores them (see the
// package documentation): float64 for a Float64 array, arrow.Timestamp for
// a Timestamp array, and so on. Values returns an error wrapping
// arrow.ErrNotImplemented for an array whose values quiver does not reduce
// (strings, decimals, float16, nested types, ...), one wrapping
// arrow.ErrType when arr holds values of another Go type than T, and one
// wrapping arrow.ErrInvalid when arr is malformed (see the package
// documentation's "Untrusted input").
//
// Use it to feed a quiver partial state or to pass a selection:
//
//	x, m, err := quiverarrow.Values[float64](arr)
//	if err != nil { ... }
//	total := quiver.Sum(x, m.Select(rows))
func Values[T quiver.Number](arr arrow.Array) ([]T, quiver.Mask, error) {
	x, bits, off, err := view[T](arr, place{})
	if err != nil || bits == nil {
		return x, quiver.Mask{}, err
	}
	return x, quiver.Valid(bits, off), nil
}

// place names the array an error is about: the index of a chunk among a
// call's chunks, of a batch in a record reader, or nothing (one array
// passed on its own). It is formatted only when there is an error.
type place struct {
	what string // "chunk", "batch" or ""
	i    int
}

// invalid is an error wrapping arrow.ErrInvalid about the array at p.
func invalid(p place, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.what != "" {
		msg = fmt.Sprintf("%s %d: %s", p.what, p.i, msg)
	}
	return fmt.Errorf("%w: quiverarrow: %s", arrow.ErrInvalid, msg)
}

// view is Values in parts: the values, and the validity bitmap with the
// bit offset of row 0, or a nil bitmap when every row is valid. The
// reductions use it to call quiver without a Mask on arrays without
// nulls, which takes quiver's short-input fast paths as well as its dense
// kernels.
//
// It is the one validation step before anything reads an array (see
// check): the values buffer must hold offset+length values by its own
// length, not by the capacity of the slice arrow-go builds over it
// (which, for arrays read through IPC, runs on into the message's next
// buffers), and the slice handed on is cut to exactly the array's rows.
func view[T quiver.Number](arr arrow.Array, p place) (x []T, bits []byte, off int, err error) {
	data, err := check(arr, p)
	if err != nil {
		return nil, nil, 0, err
	}
	dt := data.DataType()
	// Decimal32 and Decimal64 arrays store int32 and int64 under names
	// of their own, which satisfy quiver.Number: the type, not the Go
	// storage, decides what quiverarrow reads.
	typed, ok := arr.(interface{ Values() []T })
	if goType(dt) == "" || !ok {
		return nil, nil, 0, typeError[T](dt)
	}
	n := data.Len()
	var z T
	if _, err := valuesBuffer(data, int(unsafe.Sizeof(z)), p); err != nil {
		return nil, nil, 0, err
	}
	x = typed.Values()
	if len(x) != n {
		// arrow-go slices the values to the array's rows; no array it
		// builds gets here.
		return nil, nil, 0, invalid(p, "%s array of length %d has %d values", dt, n, len(x))
	}
	bits, off, err = validity(data, p)
	if err != nil {
		return nil, nil, 0, err
	}
	return x[:n:n], bits, off, nil
}

// valuesBuffer returns the values buffer of data, which check passed, as
// the bytes of its rows 0..offset+length-1 at size bytes a value, or an
// error if the buffer's own length is shorter (nil bytes for no rows).
func valuesBuffer(data arrow.ArrayData, size int, p place) ([]byte, error) {
	n, off := data.Len(), data.Offset()
	if n == 0 {
		return nil, nil
	}
	have, bufs := 0, data.Buffers()
	if len(bufs) > 1 && bufs[1] != nil {
		have = bufs[1].Len()
	}
	// off+n does not overflow (check); the product may.
	if off+n > math.MaxInt/size || have < (off+n)*size {
		return nil, invalid(p, "%s values buffer has %d bytes, need %d for %d rows at offset %d",
			data.DataType(), have, uint64(off+n)*uint64(size), n, off)
	}
	return bufs[1].Bytes()[:(off+n)*size], nil
}

// check returns arr's data after the checks every array gets, whatever
// its type: not nil (nor a nil pointer, nor without data), a length and
// offset that are not negative and whose sum is an int, and a stored null
// count in [-1, length] (-1 is arrow-go's "unknown").
func check(arr arrow.Array, p place) (arrow.ArrayData, error) {
	if isNil(arr) {
		return nil, invalid(p, "nil array")
	}
	data := arr.Data()
	if isNil(data) {
		return nil, invalid(p, "array without data")
	}
	n, off, nulls := data.Len(), data.Offset(), data.NullN()
	switch {
	case n < 0:
		return nil, invalid(p, "%s array has length %d", data.DataType(), n)
	case off < 0:
		return nil, invalid(p, "%s array has offset %d", data.DataType(), off)
	case n > math.MaxInt-off:
		return nil, invalid(p, "%s array of length %d at offset %d ends past the largest int", data.DataType(), n, off)
	case nulls < array.UnknownNullCount || nulls > n:
		return nil, invalid(p, "%s array of length %d has a null count of %d", data.DataType(), n, nulls)
	}
	return data, nil
}

// isNil reports whether v is nil or holds a nil pointer, as a typed nil
// array does (var a *array.Float64): its methods dereference it.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// validity returns the validity bitmap of data, which check passed, and
// the bit offset of its row 0, or a nil bitmap when every row is valid,
// and an error for a bitmap that is missing or too short for the array's
// nulls. The bitmap ends at the byte of the array's last row.
func validity(data arrow.ArrayData, p place) (bits []byte, off int, err error) {
	n, nulls := data.Len(), data.NullN()
	// The null count as stored: an unknown count (-1) is not counted
	// from the bitmap here, as arr.NullN() would, since the masked
	// kernels count it anyway.
	if nulls == 0 || n == 0 {
		return nil, 0, nil
	}
	off = data.Offset()
	var bm *memory.Buffer
	if bufs := data.Buffers(); len(bufs) > 0 {
		bm = bufs[0]
	}
	if bm == nil || bm.Len() == 0 {
		if nulls < 0 {
			// An unknown count and no bitmap: arrow-go treats every row
			// as valid (IsValid), and so does quiver.
			return nil, 0, nil
		}
		return nil, 0, invalid(p, "%s array has %d nulls and no validity bitmap", data.DataType(), nulls)
	}
	end := off + n // no overflow: check
	need := end/8 + min(end%8, 1)
	if bm.Len() < need {
		return nil, 0, invalid(p, "%s validity bitmap buffer has %d bytes, need %d for %d rows at offset %d",
			data.DataType(), bm.Len(), need, n, off)
	}
	return bm.Bytes()[:need:need], off, nil
}

// typeError is the error for an array of type dt read as a []T: the Go
// type to use instead, or that the type is not supported at all.
func typeError[T quiver.Number](dt arrow.DataType) error {
	want := goType(dt)
	if want == "" {
		return fmt.Errorf("%w: quiverarrow: %s arrays are not supported (numeric, date, time, timestamp and duration arrays are)",
			arrow.ErrNotImplemented, dt)
	}
	return fmt.Errorf("%w: quiverarrow: %s array read as %T: its values are %s", arrow.ErrType, dt, *new(T), want)
}

// goType is the Go type of the values arrow-go stores for arrays of type
// dt, or "" if quiver does not reduce them.
func goType(dt arrow.DataType) string {
	switch dt.ID() {
	case arrow.INT8:
		return "int8"
	case arrow.INT16:
		return "int16"
	case arrow.INT32:
		return "int32"
	case arrow.INT64:
		return "int64"
	case arrow.UINT8:
		return "uint8"
	case arrow.UINT16:
		return "uint16"
	case arrow.UINT32:
		return "uint32"
	case arrow.UINT64:
		return "uint64"
	case arrow.FLOAT32:
		return "float32"
	case arrow.FLOAT64:
		return "float64"
	case arrow.DATE32:
		return "arrow.Date32"
	case arrow.DATE64:
		return "arrow.Date64"
	case arrow.TIME32:
		return "arrow.Time32"
	case arrow.TIME64:
		return "arrow.Time64"
	case arrow.TIMESTAMP:
		return "arrow.Timestamp"
	case arrow.DURATION:
		return "arrow.Duration"
	case arrow.INTERVAL_MONTHS:
		return "arrow.MonthInterval"
	}
	return ""
}
