//go:build !purego

package quiver

import "github.com/quiverlabs/quiver/internal/kernel"

// The generic backend is portable Go that every platform can run
// (internal/kernel/generic.go). It keeps the reference's float sums
// exactly (strict, A=1) and uses independent accumulators only where the
// result cannot depend on the order. It is what a CPU without the SIMD
// backends runs, and the baseline the SIMD backends are measured against
// beside the scalar one.
var genericBackend = register("generic", 10, true, kernel.Generic)
