// Package quiverarrow runs quiver's reductions on Apache Arrow data held in
// arrow-go arrays: one array, the chunks of an *arrow.Chunked, a column of
// a record batch, or a column read batch by batch from a record reader
// (an IPC stream or file, a Parquet file through pqarrow).
//
//	total, err := quiverarrow.Sum[float64](arr)                   // one array
//	total, err = quiverarrow.Sum[float64](col.Chunks()...)        // an *arrow.Chunked
//	s, err := quiverarrow.Summarize[arrow.Timestamp](rec.Column(2)) // s.Min is an arrow.Timestamp
//
//	var prices quiver.SumState[float64] // a column read batch by batch
//	err = quiverarrow.AddColumn(&prices, rdr, 0)
//	fmt.Println(prices.Sum())
//
// Every call takes the offset and the validity bitmap from the array
// itself, and arrays whose null count is 0 run quiver's dense kernels
// whether or not a bitmap was allocated for them. Several chunks are
// combined through quiver's partial states, so the result is that of one
// quiver call over the concatenated column: the same bits for float sums
// (quiver.Sum over the concatenated values and validity bitmap, on the
// active backend), exact for integer sums, min, max, summaries and
// counts. [SumReproducible] gives the same bits on every backend and for
// any cut into chunks: the exact sum of the values, rounded once.
//
// # Types
//
// The type parameter T is the Go type in which arrow-go stores the
// column's values, and results keep it, so they keep the column's
// meaning:
//
//	Int8 … Int64, Uint8 … Uint64      int8 … int64, uint8 … uint64
//	Float32, Float64                  float32, float64
//	Date32, Date64                    arrow.Date32, arrow.Date64
//	Time32, Time64                    arrow.Time32, arrow.Time64
//	Timestamp                         arrow.Timestamp (in the type's unit)
//	Duration                          arrow.Duration (in the type's unit)
//	MonthInterval                     arrow.MonthInterval
//
// The unit and time zone stay in the column's arrow.DataType. Integer
// sums are int64 or uint64 as in quiver (a Duration sum is a count of the
// column's unit). Other types, and a T that is not the column's, give an
// error, never a panic: errors wrap arrow.ErrNotImplemented (a type
// quiver does not reduce), arrow.ErrType (the wrong T) or
// arrow.ErrInvalid (a malformed array, see "Untrusted input"). Decimal
// arrays are not reduced (arrow.ErrNotImplemented), though arrow-go
// stores Decimal32 and Decimal64 values as int32 and int64: a sum or
// minimum of their unscaled integers would not be the column's.
//
// # Semantics
//
// Results follow quiver's rules (NaN, ±0, identities for columns without
// values, the ADR-013 order of float sums; see package quiver). An array
// with a null count of 0 is taken as having no nulls, as the Arrow format
// allows, without reading its bitmap; one with an unknown null count is
// read through its bitmap. A positive null count is not compared with the
// bitmap, which is the truth: Summarize's Nulls counts its clear bits.
//
// # Untrusted input
//
// Every array is checked before anything reads it, and a malformed one
// gives an error wrapping arrow.ErrInvalid that names the chunk (the
// index among the call's chunks, or the batch of a record reader), what
// is wrong and the numbers, never a panic and never a result computed
// from bytes outside the array's buffers:
//
//   - the array is not nil, nor a nil pointer, and has data;
//   - its length and offset are not negative, and their sum is an int;
//   - its stored null count is -1 (unknown) or in [0, length];
//   - its values buffer holds offset+length values, by the buffer's own
//     length: arrow-go builds the values slice up to the buffer's
//     capacity, which for an array read through IPC runs on into the
//     message's next buffers;
//   - where the null count is not 0, its validity bitmap buffer holds
//     ceil((offset+length)/8) bytes, or is absent with an unknown count
//     (every row valid, as arrow-go's IsValid says).
//
// The values and the bitmap handed to quiver end at the array's last row,
// in length and capacity. arrow-go's own constructors and IPC reader have
// limits of their own: read untrusted streams through ipc.NewMessageReader
// with ipc.WithMetadataSizeLimit and ipc.WithBodySizeLimit.
package quiverarrow
