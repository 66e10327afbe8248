// Command sum generates the arm64 NEON kernels of the sum family: float
// sums in the ADR-013 order, wrapping integer sums and the split sums
// behind the exact checked 64-bit sums. Every kernel is written once and
// instantiated per element type.
//
//	go run ./arm64/sum -out ../../sum_arm64.s -stubs ../../sum_stubs_arm64.go
package main

import (
	"fmt"
	"math/bits"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

const generator = "internal/asm/arm64/sum"

func main() { neon.Main(generator, generate) }

// Register plan, shared by every kernel of the file:
//
//	R0 x, R1 iteration count (from len(x)), R2 bitmap, R3 bit shift, R5 accumulator or
//	result memory, R4 and R6 scratch;
//	V0-V3 the four accumulators, V4-V7 the loaded data, V8 the bits of one
//	iteration, V9-V12 the lane masks, V13-V14 scratch, V16-V23 the mask
//	constants, V24 the masked-lane value (float sums); the integer sums'
//	second set of accumulators in V24-V27 (and the 8- and 16-bit sums'
//	narrow ones in V24-V31).
const (
	rx, rn, rbm, rsh, r4, racc, r6 = neon.R("R0"), neon.R("R1"), neon.R("R2"), neon.R("R3"), neon.R("R4"), neon.R("R5"), neon.R("R6")
)

var masks = [4]neon.V{9, 10, 11, 12}

// log2 is the base-2 logarithm of n, a power of two: the shift from a
// slice length to a count of n-element blocks.
func log2(n int) int { return bits.TrailingZeros(uint(n)) }

func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	var fns []neon.Func
	for _, t := range neon.Floats {
		fns = append(fns, floatSum(f, t, false), floatSum(f, t, true))
	}
	for _, t := range neon.Ints {
		fns = append(fns, intSum(f, t, false), intSum(f, t, true))
	}
	for _, t := range []neon.Type{neon.I64, neon.U64} {
		fns = append(fns, splitSum(f, t, false), splitSum(f, t, true))
	}
	return f, fns
}

// loop2 is neon.File.Loop with the body written twice, the second copy on the
// second set of accumulators (set 1) and an exit between the two, so that
// the count stays one per 64 bytes: each accumulator then takes every
// other iteration, and the loop runs twice as many independent chains as
// one set holds. The integer sums need them: SADALP/UADALP take 4 cycles
// (llvm-mca's Neoverse V1 model) and vector ADD 2, so four chains of one
// instruction per iteration cannot keep up with the loads.
func loop2(f *neon.File, body func(set int)) {
	f.I("CBZ", string(rn), "done")
	f.P("loop:")
	body(0)
	f.I("SUBS", "$1", string(rn), string(rn))
	f.I("BEQ", "done")
	body(1)
	f.I("SUBS", "$1", string(rn), string(rn))
	f.I("BNE", "loop")
	f.P("done:")
}

// floatSum adds whole ADR-013 blocks (four vectors: element a*W+w of a
// block goes to lane w of accumulator a) into accumulators kept in memory,
// so that the caller can start, continue and finish the blocked order in
// Go. The block count is len(x) over the block size. The masked form reads
// each block's bits at bit shift of bm (bm advances by the block's byte
// count, step; the load, loadWidth bytes, is wider than the block's bits,
// so the last block reads past them: the bitmap extent is published as
// constants for the caller to cut bm to) and adds -0.0 for invalid lanes.
func floatSum(f *neon.File, t neon.Type, masked bool) neon.Func {
	a := t.Q()
	block := 4 * t.Lanes()
	accT := fmt.Sprintf("*[%d]%s", block, t.Name)
	fn := neon.Func{
		Name: "sum" + t.Suffix(),
		Doc: fmt.Sprintf("sum%s adds the len(x)/%d blocks of %d elements of x into acc, four %d-lane\n"+
			"accumulators laid out one after the other, in the ADR-013 block order.\n"+
			"len(x) is a multiple of %d: the kernel reads all of x and nothing else.",
			t.Suffix(), block, block, t.Lanes(), block),
		Params: []string{"x []" + t.Name, "acc " + accT},
	}
	regs := []neon.R{rx, racc}
	if masked {
		step, load := block/8, loadWidth(t)
		fn.Name += "Masked"
		fn.Doc = fmt.Sprintf("sum%sMasked is sum%s with element i valid iff bit shift+i of bm is set;\n"+
			"invalid elements add -0.0. Block k loads %d bytes of bm from byte %d*k, more than\n"+
			"the block's bits: with len(x) > 0 it reads exactly the first\n"+
			"(len(x)/%d-1)*%d+%d bytes of bm (sum%sMaskedStep and sum%sMaskedLoad), which bm\n"+
			"must hold.",
			t.Suffix(), t.Suffix(), load, step, block, step, load, t.Suffix(), t.Suffix())
		fn.Params = []string{"x []" + t.Name, "bm []byte", "shift uint", "acc " + accT}
		regs = []neon.R{rx, rbm, rsh, racc}
		f.GoConst("sum"+t.Suffix()+"MaskedStep", step,
			fmt.Sprintf("sum%sMaskedStep is how far sum%sMasked advances in bm per block.", t.Suffix(), t.Suffix()))
		f.GoConst("sum"+t.Suffix()+"MaskedLoad", load,
			fmt.Sprintf("sum%sMaskedLoad is how many bytes of bm sum%sMasked loads per block.", t.Suffix(), t.Suffix()))
	}
	f.Begin(fn, regs...)
	f.Blocks(fn, "x", log2(block), rn)
	f.Load4At(a, racc, 0)
	var exp *neon.Expander
	if masked {
		exp = neon.NewExpander(f, t, 8, 16)
		f.Dup(a, 24, 1<<(t.Size*8-1)) // -0.0: the sign bit alone
	}
	f.Loop(rn, func() {
		if masked {
			f.LoadBits(loadWidth(t), block/8, rbm, r4)
			f.I("LSR", string(rsh), string(r4), string(r4))
			exp.Expand(f, r4, masks)
		}
		f.Load4(a, rx, 4)
		for v := neon.V(0); v < 4; v++ {
			if masked {
				f.BIF(4+v, 24, masks[v])
			}
			f.FADD(a, v, v, 4+v)
		}
	})
	f.Store4(a, racc, 0)
	f.Return(fn, "")
	return fn
}

// loadWidth is the bitmap load per float block: the block's bits plus up
// to 7 bits of shift.
func loadWidth(t neon.Type) int {
	if t.Size == 4 {
		return 4 // 16 bits + 7
	}
	return 2 // 8 bits + 7
}

// widenInto adds the lanes of x into the two 64-bit lanes of acc by
// staged pairwise widening adds, so that no narrow intermediate can
// overflow; x is clobbered.
func widenInto(f *neon.File, t neon.Type, acc, x neon.V) {
	a := t.Q()
	for a.Size < 4 {
		f.ADDLP(t.Signed, a, x, x)
		a = a.Wide()
	}
	if a.Size == 4 {
		f.ADALP(t.Signed, a, acc, x)
		return
	}
	f.ADD(neon.D2, acc, acc, x)
}

// narrowRuns is the loop of the 8- and 16-bit sums: rather than widen
// every vector to 64 bits, each iteration adds pairs of elements into
// lanes twice as wide (V24-V27, one per vector, on even iterations of a
// run and V28-V31 on odd ones: see loop2), for runs short enough that
// those lanes cannot overflow (an 8-bit pair sum is within ±2^9, so 128 of
// them fit 16 bits; a 16-bit pair sum within ±2^17, so 2^15 of them fit 32
// bits), and only at the end of a run widens them into the 64-bit
// accumulators.
func narrowRuns(f *neon.File, t neon.Type, load func()) {
	a := t.Q()
	run := 128
	if t.Size == 2 {
		run = 1 << 15
	}
	f.I("CBZ", string(rn), "done")
	f.P("outer:")
	f.I("MOVD", fmt.Sprintf("$%d", run), string(r6))
	f.I("CMP", string(r6), string(rn))
	f.I("CSEL", "LT", string(rn), string(r6), string(r6)) // r6 = min(rn, run)
	f.I("SUB", string(r6), string(rn), string(rn))
	for v := neon.V(24); v < 32; v++ {
		f.EOR(v, v, v)
	}
	f.P("inner:")
	for set := neon.V(0); set < 2; set++ {
		load()
		for v := neon.V(0); v < 4; v++ {
			f.ADALP(t.Signed, a, 24+4*set+v, 4+v)
		}
		f.I("SUBS", "$1", string(r6), string(r6))
		if set == 0 {
			f.I("BEQ", "flush")
		}
	}
	f.I("BNE", "inner")
	f.P("flush:")
	wide := neon.Type{Name: t.Name, Size: 2 * t.Size, Signed: t.Signed}
	for v := neon.V(0); v < 4; v++ {
		widenInto(f, wide, v, 24+v)
		widenInto(f, wide, v, 28+v)
	}
	f.I("CBNZ", string(rn), "outer")
	f.P("done:")
}

// intSum wraps iters*64 bytes of elements into a 64-bit sum: four vectors
// per iteration, each widened into its own accumulator.
func intSum(f *neon.File, t neon.Type, masked bool) neon.Func {
	a := t.Q()
	per := 4 * t.Lanes()
	sum := "int64"
	if !t.Signed {
		sum = "uint64"
	}
	fn := neon.Func{
		Name: "sum" + t.Suffix(),
		Doc: fmt.Sprintf("sum%s returns the wrapping %s sum of x. len(x) is a multiple of %d:\n"+
			"the kernel reads all of x and nothing else.", t.Suffix(), sum, per),
		Params: []string{"x []" + t.Name},
		Result: sum,
	}
	regs := []neon.R{rx}
	if masked {
		fn.Name += "Masked"
		fn.Doc = fmt.Sprintf("sum%sMasked is sum%s over the elements whose bit is set in bm, the\n"+
			"first element at bit 0; it reads the first len(x)/8 bytes of bm (%d per %d\n"+
			"elements), which bm must hold.",
			t.Suffix(), t.Suffix(), neon.BitmapBytes(t), per)
		fn.Params = append(fn.Params, "bm []byte")
		regs = append(regs, rbm)
	}
	f.Begin(fn, regs...)
	f.Blocks(fn, "x", log2(per), rn)
	for v := neon.V(0); v < 4; v++ {
		f.EOR(v, v, v)
	}
	var exp *neon.Expander
	if masked {
		exp = neon.NewExpander(f, t, 8, 16)
	}
	load := func() {
		if masked {
			exp.LoadExpand(f, rbm, r4, masks)
		}
		f.Load4(a, rx, 4)
		if masked {
			for v := neon.V(0); v < 4; v++ {
				f.AND(4+v, 4+v, masks[v])
			}
		}
	}
	if t.Size > 2 {
		// Two sets of accumulators, V0-V3 and V24-V27 (loop2).
		for v := neon.V(24); v < 28; v++ {
			f.EOR(v, v, v)
		}
		loop2(f, func(set int) {
			load()
			for v := neon.V(0); v < 4; v++ {
				widenInto(f, t, 24*neon.V(set)+v, 4+v)
			}
		})
		for v := neon.V(0); v < 4; v++ {
			f.ADD(neon.D2, v, v, 24+v)
		}
	} else {
		narrowRuns(f, t, load)
	}
	f.ADD(neon.D2, 0, 0, 1)
	f.ADD(neon.D2, 2, 2, 3)
	f.ADD(neon.D2, 0, 0, 2)
	f.I("VMOV", "V0.D[0]", string(r4))
	f.I("VMOV", "V0.D[1]", string(r6))
	f.I("ADD", string(r6), string(r4))
	f.Return(fn, r4)
	return fn
}

// splitSum is the kernel of the exact 64-bit sums: it sums the low 32-bit
// halves of the elements (unsigned) and their high halves (signed for
// int64) separately in 64-bit lanes, where neither can wrap for fewer than
// 2^31 elements, and stores both pairs of lanes to out; the caller forms
// hi*2^32 + lo in 128 bits. The iteration count is len(x)/8.
func splitSum(f *neon.File, t neon.Type, masked bool) neon.Func {
	a := t.Q()
	fn := neon.Func{
		Name: "split" + t.Suffix(),
		Doc: fmt.Sprintf("split%s sums the low and high 32-bit halves of the elements of x into\n"+
			"out: out[0]+out[1] is the sum of the low halves (unsigned), out[2]+out[3] the\n"+
			"sum of the high halves (%s). len(x) is a multiple of 8: the kernel reads all\n"+
			"of x and nothing else. Exact below 2^30 iterations of 8 elements.",
			t.Suffix(), map[bool]string{true: "signed", false: "unsigned"}[t.Signed]),
		Params: []string{"x []" + t.Name, "out *[4]uint64"},
	}
	regs := []neon.R{rx, racc}
	if masked {
		fn.Name += "Masked"
		fn.Doc = fmt.Sprintf("split%sMasked is split%s over the elements whose bit is set in bm,\n"+
			"the first element at bit 0; it reads the first len(x)/8 bytes of bm (one per\n"+
			"8 elements), which bm must hold.", t.Suffix(), t.Suffix())
		fn.Params = []string{"x []" + t.Name, "bm []byte", "out *[4]uint64"}
		regs = []neon.R{rx, rbm, racc}
	}
	f.Begin(fn, regs...)
	f.Blocks(fn, "x", 3, rn)
	for v := neon.V(0); v < 4; v++ {
		f.EOR(v, v, v)
	}
	var exp *neon.Expander
	if masked {
		exp = neon.NewExpander(f, t, 8, 16)
	}
	// Two sets of accumulators, V0-V3 and V24-V27 (loop2).
	for v := neon.V(24); v < 28; v++ {
		f.EOR(v, v, v)
	}
	loop2(f, func(set int) {
		if masked {
			f.LoadBits(1, 1, rbm, r4)
			exp.Expand(f, r4, masks)
		}
		f.Load4(a, rx, 4)
		acc := 24 * neon.V(set)
		for p := neon.V(0); p < 2; p++ {
			x0, x1 := 4+2*p, 5+2*p
			if masked {
				f.AND(x0, x0, masks[2*p])
				f.AND(x1, x1, masks[2*p+1])
			}
			f.UZP1(neon.S4, 13, x0, x1) // low halves of the two vectors
			f.UZP2(neon.S4, 14, x0, x1) // high halves
			f.ADALP(false, neon.S4, acc+p, 13)
			f.ADALP(t.Signed, neon.S4, acc+2+p, 14)
		}
	})
	for v := neon.V(0); v < 4; v++ {
		f.ADD(neon.D2, v, v, 24+v)
	}
	f.ADD(neon.D2, 0, 0, 1)
	f.ADD(neon.D2, 1, 2, 3)
	f.I("VST1", "[V0.D2, V1.D2]", "("+string(racc)+")")
	f.Return(fn, "")
	return fn
}
