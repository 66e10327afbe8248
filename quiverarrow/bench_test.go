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

// BenchmarkKeys prices the key index against what a Go user writes
// instead: a map[int64]uint32 looked up, and inserted into on a miss, per
// row (impl=map, in a function of its own), over 4M int64 keys drawn from
// 1,000 or 1,000,000 distinct values. Registered before measuring, from
// the project's issue:
//
//	H160: Keys.Append int64 distinct=1000: keys >= 1.5x map
//	H161: Keys.Append int64 distinct=1000000: keys >= 1.5x map
func BenchmarkKeys(b *testing.B) {
	const n = 4 << 20
	for _, distinct := range []int{1000, 1000000} {
		r := rand.New(rand.NewPCG(7, uint64(distinct)))
		vals := make([]int64, n)
		for i := range vals {
			vals[i] = int64(r.Uint64N(uint64(distinct))) * 7919
		}
		bld := array.NewInt64Builder(memory.DefaultAllocator)
		bld.AppendValues(vals, nil)
		arr := bld.NewArray()
		ids := make([]uint32, 0, n)
		b.Run("impl=keys/distinct="+itoa(distinct), func(b *testing.B) {
			b.SetBytes(n * 8)
			for b.Loop() {
				k, _ := NewKeys(arrow.PrimitiveTypes.Int64)
				ids, _ = k.Append(ids[:0], arr)
			}
		})
		b.Run("impl=map/distinct="+itoa(distinct), func(b *testing.B) {
			b.SetBytes(n * 8)
			for b.Loop() {
				ids = mapIDs(ids[:0], vals)
			}
		})
	}
}

// mapIDs is the baseline: dense ids in order of first appearance through
// a Go map.
func mapIDs(ids []uint32, vals []int64) []uint32 {
	m := map[int64]uint32{}
	for _, v := range vals {
		id, ok := m[v]
		if !ok {
			id = uint32(len(m))
			m[v] = id
		}
		ids = append(ids, id)
	}
	return ids
}
