//go:build arm64 && !purego

package quiver

import "golang.org/x/sys/cpu"

// The arm64 backend: NEON (Advanced SIMD) kernels. It starts as a copy of
// the generic backend, so an operation without a NEON kernel runs portable
// Go, and the family files install their kernels on top.
var neonBackend = register(neonBackendBuild())

func neonBackendBuild() *backend {
	b := *genericBackend
	b.name, b.priority, b.available = "neon", 20, cpu.ARM64.HasASIMD
	return &b
}
