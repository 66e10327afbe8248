// Command repro generates the arm64 NEON kernels of the reproducible float
// sum (ADR-105): the integer range pass for a block's largest and smallest
// exponent fields and the error-free extraction folds in each of their
// plans, each written once and instantiated for float32 and float64.
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
//	R0 x, R1 iteration count, R2-R4 the fold constants' bits, R5-R6
//	scratch, R7 the iterations until the next flush, R8 the flushes;
//	range: V0-V3 the largest, V8-V11 the smallest, V4-V7 data, V12-V15
//	data less one, V16 the mask of all bits but the sign, V17 all ones;
//	fold: V0-V11 accumulators (fold k, vector u in V(4k+u)), V12-V15
//	data, V16-V18 the fold constants, V19-V21 the folds' integer sums,
//	V22-V23 scratch, V24 the residuals' OR, V25-V26 float32 data.
const (
	rx, rn = neon.R("R0"), neon.R("R1")
	r5, r6 = neon.R("R5"), neon.R("R6")
	rleft  = neon.R("R7")
	rflush = neon.R("R8")
)

// plan is one way to fold a block (ADR-105): how many extraction folds,
// and whether the last one checks for a residual. A block whose values
// all lie on the last fold's grid (its smallest exponent tells) needs no
// check there: that fold is a plain addition, and the folds below it are
// not needed. The names match the kernel package's reproPlan.
type plan struct {
	name    string
	folds   int
	checked bool
}

var plans = []plan{{"C3", 3, true}, {"X3", 3, false}, {"X2", 2, false}}

// foldVecs is how many vectors of float64 lanes one fold iteration takes,
// each with accumulators of its own: the chain through an accumulator is
// an addition and a register move per iteration (about 5 cycles in the
// Apple model), which two vectors per iteration left the bound of the
// loop rather than its additions.
const foldVecs = 4

// flushParts is how many parts one fold accumulator lane takes between
// flushes: one per loop iteration. It is the kernel package's reproFlush,
// the count the folds' grids are chosen for.
const flushParts = 14

func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	var fns []neon.Func
	for _, t := range neon.Floats {
		fns = append(fns, rangeExp(f, t))
		for _, p := range plans {
			fns = append(fns, fold(f, t, p))
		}
	}
	return f, fns
}

// rangeExp emits reproRange<E>(x []T) (hi, lo uint64): the largest value
// of the high 32 bits of |x| (the whole of |x| for float32) and the
// smallest of those of |x|-1, computed in the element's width, so that a
// zero wraps to all ones and drops out of the minimum (the amd64 range
// kernels' contract, in 64-bit results). Four vectors per iteration, each into its own pair
// of accumulators. Per vector: an AND, an unsigned 32-bit maximum, an
// addition of -1, an unsigned 32-bit minimum; a float64's low word takes
// part in the 32-bit maximum and minimum too, in lanes the end drops.
func rangeExp(f *neon.File, t neon.Type) neon.Func {
	step := 4 * t.Lanes()
	fn := neon.Func{
		Name: "reproRange" + t.Suffix(),
		Doc: fmt.Sprintf("reproRange%s returns the largest high word of |x| and the smallest of |x|-1\n"+
			"(float32: of the whole element). len(x) is a multiple of %d: the kernel reads\n"+
			"all of x and nothing else.", t.Suffix(), step),
		Params: []string{"x []" + t.Name},
		Result: "(hi, lo uint64)",
	}
	f.Begin(fn, rx)
	f.Blocks(fn, "x", log2(step), rn)
	if t.Size == 8 {
		f.Dup(neon.D2, 16, 0x7FFFFFFFFFFFFFFF)
	} else {
		f.Dup(neon.S4, 16, 0x7FFFFFFF)
	}
	f.Dup(neon.D2, 17, ^uint64(0))
	for v := neon.V(0); v < 4; v++ {
		f.EOR(v, v, v)
		f.ORR(8+v, 17, 17)
	}
	f.Loop(rn, func() {
		f.Load4(t.Q(), rx, 4)
		for v := neon.V(0); v < 4; v++ {
			f.AND(4+v, 4+v, 16)
			f.MAX(false, neon.S4, v, v, 4+v)
			f.ADD(t.Q(), 12+v, 4+v, 17) // |x| - 1: a zero wraps to all ones
			f.MIN(false, neon.S4, 8+v, 8+v, 12+v)
		}
	})
	f.MAX(false, neon.S4, 0, 0, 1)
	f.MAX(false, neon.S4, 2, 2, 3)
	f.MAX(false, neon.S4, 0, 0, 2)
	f.MIN(false, neon.S4, 8, 8, 9)
	f.MIN(false, neon.S4, 10, 10, 11)
	f.MIN(false, neon.S4, 8, 8, 10)
	if t.Size == 8 {
		// Only the high words count: gather the odd 32-bit lanes.
		f.UZP2(neon.S4, 0, 0, 0)
		f.UZP2(neon.S4, 8, 8, 8)
	}
	f.UMAXV(0, 0)
	f.UMINV(8, 8)
	off := resultOffset(fn)
	f.I("VMOV", "V0.S[0]", string(r5))
	f.I("VMOV", "V8.S[0]", string(r6))
	f.I("MOVD", string(r5), fmt.Sprintf("hi+%d(FP)", off)) // VMOV to a W register cleared the high half
	f.I("MOVD", string(r6), fmt.Sprintf("lo+%d(FP)", off+8))
	f.I("RET")
	return fn
}

// fold emits reproFold<E><P>(x []T, mA, mB, mC float64) (a, b, c int64,
// resid uint64): the extraction folds of ADR-105 over x in plan p,
// foldVecs vectors of two float64 lanes per iteration (a float32
// iteration widens two vectors of four), every lane of every accumulator starting at its
// fold's constant. Per vector and fold: t = acc + v (v rounded to the
// fold's grid), q = t - acc (exact), acc = t, v -= q (exact: the rounding
// error); an unchecked last fold is acc += v alone (exact: the caller has
// made sure v is on its grid); the checked plan ORs the residuals' bits.
//
// The sums are returned in units of each fold's grid. An accumulator stays
// in the binade of its constant M = 1.5·2^52·g, where the difference of
// its bits and M's counts its units exactly; every flushParts iterations
// the flush adds the accumulators' bits, as 64-bit integers, into one sum
// per fold and restarts them from M, and the end subtracts M's bits once
// per lane and flush (the sums wrap; their true totals do not). The flush
// is out of line, after the return, so that the loop body is one
// straight run.
func fold(f *neon.File, t neon.Type, p plan) neon.Func {
	const step = 2 * foldVecs // elements per iteration: foldVecs vectors of float64 lanes
	check := "the last a plain addition (x must be on its grid)"
	if p.checked {
		check = "the last with the residual check"
	}
	fn := neon.Func{
		Name: "reproFold" + t.Suffix() + p.name,
		Doc: fmt.Sprintf("reproFold%s%s runs %d extraction folds of ADR-105 over x, %s.\n"+
			"It returns the exact sums of the parts each fold took, in units of its grid, and\n"+
			"the OR of the residuals' bits, sign cleared (0 without the check). len(x) is a\n"+
			"multiple of %d: the kernel reads all of x and nothing else.", t.Suffix(), p.name, p.folds, check, step),
		Params: []string{"x []" + t.Name, "mA float64", "mB float64", "mC float64"},
		Result: "(a, b, c int64, resid uint64)",
	}
	f.Begin(fn, rx, "R2", "R3", "R4")
	f.Blocks(fn, "x", log2(step), rn)
	d := neon.D2
	mregs := []string{"R2", "R3", "R4"}
	m := [3]neon.V{16, 17, 18}
	sum := [3]neon.V{19, 20, 21}
	acc := func(k, u int) neon.V { return neon.V(foldVecs*k + u) }
	for k := range p.folds {
		f.I("VMOV", mregs[k], fmt.Sprintf("V%d.D2", m[k])) // DUP from a general register
		for u := range foldVecs {
			f.ORR(acc(k, u), m[k], m[k])
		}
		f.EOR(sum[k], sum[k], sum[k])
	}
	const data, tmp, q, res, in = neon.V(12), neon.V(22), neon.V(23), neon.V(24), neon.V(25)
	if p.checked {
		f.EOR(res, res, res)
	}
	f.I("MOVD", fmt.Sprintf("$%d", flushParts), string(rleft))
	f.I("MOVD", "ZR", string(rflush))
	flush := func() {
		for k := range p.folds {
			for u := range foldVecs {
				f.ADD(d, sum[k], sum[k], acc(k, u))
				f.ORR(acc(k, u), m[k], m[k])
			}
		}
		f.I("ADD", "$1", string(rflush))
	}
	f.I("CBZ", string(rn), "done")
	f.P("loop:")
	if t.Size == 8 {
		f.Load4(neon.D2, rx, data)
	} else {
		f.I("VLD1", fmt.Sprintf("(%s)", rx), fmt.Sprintf("[%s, %s]", "V"+fmt.Sprint(in)+".S4", "V"+fmt.Sprint(in+1)+".S4"))
		f.I("ADD", "$32", string(rx)) // not a writeback: see neon.Load4
		for h := range 2 {
			f.FCVTL(data+neon.V(2*h), in+neon.V(h), false)
			f.FCVTL(data+neon.V(2*h+1), in+neon.V(h), true)
		}
	}
	for u := range foldVecs {
		v := data + neon.V(u)
		for k := range p.folds {
			a := acc(k, u)
			if k == p.folds-1 && !p.checked {
				f.FADD(d, a, a, v) // exact: v is on the fold's grid
				continue
			}
			f.FADD(d, tmp, a, v)
			f.FSUB(d, q, tmp, a)
			f.ORR(a, tmp, tmp)
			f.FSUB(d, v, v, q)
		}
		if p.checked {
			f.ORR(res, res, v)
		}
	}
	// SUB and CBZ rather than SUBS: one SUBS per loop body is how
	// scripts/neon-mca.sh counts a kernel's iterations.
	f.I("SUB", "$1", string(rleft), string(rleft))
	f.I("CBZ", string(rleft), "flush")
	f.P("next:")
	f.I("SUBS", "$1", string(rn), string(rn))
	f.I("BNE", "loop")
	f.P("done:")
	flush()
	off := resultOffset(fn)
	// Each fold's sum of bits less M's bits once per lane and flush
	// (foldVecs vectors of two lanes).
	for k := range p.folds {
		f.I("VMOV", fmt.Sprintf("V%d.D[0]", sum[k]), string(r5))
		f.I("VMOV", fmt.Sprintf("V%d.D[1]", sum[k]), string(r6))
		f.I("ADD", string(r6), string(r5))
		f.I("MUL", string(rflush), mregs[k], string(r6))
		f.I("LSL", fmt.Sprintf("$%d", log2(2*foldVecs)), string(r6), string(r6))
		f.I("SUB", string(r6), string(r5))
		f.I("MOVD", string(r5), fmt.Sprintf("%s+%d(FP)", []string{"a", "b", "c"}[k], off+8*k))
	}
	for k := p.folds; k < 3; k++ {
		f.I("MOVD", "ZR", fmt.Sprintf("%s+%d(FP)", []string{"a", "b", "c"}[k], off+8*k))
	}
	if p.checked {
		f.I("VMOV", fmt.Sprintf("V%d.D[0]", res), string(r5))
		f.I("VMOV", fmt.Sprintf("V%d.D[1]", res), string(r6))
		f.I("ORR", string(r6), string(r5))
		f.I("AND", "$0x7fffffffffffffff", string(r5))
		f.I("MOVD", string(r5), fmt.Sprintf("resid+%d(FP)", off+24))
	} else {
		f.I("MOVD", "ZR", fmt.Sprintf("resid+%d(FP)", off+24))
	}
	f.I("RET")
	f.P("flush:")
	flush()
	f.I("MOVD", fmt.Sprintf("$%d", flushParts), string(rleft))
	f.I("B", "next")
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
