package quiverarrow

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/quiverlabs/quiver"
	"golang.org/x/exp/constraints"
)

// The reductions take the chunks of one column, in order: one array
// (Sum[float64](arr)), the chunks of an *arrow.Chunked
// (Sum[float64](col.Chunks()...)) or a column of a record batch
// (Sum[float64](rec.Column(i))). Several chunks are combined through
// quiver's partial states, so their result is that of one call over the
// concatenated column: bit for bit for float sums, exactly for the rest.

// Sum returns the sum of the non-null values of a float32 or float64
// column, as [quiver.Sum] over the concatenated chunks: the same bits,
// wherever the chunks are cut. The sum of nothing is +0.0.
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func Sum[T constraints.Float](chunks ...arrow.Array) (T, error) {
	if len(chunks) == 1 {
		x, bits, off, err := view[T](chunks[0], place{"chunk", 0})
		if err != nil || bits == nil {
			return quiver.Sum(x), err
		}
		return quiver.Sum(x, quiver.Valid(bits, off)), nil
	}
	var s quiver.SumState[T]
	err := eachChunk(chunks, func(x []T, bits []byte, off int) {
		s.Add(x, quiver.Valid(bits, off)) // a nil bitmap: all valid
	})
	if err != nil {
		return 0, err
	}
	return s.Sum(), nil
}

// SumInt returns the sum of the non-null values of a signed integer
// column, widened to int64 and wrapping on overflow, as [quiver.SumInt].
// T is the column's Go value type: int8 to int64, or arrow.Duration and
// the other temporal types (a Duration sum is a count of the column's
// unit). [SumChecked] also says whether the sum wrapped.
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func SumInt[T constraints.Signed](chunks ...arrow.Array) (int64, error) {
	s, err := intState[T](chunks)
	return s.Sum(), err
}

// SumUint returns the sum of the non-null values of an unsigned integer
// column, widened to uint64 and wrapping on overflow, as [quiver.SumUint].
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func SumUint[T constraints.Unsigned](chunks ...arrow.Array) (uint64, error) {
	s, err := uintState[T](chunks)
	return s.Sum(), err
}

// SumChecked returns the exact sum of the non-null values of a signed
// integer column and whether it leaves int64, as [quiver.SumChecked]
// over the concatenated chunks: a chunk whose own sum overflows does not
// make the column's sum overflow if the others bring it back.
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func SumChecked[T constraints.Signed](chunks ...arrow.Array) (quiver.CheckedSum[int64], error) {
	s, err := intState[T](chunks)
	return s.Checked(), err
}

// SumCheckedUint returns the exact sum of the non-null values of an
// unsigned integer column and whether it leaves uint64, as
// [quiver.SumCheckedUint] over the concatenated chunks.
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func SumCheckedUint[T constraints.Unsigned](chunks ...arrow.Array) (quiver.CheckedSum[uint64], error) {
	s, err := uintState[T](chunks)
	return s.Checked(), err
}

// intState is the exact sum of a signed column's chunks; the zero state
// on error.
func intState[T constraints.Signed](chunks []arrow.Array) (quiver.IntSumState[T], error) {
	var s quiver.IntSumState[T]
	err := eachChunk(chunks, func(x []T, bits []byte, off int) {
		s.Add(x, quiver.Valid(bits, off)) // a nil bitmap: all valid
	})
	if err != nil {
		return quiver.IntSumState[T]{}, err
	}
	return s, nil
}

// uintState is intState for unsigned columns.
func uintState[T constraints.Unsigned](chunks []arrow.Array) (quiver.UintSumState[T], error) {
	var s quiver.UintSumState[T]
	err := eachChunk(chunks, func(x []T, bits []byte, off int) {
		s.Add(x, quiver.Valid(bits, off)) // a nil bitmap: all valid
	})
	if err != nil {
		return quiver.UintSumState[T]{}, err
	}
	return s, nil
}

// Min returns the smallest non-null value of a column, with quiver's
// rules ([quiver.Min]): a NaN among the values gives the canonical NaN,
// of +0.0 and -0.0 the first wins, and a column with no non-null value
// gives the largest value of T (use [Summarize] to tell). The result has
// the column's Go type: the minimum of a Timestamp column is an
// arrow.Timestamp in the column's unit.
//
// It returns an error, and 0, if a chunk is not an array of T values or
// is malformed (see [Values]).
func Min[T quiver.Number](chunks ...arrow.Array) (T, error) {
	if len(chunks) == 1 {
		x, bits, off, err := view[T](chunks[0], place{"chunk", 0})
		switch {
		case err != nil:
			return 0, err
		case bits == nil:
			return quiver.Min(x), nil
		}
		return quiver.Min(x, quiver.Valid(bits, off)), nil
	}
	s, err := summaryState[T](chunks)
	if err != nil {
		return 0, err
	}
	return s.Min(), nil
}

// Max returns the largest non-null value of a column, with the rules of
// [Min]; the lowest value of T when no value is non-null.
//
// It returns an error, and 0, if a chunk is not an array of T values or
// is malformed (see [Values]).
func Max[T quiver.Number](chunks ...arrow.Array) (T, error) {
	if len(chunks) == 1 {
		x, bits, off, err := view[T](chunks[0], place{"chunk", 0})
		switch {
		case err != nil:
			return 0, err
		case bits == nil:
			return quiver.Max(x), nil
		}
		return quiver.Max(x, quiver.Valid(bits, off)), nil
	}
	s, err := summaryState[T](chunks)
	if err != nil {
		return 0, err
	}
	return s.Max(), nil
}

// MinMax returns the smallest and largest non-null values of a column in
// one pass, with the rules of [Min] and [Max].
//
// It returns an error, and 0, if a chunk is not an array of T values or
// is malformed (see [Values]).
func MinMax[T quiver.Number](chunks ...arrow.Array) (lo, hi T, err error) {
	s, err := Summarize[T](chunks...)
	return s.Min, s.Max, err
}

// Summarize returns the min, max, non-null count and null count of a
// column in one pass, as [quiver.Summarize] over the concatenated chunks.
//
// It returns an error if a chunk is not an array of T values or is
// malformed (see [Values]); the Summary is then the zero value.
func Summarize[T quiver.Number](chunks ...arrow.Array) (quiver.Summary[T], error) {
	if len(chunks) == 1 {
		x, bits, off, err := view[T](chunks[0], place{"chunk", 0})
		switch {
		case err != nil:
			return quiver.Summary[T]{}, err
		case bits == nil:
			return quiver.Summarize(x), nil
		}
		return quiver.Summarize(x, quiver.Valid(bits, off)), nil
	}
	s, err := summaryState[T](chunks)
	if err != nil {
		return quiver.Summary[T]{}, err
	}
	return s.Summary(), nil
}

// summaryState is the summary of a column's chunks; the empty state on
// error.
func summaryState[T quiver.Number](chunks []arrow.Array) (quiver.SummaryState[T], error) {
	var s quiver.SummaryState[T]
	err := eachChunk(chunks, func(x []T, bits []byte, off int) {
		s.Add(x, quiver.Valid(bits, off)) // a nil bitmap: all valid
	})
	if err != nil {
		return quiver.SummaryState[T]{}, err
	}
	return s, nil
}

// eachChunk checks every chunk, then calls add with each one's parts (see
// view), in order: an error leaves the caller's state as it was. The
// callers' add calls a state's Add directly, not through an interface,
// so that neither the state nor the Mask escapes: the one-call
// reductions do not allocate.
func eachChunk[T quiver.Number](chunks []arrow.Array, add func(x []T, bits []byte, off int)) error {
	for i, c := range chunks {
		if _, _, _, err := view[T](c, place{"chunk", i}); err != nil {
			return err
		}
	}
	for _, c := range chunks {
		x, bits, off, _ := view[T](c, place{})
		add(x, bits, off)
	}
	return nil
}

// CountValid returns the number of non-null rows of a column of any type
// with a validity bitmap, counted from the bitmap by [quiver.CountValid]
// (so that it agrees with the Count of [Summarize] on the same arrays);
// an array whose null count is 0 is counted as all valid without reading
// its bitmap, and an array of type Null as all null. It counts what
// arrow-go's IsValid reports: for a dictionary array the validity of its
// indices (a null among the dictionary's values is not a null row), for a
// struct or list array its own bitmap, not its children's.
//
// It returns an error wrapping arrow.ErrNotImplemented for union and
// run-end encoded arrays, whose nulls are not in a validity bitmap of
// their own, and one wrapping arrow.ErrInvalid for a malformed array: a
// negative length or offset, a null count outside [-1, length], a bitmap
// too short or missing where the null count says it has nulls (see the
// package documentation's "Untrusted input").
func CountValid(chunks ...arrow.Array) (int, error) {
	var s quiver.CountState
	for i, c := range chunks {
		p := place{"chunk", i}
		data, err := check(c, p)
		if err != nil {
			return 0, err
		}
		switch data.DataType().ID() {
		case arrow.NULL:
			continue
		case arrow.SPARSE_UNION, arrow.DENSE_UNION, arrow.RUN_END_ENCODED:
			return 0, fmt.Errorf("%w: quiverarrow: CountValid of a %s array: its nulls are in its children",
				arrow.ErrNotImplemented, data.DataType())
		}
		bits, off, err := validity(data, p)
		switch {
		case err != nil:
			return 0, err
		case bits == nil:
			s.Add(data.Len())
		default:
			s.Add(data.Len(), quiver.Valid(bits, off))
		}
	}
	return s.Count(), nil
}
