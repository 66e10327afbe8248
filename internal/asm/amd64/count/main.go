// Command count generates quiver's amd64 valid-bit count kernels, behind
// CountValid and the valid counts of masked reductions, for AVX2 and
// AVX-512. The instruction set is the parameter of one generator.
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
		countValid(s)
	}
	kit.GenerateFiles("internal/asm/amd64/count")
}

// countValid generates countValid<ISA>(b []byte) int: the number of set
// bits in b, len(b) a multiple of 8. AVX-512 counts with VPOPCNTQ; AVX2
// with the nibble table (VPSHUFB looks up the count of each half byte,
// VPSADBW adds the byte counts into 64-bit lanes); both finish with POPCNT
// on 8-byte words.
func countValid(s kit.ISA) {
	name := fmt.Sprintf("countValid%s", s)
	TEXT(name, NOSPLIT, "func(b []byte) int")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s returns the number of set bits in b; len(b) must be a multiple of 8.", name))
	p, n := kit.Slice("b")
	vb := s.VecBytes()
	acc := []reg.VecVirtual{s.Vec(), s.Vec()}
	kit.Zero(acc[0])
	kit.Zero(acc[1])
	var lut, nib, zero reg.VecVirtual
	if s == kit.AVX2 {
		lut, nib, zero = YMM(), YMM(), YMM()
		VMOVDQU(nibbleLUT(), lut)
		c := GP64()
		MOVQ(U64(0x0F0F0F0F0F0F0F0F), c)
		VMOVQ(c, nib.AsX())
		VPBROADCASTQ(nib.AsX(), nib)
		kit.Zero(zero)
	}
	count := func(m Mem, a reg.VecVirtual) {
		t := s.Vec()
		if s == kit.AVX512 {
			VPOPCNTQ(m, t)
			VPADDQ(t, a, a)
			return
		}
		lo, hi := YMM(), YMM()
		VMOVDQU(m, t)
		VPAND(nib, t, lo)
		VPSRLW(U8(4), t, hi)
		VPAND(nib, hi, hi)
		VPSHUFB(lo, lut, lo)
		VPSHUFB(hi, lut, hi)
		VPADDB(lo, hi, t)
		VPSADBW(zero, t, t)
		VPADDQ(t, a, a)
	}
	const u = 4
	kit.Loop("vec4", n, u*vb, func() {
		for v := 0; v < u; v++ {
			count(Mem{Base: p, Disp: v * vb}, acc[v%2])
		}
		ADDQ(U32(u*vb), p)
	})
	kit.Loop("vec1", n, vb, func() {
		count(Mem{Base: p}, acc[0])
		ADDQ(U32(vb), p)
	})
	VPADDQ(acc[1], acc[0], acc[0])
	r := kit.HsumQ(s, acc[0])
	kit.Loop("word", n, 8, func() {
		c := GP64()
		POPCNTQ(Mem{Base: p}, c)
		ADDQ(c, r)
		ADDQ(U32(8), p)
	})
	Store(r, ReturnIndex(0))
	kit.Ret()
}

var lutMem *Mem

// nibbleLUT is the popcount of each 4-bit value, repeated for both 128-bit
// halves (VPSHUFB looks up within each half).
func nibbleLUT() Mem {
	if lutMem == nil {
		m := GLOBL("popcnt4", RODATA|NOPTR)
		for i := 0; i < 32; i++ {
			c := 0
			for v := i % 16; v != 0; v &= v - 1 {
				c++
			}
			DATA(i, U8(uint8(c)))
		}
		lutMem = &m
	}
	return *lutMem
}
