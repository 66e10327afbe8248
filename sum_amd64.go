//go:build amd64 && !purego

package quiver

// installSumKernels puts the sum family's kernels for set into b.
func installSumKernels(b *backend, set isa) {}
