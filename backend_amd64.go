//go:build amd64 && !purego

package quiver

import "golang.org/x/sys/cpu"

// The amd64 backends. Each starts as a copy of the generic backend, so an
// operation without a kernel of its own for an ISA runs portable Go, and
// each operation family's file installs its kernels and, for float sums,
// the ADR-013 layout they use.
//
// AVX-512 is preferred over AVX2 over generic. The feature bits each
// backend requires are exactly those its kernels use, every one checked.
var (
	avx2Backend   = register(amd64Backend("avx2", 20, hasAVX2(), isaAVX2))
	avx512Backend = register(amd64Backend("avx512", 30, hasAVX512(), isaAVX512))
)

// isa names an instruction set for the install functions.
type isa int

const (
	isaAVX2 isa = iota
	isaAVX512
)

func hasAVX2() bool {
	return cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
}

func hasAVX512() bool {
	return hasAVX2() && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ
}

// amd64Backend builds a backend for one ISA: the generic kernels, then every
// family's kernels for that ISA on top.
func amd64Backend(name string, priority int, available bool, set isa) *backend {
	b := *genericBackend
	b.name, b.priority, b.available = name, priority, available
	installSumKernels(&b, set)     // sum_amd64.go: float and integer sums, checked sums, valid counts
	installSummaryKernels(&b, set) // summary_amd64.go: min, max and the fused summary
	installCountKernels(&b, set)   // count_amd64.go: valid-bit counts
	installGatherKernels(&b, set)  // gather_amd64.go: selection index checks and gathered sums
	return &b
}
