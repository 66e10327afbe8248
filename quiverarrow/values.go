package quiverarrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverlabs/quiver"
)

// Values returns the values of arr as a []T, with the array's offset
// already applied (element i is row i of arr), and the [quiver.Mask] of
// its nulls: quiver.Valid over the array's own validity bitmap at the
// array's own offset when arr may have nulls, the zero Mask (every element
// valid, the dense kernels) when its null count is 0, whether or not a
// bitmap was allocated. Nothing is copied: the slice and the Mask borrow
// arr's buffers, so they are valid while arr is.
//
// T is the Go type of the array's values as arrow-go stores them (see the
// package documentation): float64 for a Float64 array, arrow.Timestamp for
// a Timestamp array, and so on. Values returns an error wrapping
// arrow.ErrNotImplemented for an array whose values quiver does not reduce
// (strings, decimals, float16, nested types, ...), one wrapping
// arrow.ErrType when arr holds values of another Go type than T, and one
// wrapping arrow.ErrInvalid when arr's buffers are too short for its
// length and offset.
//
// Use it to feed a quiver partial state or to pass a selection:
//
//	x, m, err := quiverarrow.Values[float64](arr)
//	if err != nil { ... }
//	total := quiver.Sum(x, m.Select(rows))
func Values[T quiver.Number](arr arrow.Array) ([]T, quiver.Mask, error) {
	x, bits, off, err := view[T](arr)
	if err != nil || bits == nil {
		return x, quiver.Mask{}, err
	}
	return x, quiver.Valid(bits, off), nil
}

// view is Values in parts: the values, and the validity bitmap with the
// bit offset of row 0, or a nil bitmap when every row is valid. The
// reductions use it to call quiver without a Mask on arrays without
// nulls, which takes quiver's short-input fast paths as well as its dense
// kernels.
func view[T quiver.Number](arr arrow.Array) (x []T, bits []byte, off int, err error) {
	if arr == nil {
		return nil, nil, 0, fmt.Errorf("%w: quiverarrow: nil array", arrow.ErrInvalid)
	}
	typed, ok := arr.(interface{ Values() []T })
	if !ok {
		return nil, nil, 0, typeError[T](arr.DataType())
	}
	n := arr.Len()
	x = typed.Values()
	if len(x) != n {
		// arrow-go leaves the values nil when the array has no value
		// buffer; any other mismatch is a malformed array.
		return nil, nil, 0, fmt.Errorf("%w: quiverarrow: %s array of length %d has %d values",
			arrow.ErrInvalid, arr.DataType(), n, len(x))
	}
	bits, off, err = validity(arr)
	if err != nil {
		return nil, nil, 0, err
	}
	return x, bits, off, nil
}

// validity returns arr's validity bitmap and the bit offset of its row 0,
// or a nil bitmap when every row is valid, and an error for a bitmap that
// is missing or too short for the array's nulls.
func validity(arr arrow.Array) (bits []byte, off int, err error) {
	n, data := arr.Len(), arr.Data()
	// The null count as stored, not arr.NullN(): an unknown count (< 0)
	// would make NullN count the bitmap once more (and store the count in
	// shared array data), where the masked kernel counts it anyway.
	if data.NullN() == 0 || n == 0 {
		return nil, 0, nil
	}
	bits, off = arr.NullBitmapBytes(), data.Offset()
	if len(bits) == 0 {
		if data.NullN() < 0 {
			// An unknown count and no bitmap: arrow-go treats every row
			// as valid (IsValid), and so does quiver.
			return nil, 0, nil
		}
		return nil, 0, fmt.Errorf("%w: quiverarrow: %s array has %d nulls and no validity bitmap",
			arrow.ErrInvalid, arr.DataType(), data.NullN())
	}
	if need := (uint64(off) + uint64(n) + 7) / 8; need > uint64(len(bits)) {
		return nil, 0, fmt.Errorf("%w: quiverarrow: %s validity bitmap has %d bytes, need %d for %d rows at offset %d",
			arrow.ErrInvalid, arr.DataType(), len(bits), need, n, off)
	}
	return bits, off, nil
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
