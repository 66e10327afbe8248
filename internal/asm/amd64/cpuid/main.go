// Command cpuid generates the one instruction the kernel package needs
// that golang.org/x/sys/cpu does not expose: CPUID itself, for the vendor
// and the family of the CPU, which choose between two kernels of the same
// result where the feature bits cannot tell them apart (see
// internal/kernel/dispatch_amd64.go: avx2FromDRAM).
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

func main() {
	ConstraintExpr("amd64,!purego")
	TEXT("cpuid", NOSPLIT, "func(leaf, sub uint32) (a, b, c, d uint32)")
	Pragma("noescape")
	Doc("cpuid returns EAX, EBX, ECX and EDX of the CPUID instruction for leaf and subleaf sub.")
	Load(Param("leaf"), reg.EAX)
	Load(Param("sub"), reg.ECX)
	CPUID()
	Store(reg.EAX, Return("a"))
	Store(reg.EBX, Return("b"))
	Store(reg.ECX, Return("c"))
	Store(reg.EDX, Return("d"))
	RET() // not kit.Ret: no vector register was written, so no VZEROUPPER
	kit.GenerateFiles("internal/asm/amd64/cpuid")
}
