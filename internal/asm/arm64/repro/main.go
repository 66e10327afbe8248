// Command repro generates the arm64 NEON kernels of the reproducible float
// sum (ADR-105): the integer pass for a block's largest exponent field and
// the three error-free extraction folds, each written once and
// instantiated for float32 and float64.
//
//	go run ./arm64/repro -out ../../reproducible_arm64.s -stubs ../../reproducible_stubs_arm64.go
package main

import (
	"fmt"
	"strings"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

const generator = "internal/asm/arm64/repro"

func main() { neon.Main(generator, generate) }

// Register plan:
//
//	R0 x, R1 iteration count, R2-R4 the fold constants' bits, R5-R6 scratch;
//	max: V0-V3 accumulators, V4-V7 data, V16 the exponent mask;
//	fold: V0-V5 accumulators (fold k, vector u in V(2k+u)), V6-V7 data,
//	V8-V9 scratch, V10 the residuals' OR, V11 float32 data, V16-V18 the
//	fold constants, F20-F21 scratch.
const (
	rx, rn = neon.R("R0"), neon.R("R1")
	r5, r6 = neon.R("R5"), neon.R("R6")
)

// folds is the number of extraction folds.
const folds = 3

func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	var fns []neon.Func
	for _, t := range neon.Floats {
		fns = append(fns, maxExp(f, t), fold(f, t))
	}
	return f, fns
}

// loop emits the counted loop around body: nothing when the count in rn
// is zero.
func loop(f *neon.File, body func()) {
	f.I("CBZ", string(rn), "done")
	f.P("loop:")
	body()
	f.I("SUBS", "$1", string(rn), string(rn))
	f.I("BNE", "loop")
	f.P("done:")
}

// maxExp emits reproMax<E>(x []T) uint64: the largest exponent field among
// x, as the high 32 bits of a float64 with the sign and significand
// cleared (a float32's own bits likewise), in the low 32 bits of the
// result. Four vectors per iteration, each into its own accumulator.
func maxExp(f *neon.File, t neon.Type) neon.Func {
	step := 4 * t.Lanes()
	fn := neon.Func{
		Name: "reproMax" + t.Suffix(),
		Doc: fmt.Sprintf("reproMax%s returns the largest exponent field among x, as the high 32 bits of a\n"+
			"float64 (a float32's own bits) with the rest cleared. len(x) is a multiple of %d:\n"+
			"the kernel reads all of x and nothing else.", t.Suffix(), step),
		Params: []string{"x []" + t.Name},
		Result: "uint64",
	}
	f.Begin(fn, rx)
	f.Blocks(fn, "x", log2(step), rn)
	if t.Size == 8 {
		f.Dup(neon.D2, 16, 0x7FF0000000000000)
	} else {
		f.Dup(neon.S4, 16, 0x7F800000)
	}
	for v := neon.V(0); v < 4; v++ {
		f.EOR(v, v, v)
	}
	loop(f, func() {
		f.Load4(t.Q(), rx, 4)
		for v := neon.V(0); v < 4; v++ {
			f.AND(4+v, 4+v, 16)
			// The field is in the high 32 bits of a float64 lane and the
			// low 32 bits are clear, so an unsigned 32-bit max is the max
			// of the fields.
			f.MAX(false, neon.S4, v, v, 4+v)
		}
	})
	f.MAX(false, neon.S4, 0, 0, 1)
	f.MAX(false, neon.S4, 2, 2, 3)
	f.MAX(false, neon.S4, 0, 0, 2)
	f.UMAXV(0, 0)
	f.I("VMOV", "V0.S[0]", string(r5))
	f.Return(fn, r5)
	return fn
}

// fold emits reproFold<E>(x []T, mA, mB, mC float64) (a, b, c float64,
// resid uint64): the three extraction folds of ADR-105 over x, two vectors
// of two float64 lanes per iteration (a float32 iteration widens one
// vector of four), every lane of every accumulator starting at its fold's
// constant. Per vector and fold: t = acc + v (v rounded to the fold's
// grid), q = t - acc (exact), acc = t, v -= q (exact: the rounding error);
// the residuals' bits are ORed.
func fold(f *neon.File, t neon.Type) neon.Func {
	const step = 4 // elements per iteration: two vectors of float64 lanes
	fn := neon.Func{
		Name: "reproFold" + t.Suffix(),
		Doc: fmt.Sprintf("reproFold%s runs the three extraction folds of ADR-105 over x. It returns the\n"+
			"exact sums of the parts each fold took and the OR of the residuals' bits, sign\n"+
			"cleared. len(x) is a multiple of %d: the kernel reads all of x and nothing else.", t.Suffix(), step),
		Params: []string{"x []" + t.Name, "mA float64", "mB float64", "mC float64"},
		Result: "(a, b, c float64, resid uint64)",
	}
	f.Begin(fn, rx, "R2", "R3", "R4")
	f.Blocks(fn, "x", log2(step), rn)
	d := neon.D2
	m := [folds]neon.V{16, 17, 18}
	acc := func(k, u int) neon.V { return neon.V(2*k + u) }
	for k, r := range []string{"R2", "R3", "R4"} {
		f.I("VMOV", r, fmt.Sprintf("V%d.D2", m[k])) // DUP from a general register
		for u := 0; u < 2; u++ {
			f.ORR(acc(k, u), m[k], m[k])
		}
	}
	const tmp, q, res, in = neon.V(8), neon.V(9), neon.V(10), neon.V(11)
	f.EOR(res, res, res)
	loop(f, func() {
		if t.Size == 8 {
			f.I("VLD1", fmt.Sprintf("(%s)", rx), "[V6.D2, V7.D2]")
			f.I("ADD", "$32", string(rx)) // not a writeback: see neon.Load4
		} else {
			f.I("VLD1", fmt.Sprintf("(%s)", rx), fmt.Sprintf("[V%d.S4]", in))
			f.I("ADD", "$16", string(rx))
			f.FCVTL(6, in, false)
			f.FCVTL(7, in, true)
		}
		for u := 0; u < 2; u++ {
			v := neon.V(6 + u)
			for k := range folds {
				a := acc(k, u)
				f.FADD(d, tmp, a, v)
				f.FSUB(d, q, tmp, a)
				f.ORR(a, tmp, tmp)
				f.FSUB(d, v, v, q)
			}
			f.ORR(res, res, v)
		}
	})
	// Each lane's change is exact and all of them together stay below 2^50
	// grid units: these sums are exact in any order.
	off := resultOffset(fn)
	for k := range folds {
		a0, a1 := acc(k, 0), acc(k, 1)
		f.FSUB(d, a0, a0, m[k])
		f.FSUB(d, a1, a1, m[k])
		f.FADD(d, a0, a0, a1)
		f.I("VMOV", fmt.Sprintf("V%d.D[0]", a0), string(r5))
		f.I("VMOV", fmt.Sprintf("V%d.D[1]", a0), string(r6))
		f.I("FMOVD", string(r5), "F20")
		f.I("FMOVD", string(r6), "F21")
		f.I("FADDD", "F21", "F20")
		f.I("FMOVD", "F20", fmt.Sprintf("%s+%d(FP)", []string{"a", "b", "c"}[k], off+8*k))
	}
	f.I("VMOV", fmt.Sprintf("V%d.D[0]", res), string(r5))
	f.I("VMOV", fmt.Sprintf("V%d.D[1]", res), string(r6))
	f.I("ORR", string(r6), string(r5))
	f.I("AND", "$0x7fffffffffffffff", string(r5))
	f.I("MOVD", string(r5), fmt.Sprintf("resid+%d(FP)", off+8*folds))
	f.I("RET")
	return fn
}

// resultOffset is the frame offset of fn's first result: three words per
// slice parameter and one per other parameter.
func resultOffset(fn neon.Func) int {
	off := 0
	for _, p := range fn.Params {
		if strings.Contains(p, "[]") {
			off += 24
		} else {
			off += 8
		}
	}
	return off
}

// log2 is the base-2 logarithm of n, a power of two.
func log2(n int) int {
	l := 0
	for n > 1 {
		n >>= 1
		l++
	}
	return l
}
