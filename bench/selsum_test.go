package bench

// The float Sum over a selection with a validity bitmap: the strict left
// fold in selection order, one addition per entry, whose loop branched on
// each entry's validity bit. Such a branch mispredicts once per null or
// so when the nulls fall at random, and the ledger found the call slower
// than the plain loop (which branches the same way) on every CPU it ran
// on: 0.62-0.96x at 10% nulls (sorted10, sorted50, random10), its time
// moving with the code's placement from build to build. The change: an
// invalid entry adds -0.0, the exact identity of the fold, picked by a
// conditional move of the element's bits, so that no branch depends on
// the data. Registered on 2026-12-02 on an AMD EPYC family 26 model 2
// (Zen 5 class), before the change; the by-hand ones are measured with
// BenchmarkSelectedSum, the binaries of the commit before and after run
// alternately, fastest of the passes:
//
//	H295: Sum float64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop   no data-dependent branch
//	H296: Sum float64 n=65536 nulls=10% sel=sorted50: avx512 >= 1.0x loop
//	H297 (measured by hand): BenchmarkSelectedSum nulls=10, every kind: time <= 0.8x the commit before
//	H298 (measured by hand): BenchmarkSelectedSum nulls=50, every kind: time <= 0.4x the commit before
//	H299 (measured by hand): BenchmarkSelectedSum nulls=0 (a bitmap with every bit set), every kind: time <= 1.1x the commit before

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/quiverlabs/quiver"
)

// BenchmarkSelectedSum times the float64 Sum over a selection of n =
// 65536 rows with a validity bitmap of 0%, 10% and 50% nulls (0%: a
// bitmap with every bit set, which the ledger's matrix does not have),
// beside the plain loop. Each timed call takes the next of eight bitmaps
// drawn independently, so that no branch predictor learns one.
//
//	go test -run '^$' -bench SelectedSum -count 6 .
func BenchmarkSelectedSum(b *testing.B) {
	const n = 65536
	x := make([]float64, n)
	drawValues(rand.New(rand.NewPCG(3, 105)), x)
	for _, kind := range selKinds[1:] {
		sel := newSelection(n, kind)
		for _, nulls := range []int{0, 10, 50} {
			r := rand.New(rand.NewPCG(uint64(nulls), 105))
			var bms [rotations][]byte
			var masks [rotations]quiver.Mask
			for k := range bms {
				bms[k] = drawBitmap(r, n, nulls)
				masks[k] = quiver.Valid(bms[k], 0).Select(sel)
			}
			name := fmt.Sprintf("sel=%s/nulls=%d", kind, nulls)
			b.Run(name+"/impl=quiver", func(b *testing.B) {
				var s float64
				k := 0
				for b.Loop() {
					s += quiver.Sum(x, masks[k%rotations])
					k++
				}
				sinkFloat = s
			})
			b.Run(name+"/impl=loop", func(b *testing.B) {
				var s float64
				k := 0
				for b.Loop() {
					s += selSumFloat(x, sel, bms[k%rotations])
					k++
				}
				sinkFloat = s
			})
		}
	}
}
