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

// TestSumLanesLengths checks that SumLanes refuses, before its kernel
// reads them, lane accumulators that are not one block of four vectors
// and inputs that are not whole blocks: the kernels read and write a
// whole block of acc whatever its length.
func TestSumLanesLengths(t *testing.T) {
	for _, c := range testISAs() {
		if !c.ok || (c.isa != AVX2 && c.isa != AVX512) {
			continue
		}
		block := 16 // float64 lanes in four YMM vectors
		if c.isa == AVX512 {
			block = 32
		}
		for _, k := range []struct{ acc, x int }{{block / 2, block}, {block, block + 1}, {block * 2, block * 2}} {
			acc := make([]float64, k.acc)
			x := make([]float64, k.x)
			func() {
				defer func() {
					if r := recover(); r == nil {
						t.Errorf("%v: SumLanes took %d accumulators and %d elements", c.isa, k.acc, k.x)
					}
				}()
				SumLanes(c.isa, acc, x, nil, 0)
			}()
		}
		acc, x := make([]float64, block), make([]float64, 3*block)
		for i := range x {
			x[i] = 1
		}
		SumLanes(c.isa, acc, x, nil, 0)
		for i, a := range acc {
			if a != 3 {
				t.Fatalf("%v: lane %d holds %v after three blocks of ones, want 3", c.isa, i, a)
			}
		}
	}
}
