//go:build arm64 && !purego

package quiver

import (
	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver/internal/oracle"
)

// The kernels are generated from the Arm encodings by the commands under
// internal/asm/arm64 (directives in generate.go); run go generate
// after changing a generator. Each operation's Go wrappers sit next to its
// kernel, as on amd64: sum_arm64.go, summary_arm64.go and count_arm64.go,
// with the generated <op>_arm64.s and <op>_stubs_arm64.go. This file only
// detects and registers the backend.

// The arm64 backend: NEON (Advanced SIMD) kernels. It starts as a copy of
// the generic backend and replaces every kernel. The assembly handles the
// whole vector iterations; the Go around it handles what the vectors
// cannot without reading past a slice: the bitmap head up to a byte
// boundary and the tails, and the exactness rescues of min and max.
var neonBackend = register(neonBackendBuild())

func neonBackendBuild() *backend {
	b := *genericBackend
	b.name, b.priority, b.available = "neon", 20, cpu.ARM64.HasASIMD
	// ADR-013 at NEON widths: four accumulators of one 128-bit vector.
	b.policy32 = oracle.Policy{A: 4, W: 4}
	b.policy64 = oracle.Policy{A: 4, W: 2}
	b.f32 = kernelSet[float32, float32]{sum: neonSumFloat[float32], summary: neonSummaryFloat[float32]}
	b.f64 = kernelSet[float64, float64]{sum: neonSumFloat[float64], summary: neonSummaryFloat[float64]}
	b.i8 = kernelSet[int8, int64]{sum: neonSumInt[int8, int64], summary: neonSummaryInt[int8]}
	b.i16 = kernelSet[int16, int64]{sum: neonSumInt[int16, int64], summary: neonSummaryInt[int16]}
	b.i32 = kernelSet[int32, int64]{sum: neonSumInt[int32, int64], summary: neonSummaryInt[int32]}
	b.i64 = kernelSet[int64, int64]{sum: neonSumInt[int64, int64], summary: neonSummaryInt[int64]}
	b.u8 = kernelSet[uint8, uint64]{sum: neonSumInt[uint8, uint64], summary: neonSummaryInt[uint8]}
	b.u16 = kernelSet[uint16, uint64]{sum: neonSumInt[uint16, uint64], summary: neonSummaryInt[uint16]}
	b.u32 = kernelSet[uint32, uint64]{sum: neonSumInt[uint32, uint64], summary: neonSummaryInt[uint32]}
	b.u64 = kernelSet[uint64, uint64]{sum: neonSumInt[uint64, uint64], summary: neonSummaryInt[uint64]}
	b.checkedI64 = neonCheckedI64
	b.checkedU64 = neonCheckedU64
	b.countValid = neonCountValid
	return &b
}
