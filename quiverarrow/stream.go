package quiverarrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/quiverlabs/quiver"
)

// Adder is a quiver partial state that takes batches of T values:
// *quiver.SumState[T], *quiver.IntSumState[T], *quiver.UintSumState[T]
// and *quiver.SummaryState[T]. [Add] and [AddColumn] feed Arrow arrays to
// any of them, so a column that arrives batch by batch (a record reader,
// a Parquet file, an IPC stream) is reduced as it is read, and the
// state's results are those of one call over the whole column.
type Adder[T quiver.Number] interface {
	Add(x []T, m ...quiver.Mask)
}

// Add feeds the array arr to the quiver partial state s, with arr's
// offset and its validity bitmap (none when its null count is 0). T is
// inferred from s:
//
//	var total quiver.SumState[float64]
//	err := quiverarrow.Add(&total, arr)
//
// The Mask of an array with nulls goes to the heap, as s is called
// through an interface: one small allocation per batch with nulls.
//
// It returns an error, leaving s unchanged, if arr is not an array of T
// values or is malformed (see [Values]).
func Add[T quiver.Number](s Adder[T], arr arrow.Array) error {
	return add(s, arr, place{})
}

// add is Add with the place of arr for errors.
func add[T quiver.Number](s Adder[T], arr arrow.Array, p place) error {
	x, bits, off, err := view[T](arr, p)
	switch {
	case err != nil:
		return err
	case bits == nil:
		s.Add(x)
	default:
		s.Add(x, quiver.Valid(bits, off))
	}
	return nil
}

// AddColumn reads every remaining record batch of rdr and feeds its
// column col to the quiver partial state s, in order. It does not release
// rdr.
//
// It returns the reader's error if reading fails, and an error if col is
// not a column of rdr's schema or a batch's column is not an array of T
// values or is malformed (see [Values]); the batches before the failing
// one have been added to s.
func AddColumn[T quiver.Number](s Adder[T], rdr array.RecordReader, col int) error {
	if col < 0 || col >= rdr.Schema().NumFields() {
		return fmt.Errorf("%w: quiverarrow: column %d of a schema with %d fields",
			arrow.ErrIndex, col, rdr.Schema().NumFields())
	}
	for i := 0; rdr.Next(); i++ {
		if err := add(s, rdr.RecordBatch().Column(col), place{"batch", i}); err != nil {
			return err
		}
	}
	return rdr.Err()
}
