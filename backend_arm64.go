//go:build arm64 && !purego

package quiver

import (
	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver/internal/kernel"
)

// The arm64 backend: NEON (Advanced SIMD) kernels, ADR-013 at NEON widths
// (four accumulators of one 128-bit vector). The kernels are generated
// from the Arm encodings by the commands under internal/asm/arm64; what
// the NEON ISA runs for each family is in internal/kernel
// (dispatch_arm64.go). This file only detects and registers the backend.
var neonBackend = register("neon", 20, cpu.ARM64.HasASIMD, kernel.NEON)
