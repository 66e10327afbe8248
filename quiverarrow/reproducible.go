package quiverarrow

// SumReproducible is not here yet: it waits for quiver.SumReproducible
// and quiver.SumReproducibleState[T], which are being added to the core.
// When they land, this file gets the one function below (uncommented) and
// reduce_test.go's table of float sums gets its row; Add and AddColumn
// take a *quiver.SumReproducibleState[T] already, as it has the Adder
// method Add(x []T, m ...quiver.Mask).
//
//	// SumReproducible returns the sum of the non-null values of a float32
//	// or float64 column as [quiver.SumReproducible] over the concatenated
//	// chunks: the same bits on every backend and for any cut.
//	//
//	// It returns an error, and no sum, if a chunk is not an array of T
//	// values or is malformed (see [Values]).
//	func SumReproducible[T constraints.Float](chunks ...arrow.Array) (T, error) {
//		var s quiver.SumReproducibleState[T]
//		if err := addAll(&s, chunks); err != nil {
//			return 0, err
//		}
//		return s.Sum(), nil
//	}
