package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/oracle"
)

// Lane-carrying float sums: SumLanes (dispatch_<arch>.go) runs the block
// phase of an ISA's float sum on accumulators that the API's SumState
// keeps from one batch to the next; FoldLanes finishes them.

// FoldLanes is ADR-013's steps 2 and 3 on the A×W lane accumulators acc
// of policy p (accumulator a in acc[a*W:(a+1)*W]), which it overwrites:
// the accumulators combined pairwise by halving, (0+2), (1+3), then the
// two, and the W lanes of the result folded low to high from +0.0.
func FoldLanes[T constraints.Float](acc []T, p oracle.Policy) T {
	for half := p.A / 2; half >= 1; half /= 2 {
		for a := range half {
			for w := range p.W {
				acc[a*p.W+w] += acc[(a+half)*p.W+w]
			}
		}
	}
	v := T(0)
	for w := range p.W {
		v += acc[w]
	}
	return v
}
