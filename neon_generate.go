package quiver

// The arm64 NEON kernels (sum_arm64.s, summary_arm64.s, count_arm64.s and
// their Go declarations) are generated from the Arm encodings by the
// commands under internal/asm/arm64. The directives live in this file,
// which has no build constraint, so that go generate ./... regenerates them
// on any host, not only on arm64.
//
//go:generate go -C internal/asm run ./arm64/sum -out ../../sum_arm64.s -stubs ../../sum_arm64.go
//go:generate go -C internal/asm run ./arm64/summary -out ../../summary_arm64.s -stubs ../../summary_arm64.go
//go:generate go -C internal/asm run ./arm64/count -out ../../count_arm64.s -stubs ../../count_arm64.go
