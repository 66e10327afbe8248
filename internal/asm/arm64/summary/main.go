// Command summary generates the arm64 NEON kernels of the summary family:
// the lanewise minimum and maximum behind Min, Max, MinMax and Summarize.
// One kernel, instantiated per element type.
//
//	go run ./arm64/summary -out ../../summary_arm64.s -stubs ../../summary_stubs_arm64.go
package main

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

const generator = "internal/asm/arm64/summary"

func main() { neon.Main(generator, generate) }

// Register plan:
//
//	R0 x, R1 iteration count (from len(x)), R2 bitmap, R5 result memory, R4 scratch;
//	V0-V3 min accumulators, V4-V7 max accumulators, V8 the bits of one
//	iteration, V9-V12 lane masks (then compare scratch), V13-V15 and V30
//	the min operands of masked loops (then compare scratch), V16-V23 mask
//	constants, V24-V27 the loaded data, V28 the identity of min, V29 the
//	identity of max.
const (
	rx, rn, rbm, r4, rout = neon.R("R0"), neon.R("R1"), neon.R("R2"), neon.R("R4"), neon.R("R5")
	idMin, idMax          = neon.V(28), neon.V(29)
)

var (
	masks = [4]neon.V{9, 10, 11, 12}
	temps = [4]neon.V{13, 14, 15, 30}
)

func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	var fns []neon.Func
	for _, t := range append(append([]neon.Type{}, neon.Ints...), neon.Floats...) {
		fns = append(fns, summary(f, t, false), summary(f, t, true))
	}
	return f, fns
}

// identities returns the lane values that never win min and max: for
// integers the largest and lowest values, for floats +Inf and -Inf (not
// ±MaxFloat, which would beat a lone infinity; the caller substitutes the
// API's ±MaxFloat when nothing participates).
func identities(t neon.Type) (lo, hi uint64) {
	bits := uint(t.Size * 8)
	switch {
	case t.Float && t.Size == 4:
		return uint64(math.Float32bits(float32(math.Inf(1)))), uint64(math.Float32bits(float32(math.Inf(-1))))
	case t.Float:
		return math.Float64bits(math.Inf(1)), math.Float64bits(math.Inf(-1))
	case t.Signed:
		return 1<<(bits-1) - 1, 1 << (bits - 1)
	}
	return 1<<bits - 1, 0
}

// minInto emits acc = min(acc, x) lanewise, using tmp for 64-bit integer
// lanes, which have no vector min: compare, then insert where greater.
func minInto(f *neon.File, t neon.Type, acc, x, tmp neon.V) {
	a := t.Q()
	switch {
	case t.Float:
		f.FMIN(a, acc, acc, x)
	case t.Size == 8:
		f.CMGT(t.Signed, a, tmp, acc, x) // acc > x
		f.BIT(acc, x, tmp)
	default:
		f.MIN(t.Signed, a, acc, acc, x)
	}
}

// maxInto emits acc = max(acc, x) lanewise.
func maxInto(f *neon.File, t neon.Type, acc, x, tmp neon.V) {
	a := t.Q()
	switch {
	case t.Float:
		f.FMAX(a, acc, acc, x)
	case t.Size == 8:
		f.CMGT(t.Signed, a, tmp, x, acc) // x > acc
		f.BIT(acc, x, tmp)
	default:
		f.MAX(t.Signed, a, acc, acc, x)
	}
}

// summary keeps four independent min and four independent max
// accumulators over x (len(x)/per iterations of 64 bytes) and stores the combined min vector
// and max vector to out. Masked lanes are replaced by the identities. Any
// NaN among the participating lanes reaches both results (FMIN and FMAX
// propagate it); ties between +0.0 and -0.0 are left to the caller's
// rescan.
func summary(f *neon.File, t neon.Type, masked bool) neon.Func {
	a := t.Q()
	per := 4 * t.Lanes()
	fn := neon.Func{
		Name: "summary" + t.Suffix(),
		Doc: fmt.Sprintf("summary%s stores to out[0:%d] the lanewise minimum and to out[%d:%d] the\n"+
			"lanewise maximum of x (float NaNs propagate; ±0 ties unresolved). len(x) is a\n"+
			"multiple of %d: the kernel reads all of x and nothing else.",
			t.Suffix(), t.Lanes(), t.Lanes(), 2*t.Lanes(), per),
		Params: []string{"x []" + t.Name, fmt.Sprintf("out *[%d]%s", 2*t.Lanes(), t.Name)},
	}
	regs := []neon.R{rx, rout}
	if masked {
		fn.Name += "Masked"
		fn.Doc = fmt.Sprintf("summary%sMasked is summary%s over the elements whose bit is set in bm,\n"+
			"the first element at bit 0; it reads the first len(x)/8 bytes of bm (%d per %d\n"+
			"elements), which bm must hold.",
			t.Suffix(), t.Suffix(), neon.BitmapBytes(t), per)
		fn.Params = []string{"x []" + t.Name, "bm []byte", fmt.Sprintf("out *[%d]%s", 2*t.Lanes(), t.Name)}
		regs = []neon.R{rx, rbm, rout}
	}
	f.Begin(fn, regs...)
	f.Blocks(fn, "x", bits.TrailingZeros(uint(per)), rn)
	lo, hi := identities(t)
	f.Dup(a, idMin, lo)
	f.Dup(a, idMax, hi)
	for v := neon.V(0); v < 4; v++ {
		f.ORR(v, idMin, idMin)
		f.ORR(4+v, idMax, idMax)
	}
	var exp *neon.Expander
	if masked {
		exp = neon.NewExpander(f, t, 8, 16)
	}
	f.I("CBZ", string(rn), "done")
	f.P("loop:")
	if masked {
		exp.LoadExpand(f, rbm, r4, masks)
	}
	f.Load4(a, rx, 24)
	for v := neon.V(0); v < 4; v++ {
		x, xmin := 24+v, 24+v
		if masked && t.Size == 8 && !t.Float {
			// Compare and insert: masking the compare result is one
			// instruction per accumulator, cheaper than blending
			// identities into two copies of x.
			m, tmp := masks[v], temps[v]
			f.CMGT(t.Signed, a, tmp, v, x) // min: acc > x
			f.AND(tmp, tmp, m)
			f.BIT(v, x, tmp)
			f.CMGT(t.Signed, a, tmp, x, 4+v) // max: x > acc
			f.AND(tmp, tmp, m)
			f.BIT(4+v, x, tmp)
			continue
		}
		if masked {
			m := masks[v]
			xmin = temps[v]
			if !t.Signed && !t.Float {
				f.ORN(xmin, x, m) // invalid lanes: all ones, the unsigned maximum
				f.AND(x, x, m)    // invalid lanes: zero
			} else {
				f.ORR(xmin, m, m)
				f.BSL(xmin, x, idMin)
				f.BIF(x, idMax, m)
			}
		}
		minInto(f, t, v, xmin, masks[v])
		maxInto(f, t, 4+v, x, temps[v])
	}
	f.I("SUBS", "$1", string(rn), string(rn))
	f.I("BNE", "loop")
	f.P("done:")
	minInto(f, t, 0, 1, 9)
	minInto(f, t, 2, 3, 10)
	minInto(f, t, 0, 2, 11)
	maxInto(f, t, 4, 5, 12)
	maxInto(f, t, 6, 7, 13)
	maxInto(f, t, 4, 6, 14)
	f.ORR(1, 4, 4)
	f.I("VST1", "[V0.B16, V1.B16]", "("+string(rout)+")")
	f.Return(fn, "")
	return fn
}
