package bench

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/quiverlabs/quiver"
)

// The generic backend's CountValid, and every backend's below
// countKernelCut (512 bits), is the word loop of internal/kernel
// (genericCountValid): one 64-bit load, one bounds check and one
// population count a word, about 0.9 ns a word on an AMD EPYC Zen 5
// (family 26 model 2), where the population counts of one word after
// another wait on the loop's single counter and bounds check. The change:
// the loop takes four words (32 bytes) a step under one bounds check,
// into two counters. Registered before the A/B against the commit before
// it (BenchmarkCountWords; offsets 0 and 3):
//
//	H514 (measured by hand): generic backend, CountValid of 4096 and 65536 bits: <= 0.70x
//	H515 (measured by hand): generic backend, 65536 bits: at least level with arrow-go's bitutil.CountSetBits in the same run (quiver's time <= 1.05x arrow-go's)
//	H516 (measured by hand): avx2 and avx512, 256 and 511 bits (the word loop under the kernels' cut): <= 0.90x; 64 bits: <= 1.03x

// BenchmarkCountWords times CountValid of a bitmap over 16 rotating
// random bitmaps (10% nulls), at bit offsets 0 and 3, on the generic
// backend against arrow-go's bitutil.CountSetBits, and on avx2 and avx512
// below and above countKernelCut, for H514-H516:
//
//	go test -run '^$' -bench 'CountWords' -count 6 .
func BenchmarkCountWords(b *testing.B) {
	b.Run("backend=generic", func(b *testing.B) {
		useBackend(b, "generic")
		for _, n := range []int{64, 256, 511, 4096, 65536} {
			for _, off := range []int{0, 3} {
				countWordsCells(b, n, off, n >= 4096)
			}
		}
	})
	forBackends(b, []string{"avx2", "avx512"}, func(b *testing.B, _ string) {
		for _, n := range []int{64, 256, 511, 4096} {
			for _, off := range []int{0, 3} {
				countWordsCells(b, n, off, false)
			}
		}
	})
}

// countWordsCells runs quiver.CountValid over 16 bitmaps of n bits at
// bit offset off, and, with peer, bitutil.CountSetBits over the same.
func countWordsCells(b *testing.B, n, off int, peer bool) {
	r := rand.New(rand.NewPCG(uint64(n)|uint64(off)<<32, 514))
	var bms [16][]byte
	var ms [16]quiver.Mask
	for k := range bms {
		bms[k] = drawBitmap(r, n+off, 10)
		ms[k] = quiver.Valid(bms[k], off)
	}
	name := fmt.Sprintf("n=%d/off=%d", n, off)
	rotatedCell(b, name+"/impl=quiver", &ms, func(m quiver.Mask) int64 { return int64(quiver.CountValid(n, m)) })
	if peer {
		rotatedCell(b, name+"/impl=arrow", &bms, func(bm []byte) int64 { return int64(bitutil.CountSetBits(bm, off, n)) })
	}
}
