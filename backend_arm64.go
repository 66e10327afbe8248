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
	// Dense and bitmap kernels; selections keep the generic Go loops.
	b.f32.sum, b.f32.summary = neonSumFloat[float32], neonSummaryFloat[float32]
	b.f64.sum, b.f64.summary = neonSumFloat[float64], neonSummaryFloat[float64]
	b.lanes = lanesNEON
	b.i8.sum, b.i8.summary = neonSumInt[int8, int64], neonSummaryInt[int8]
	b.i16.sum, b.i16.summary = neonSumInt[int16, int64], neonSummaryInt[int16]
	b.i32.sum, b.i32.summary = neonSumInt[int32, int64], neonSummaryInt[int32]
	b.i64.sum, b.i64.summary = neonSumInt[int64, int64], neonSummaryInt[int64]
	b.u8.sum, b.u8.summary = neonSumInt[uint8, uint64], neonSummaryInt[uint8]
	b.u16.sum, b.u16.summary = neonSumInt[uint16, uint64], neonSummaryInt[uint16]
	b.u32.sum, b.u32.summary = neonSumInt[uint32, uint64], neonSummaryInt[uint32]
	b.u64.sum, b.u64.summary = neonSumInt[uint64, uint64], neonSummaryInt[uint64]
	b.checkedI64 = neonCheckedI64
	b.checkedU64 = neonCheckedU64
	b.countValid = neonCountValid
	return &b
}
