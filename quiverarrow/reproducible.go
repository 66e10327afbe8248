package quiverarrow

import (
	"github.com/apache/arrow-go/v18/arrow"
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver"
)

// SumReproducible returns the sum of the non-null values of a float32 or
// float64 column as [quiver.SumReproducible] over the concatenated
// chunks: the exact sum rounded once, so the same bits on every backend,
// for any cut into chunks and any order of the values.
//
// It returns an error, and no sum, if a chunk is not an array of T
// values or is malformed (see [Values]).
func SumReproducible[T constraints.Float](chunks ...arrow.Array) (T, error) {
	if len(chunks) == 1 {
		x, bits, off, err := view[T](chunks[0], place{"chunk", 0})
		if err != nil || bits == nil {
			return quiver.SumReproducible(x), err
		}
		return quiver.SumReproducible(x, quiver.Valid(bits, off)), nil
	}
	var s quiver.SumReproducibleState[T]
	err := eachChunk(chunks, func(x []T, bits []byte, off int) {
		s.Add(x, quiver.Valid(bits, off)) // a nil bitmap: all valid
	})
	if err != nil {
		return 0, err
	}
	return s.Sum(), nil
}
