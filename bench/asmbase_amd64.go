//go:build amd64

package bench

// Assembly float-sum loops, the yardsticks of the AVX2 float sums: the
// same loop with exactly ADR-013's four YMM accumulator chains (blocks of
// four vectors added in order, combined (0+2),(1+3), then +, lanes folded
// low to high from +0.0), which is the fastest a four-chain policy allows,
// and with eight chains, the ceiling a core with two add pipes of latency
// 3-4 reaches in L1. len(x) must be a multiple of 64 (float64) or 128
// (float32). They need AVX; the benchmarks run them only where the avx2
// backend is available.

//go:noescape
func asmSum4F64(x []float64) float64

//go:noescape
func asmSum8F64(x []float64) float64

//go:noescape
func asmSum4F32(x []float32) float32

//go:noescape
func asmSum8F32(x []float32) float32
