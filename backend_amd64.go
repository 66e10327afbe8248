//go:build amd64 && !purego

package quiver

import (
	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// The amd64 backends: AVX-512 is preferred over AVX2 over generic. The
// feature bits each backend requires are exactly those its kernels use,
// every one checked. The kernels, and what each ISA runs for each family,
// are in internal/kernel (dispatch_amd64.go).
var (
	avx2Backend   = register("avx2", 20, hasAVX2(), kernel.AVX2)
	avx512Backend = register("avx512", 30, hasAVX512(), kernel.AVX512)
)

func hasAVX2() bool {
	return cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
}

func hasAVX512() bool {
	return hasAVX2() && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ
}
