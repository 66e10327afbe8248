//go:build amd64 && !purego

package kernel

import "golang.org/x/sys/cpu"

// testISAs are the ISAs of this build, with the CPU checks of the API's
// backend_amd64.go.
func testISAs() []testISA {
	avx2 := cpu.X86.HasAVX && cpu.X86.HasAVX2 && cpu.X86.HasBMI2 && cpu.X86.HasPOPCNT
	avx512 := avx2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512DQ &&
		cpu.X86.HasAVX512VL && cpu.X86.HasAVX512VPOPCNTDQ
	return []testISA{{AVX512, avx512}, {AVX2, avx2}, {Generic, true}, {Scalar, true}}
}
