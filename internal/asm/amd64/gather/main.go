// Command gather generates quiver's amd64 selection kernels for AVX2 and
// AVX-512: the largest index of a selection (behind the index check of
// every selected reduction) and gathered min, max and fused min/max
// (minmax.go). (Gathered wrapping sums lost to a Go loop with four
// accumulators and were removed: bench/selgather_test.go.) The
// instruction set is the parameter of one generator, and the element type
// of the gathered kernels is a parameter too (kit.Elem).
//
// Gathers take 32-bit indices, which the instructions sign-extend: the Go
// wrappers use the kernels only for inputs of at most 2^31 elements, so
// every index is a non-negative offset inside x.
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

func main() {
	ConstraintExpr("amd64,!purego")
	for _, s := range []kit.ISA{kit.AVX2, kit.AVX512} {
		selMax(s)
	}
	for _, s := range []kit.ISA{kit.AVX2, kit.AVX512} {
		for _, e := range minMaxElems(s) {
			for _, m := range []mode{modeMin, modeMax, modeBoth} {
				selMinMax(s, e, m, false)
				switch {
				case s != kit.AVX512:
				case m == modeBoth:
					selMinMax(s, e, m, true)
				default:
					selOneValid(e, m)
				}
			}
		}
	}
	kit.GenerateFiles("internal/asm/amd64/gather")
}

// selMax generates selMax<ISA>(sel []uint32) uint32: the largest index of
// sel, len(sel) a non-zero multiple of 4 vectors of indices.
func selMax(s kit.ISA) {
	name := fmt.Sprintf("selMax%s", s)
	TEXT(name, NOSPLIT, "func(sel []uint32) uint32")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s returns the largest index of sel; len(sel) must be a non-zero multiple of %d.", name, 4*s.Lanes(4)))
	p, n := kit.Slice("sel")
	vb := s.VecBytes()
	acc := []reg.VecVirtual{s.Vec(), s.Vec(), s.Vec(), s.Vec()}
	for _, a := range acc {
		kit.Zero(a)
	}
	kit.Loop("max", n, 4*s.Lanes(4), func() {
		for v := range acc {
			VPMAXUD(Mem{Base: p, Disp: v * vb}, acc[v], acc[v])
		}
		ADDQ(U32(4*vb), p)
	})
	VPMAXUD(acc[1], acc[0], acc[0])
	VPMAXUD(acc[3], acc[2], acc[2])
	VPMAXUD(acc[2], acc[0], acc[0])
	y := acc[0].AsY()
	if s == kit.AVX512 {
		hi := YMM()
		VEXTRACTI64X4(U8(1), acc[0], hi)
		VPMAXUD(hi, y, y)
	}
	x, t := acc[0].AsX(), XMM()
	VEXTRACTI128(U8(1), y, t)
	VPMAXUD(t, x, x)
	VPSHUFD(U8(0x4E), x, t)
	VPMAXUD(t, x, x)
	VPSHUFD(U8(0xB1), x, t)
	VPMAXUD(t, x, x)
	r := GP32()
	VMOVD(x, r)
	Store(r, ReturnIndex(0))
	kit.Ret()
}
