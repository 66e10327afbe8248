package quiverarrow

// BenchmarkChunkedSum is the module's own view of hypothesis H83 of the
// ledger (bench/state_test.go, where it is registered and measured):
// a chunked column costs within 1.1× of one slice. It sums 16M float64 held
// as 256 arrays of 64K rows (impl=chunked, Sum over the chunks, carried
// through a quiver.SumState) and as one []float64 (impl=slice,
// quiver.Sum), the same bytes in memory: what it measures is the cost of
// the chunking, per-chunk validation and the state's carried lanes, on a
// sum that is bound by memory bandwidth.

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

func BenchmarkChunkedSum(b *testing.B) {
	const n, batch = 16 << 20, 64 << 10
	x := make([]float64, n)
	r := rand.New(rand.NewPCG(1, 1))
	for i := range x {
		x[i] = r.NormFloat64()
	}
	// Each chunk is an array of its own over its 64K rows of x, without
	// a copy.
	chunks := make([]arrow.Array, 0, n/batch)
	for lo := 0; lo < n; lo += batch {
		buf := memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(x[lo : lo+batch]))
		data := array.NewData(arrow.PrimitiveTypes.Float64, batch, []*memory.Buffer{nil, buf}, nil, 0, 0)
		chunks = append(chunks, array.MakeFromData(data))
		data.Release()
	}
	col := arrow.NewChunked(arrow.PrimitiveTypes.Float64, chunks)
	defer col.Release()

	want := quiver.Sum(x)
	var sink float64
	b.Run("impl=chunked", func(b *testing.B) {
		b.SetBytes(n * 8)
		for b.Loop() {
			s, err := Sum[float64](col.Chunks()...)
			if err != nil || s != want {
				b.Fatalf("Sum = %v, %v; want %v", s, err, want)
			}
			sink += s
		}
	})
	b.Run("impl=slice", func(b *testing.B) {
		b.SetBytes(n * 8)
		for b.Loop() {
			sink += quiver.Sum(x)
		}
	})
	_ = sink
}

// BenchmarkOneArray is the fixed cost of a call on one array, validation
// included: Sum of a float64 array of n rows with nulls, beside
// quiver.Sum over its values and bitmap (impl=core).
func BenchmarkOneArray(b *testing.B) {
	for _, n := range []int{16, 4096} {
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i)
		}
		arr := float64Array(vals, 1)
		x, bits, off := arr.Float64Values(), arr.NullBitmapBytes(), arr.Data().Offset()
		var sink float64
		b.Run("impl=quiverarrow/n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				s, _ := Sum[float64](arr)
				sink += s
			}
		})
		b.Run("impl=core/n="+itoa(n), func(b *testing.B) {
			for b.Loop() {
				sink += quiver.Sum(x, quiver.Valid(bits, off))
			}
		})
		_ = sink
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
