//go:build amd64 && !purego

package kernel

import (
	"math/rand/v2"
	"testing"
)

// TestCountKernels runs the AVX2 and AVX-512 count kernels on every
// length of whole words from 0 to 80 words (every path through their
// 128-byte, 32-byte and word loops), against the generic loop.
// CountValid runs them only from countKernelCut bits, so the API's tests
// reach their shorter paths only through longer inputs' tails.
func TestCountKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 12))
	bm := make([]byte, 80*8)
	for i := range bm {
		bm[i] = byte(r.Uint32())
	}
	for _, c := range testISAs() {
		if !c.ok || (c.isa != AVX2 && c.isa != AVX512) {
			continue
		}
		for words := 0; words <= 80; words++ {
			b := bm[:words*8]
			if got, want := countValidAsm(c.isa, b), genericCountValid(b, 0, 8*len(b)); got != want {
				t.Fatalf("%v, %d words: %d set bits, the generic loop %d", c.isa, words, got, want)
			}
		}
	}
}
