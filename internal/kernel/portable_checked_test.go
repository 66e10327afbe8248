package kernel

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/ref"
)

// TestPortableCheckedChunks checks the generic exact sums against the
// reference across their chunk boundaries: the dense chunks of
// CheckedInts (halvesChunk, lowered here) and the 64-element validity
// words, at bitmap offsets 0 to 63, with the integer extremes.
func TestPortableCheckedChunks(t *testing.T) {
	defer func(c int) { halvesChunk = c }(halvesChunk)
	r := rand.New(rand.NewPCG(7, 9))
	for _, chunk := range []int{1, 2, 3, 64, 1 << 30} {
		halvesChunk = chunk
		for _, n := range []int{0, 1, 63, 64, 65, 127, 128, 129, 300} {
			i64 := make([]int64, n)
			u64 := make([]uint64, n)
			for i := range i64 {
				switch r.IntN(4) {
				case 0:
					i64[i], u64[i] = math.MaxInt64, math.MaxUint64
				case 1:
					i64[i], u64[i] = math.MinInt64, 0
				default:
					i64[i], u64[i] = int64(r.Uint64()), r.Uint64()
				}
			}
			raw := make([]byte, (n+63+7)/8)
			for i := range raw {
				raw[i] = byte(r.Uint32())
			}
			for off := -1; off < 64; off++ {
				var bits []byte
				o := 0
				if off >= 0 {
					bits, o = raw[:(off+n+7)/8], off
				}
				m := ref.Mask{Bits: bits, Off: o}
				if got, want := portableChecked(Generic, i64, bits, o), ref.SumExact(i64, m); got != want {
					t.Fatalf("int64 chunk=%d n=%d off=%d: %v, reference %v", chunk, n, off, got, want)
				}
				if got, want := portableChecked(Generic, u64, bits, o), ref.SumExact(u64, m); got != want {
					t.Fatalf("uint64 chunk=%d n=%d off=%d: %v, reference %v", chunk, n, off, got, want)
				}
			}
		}
	}
}
