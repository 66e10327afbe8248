//go:build amd64 && !purego

package quiver

// installSummaryKernels puts the summary family's kernels for set into b.
func installSummaryKernels(b *backend, set isa) {}
