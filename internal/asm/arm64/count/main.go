// Command count generates the arm64 NEON kernel behind CountValid and the
// valid counts of the summaries: a population count of whole 64-byte
// blocks of a bitmap.
//
//	go run ./arm64/count -out ../../count_arm64.s -stubs ../../count_stubs_arm64.go
package main

import "github.com/quiverlabs/quiver/internal/asm/arm64/neon"

const generator = "internal/asm/arm64/count"

func main() { neon.Main(generator, generate) }

// generate emits popcount over len(bm)/64 blocks: CNT gives the bit count of every byte; the four
// vectors of a block are added bytewise (at most 32 per byte), widened
// pairwise to halfwords and accumulated pairwise into two independent
// 32-bit accumulators, alternating between blocks. Each 32-bit lane gains
// at most 128 per block, so 2^24 blocks per call cannot wrap it.
func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	fn := neon.Func{
		Name: "countBits",
		Doc: "countBits returns the number of set bits in bm. len(bm) is a multiple of 64\n" +
			"and at most 2^30 (2^24 blocks): the kernel reads all of bm and nothing else.",
		Params: []string{"bm []byte"},
		Result: "int",
	}
	f.Begin(fn, "R0")
	f.Blocks(fn, "bm", 6, "R1")
	f.EOR(0, 0, 0)
	f.EOR(1, 1, 1)
	f.I("CBZ", "R1", "done")
	f.P("loop:")
	f.Load4(neon.B16, "R0", 4)
	for v := neon.V(4); v < 8; v++ {
		f.CNT(v, v)
	}
	f.ADD(neon.B16, 4, 4, 5)
	f.ADD(neon.B16, 6, 6, 7)
	f.ADD(neon.B16, 4, 4, 6)
	f.ADDLP(false, neon.B16, 4, 4)
	f.ADALP(false, neon.H8, 0, 4)
	f.I("SUBS", "$1", "R1", "R1")
	f.I("BEQ", "done")
	f.Load4(neon.B16, "R0", 16)
	for v := neon.V(16); v < 20; v++ {
		f.CNT(v, v)
	}
	f.ADD(neon.B16, 16, 16, 17)
	f.ADD(neon.B16, 18, 18, 19)
	f.ADD(neon.B16, 16, 16, 18)
	f.ADDLP(false, neon.B16, 16, 16)
	f.ADALP(false, neon.H8, 1, 16)
	f.I("SUBS", "$1", "R1", "R1")
	f.I("BNE", "loop")
	f.P("done:")
	f.ADD(neon.S4, 0, 0, 1)
	f.I("VUADDLV", "V0.S4", "V0")
	f.I("VMOV", "V0.D[0]", "R2")
	f.Return(fn, "R2")
	return f, []neon.Func{fn}
}
