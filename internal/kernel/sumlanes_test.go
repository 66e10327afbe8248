package kernel

import "testing"

// TestSumLanesLengths checks that SumLanes refuses, before its kernel
// reads them, lane accumulators that are not one block of four vectors
// and inputs that are not whole blocks: the AVX2 and AVX-512 kernels read
// and write a whole block of acc whatever its length, and the NEON one
// would drop the lanes past its block and the elements past the last
// whole block.
func TestSumLanesLengths(t *testing.T) {
	for _, c := range testISAs() {
		p := c.isa.Policy64()
		block := p.A * p.W // float64 lanes in four vectors
		if !c.ok || block == 1 {
			continue // the strict ISAs carry one accumulator
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
