package kernel

import (
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver/internal/num"
)

// TestSumPackedWord holds SumPackedWord, for 8- and 16-bit elements, to
// the wrapping sum of the valid elements taken one at a time,
// for every length from 0 to 64, signed and unsigned, in both sum types:
// over random elements and words, over the elements that stress their
// lanes and their flipped top bits (all ones, the top bit alone, all but
// the top bit) with every element valid, and with one element valid at
// each position (a lane mask that took a neighbour's bit shows there).
func TestSumPackedWord(t *testing.T) {
	t.Run("int8", func(t *testing.T) {
		wordSumCases(t, SumPackedWord[int8, int64], SumPackedWord[int8, uint64], []int8{-1, -128, 127})
	})
	t.Run("uint8", func(t *testing.T) {
		wordSumCases(t, SumPackedWord[uint8, int64], SumPackedWord[uint8, uint64], []uint8{0xFF, 0x80, 0x7F})
	})
	t.Run("int16", func(t *testing.T) {
		wordSumCases(t, SumPackedWord[int16, int64], SumPackedWord[int16, uint64], []int16{-1, -32768, 32767})
	})
	t.Run("uint16", func(t *testing.T) {
		wordSumCases(t, SumPackedWord[uint16, int64], SumPackedWord[uint16, uint64], []uint16{0xFFFF, 0x8000, 0x7FFF})
	})
}

func wordSumCases[T int8 | uint8 | int16 | uint16](t *testing.T, sum func([]T, uint64) int64, sumU func([]T, uint64) uint64, fills []T) {
	r := rand.New(rand.NewPCG(51, 7))
	for n := 0; n <= 64; n++ {
		x := make([]T, n)
		check := func(what string, w uint64) {
			t.Helper()
			var want int64
			for i, v := range x {
				if w>>i&1 != 0 {
					want += int64(v)
				}
			}
			if got := sum(x, w); got != want {
				t.Fatalf("n=%d %s w=%#x: %d, one at a time %d", n, what, w, got, want)
			}
			if got := sumU(x, w); got != uint64(want) {
				t.Fatalf("n=%d %s w=%#x: into uint64 %d, one at a time %d", n, what, w, got, uint64(want))
			}
		}
		all := ^uint64(0)
		if n < 64 {
			all = 1<<n - 1
		}
		for _, fill := range fills {
			for i := range x {
				x[i] = fill
			}
			check("filled", all)
		}
		for k := range 20 {
			for i := range x {
				x[i] = T(r.Uint32())
			}
			w := r.Uint64() & all
			if k == 0 {
				w = all
			}
			check("random", w)
		}
		for p := range n {
			check("one valid", 1<<p)
		}
	}
}

// TestSumBytes holds the generic ISA's dense 8-bit sum to SumInts at every
// length up to 200 and around the rounds of 128 words (1024 elements),
// int8 and uint8, in both sum types, over random bytes and over bytes of
// 0xFF, 0x80 and 0x7F, which overflow a 16-bit lane after 129 words of
// 0xFF if a round runs long.
func TestSumBytes(t *testing.T) {
	t.Run("int8", func(t *testing.T) { sumBytesCases[int8](t) })
	t.Run("uint8", func(t *testing.T) { sumBytesCases[uint8](t) })
}

func sumBytesCases[T int8 | uint8](t *testing.T) {
	r := rand.New(rand.NewPCG(52, 7))
	var lengths []int
	for n := 0; n <= 200; n++ {
		lengths = append(lengths, n)
	}
	for _, n := range []int{1016, 1023, 1024, 1025, 1031, 1032, 1040, 2048, 2055, 3077, 8192 + 3} {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		x := make([]T, n)
		b := num.Cast[uint8](x)
		check := func(what string) {
			t.Helper()
			want := SumInts[T, int64](x)
			if got := sumBytes[T, int64](x); got != want {
				t.Fatalf("n=%d %s: sumBytes %d, SumInts %d", n, what, got, want)
			}
			if got := sumBytes[T, uint64](x); got != uint64(want) {
				t.Fatalf("n=%d %s: sumBytes into uint64 %d, SumInts %d", n, what, got, uint64(want))
			}
		}
		for _, fill := range []byte{0xFF, 0x80, 0x7F} {
			for i := range b {
				b[i] = fill
			}
			check("filled")
		}
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		check("random")
	}
}
