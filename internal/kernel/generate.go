package kernel

// Every kernel file is generated; go generate ./... at the repository root
// rebuilds them all, on any host (this file has no build constraint, so
// the amd64 directives run on arm64 and the other way round). The
// generators live in their own module, internal/asm, so that avo never
// appears in this module's dependencies.
//
// Each family has its wrappers in <family>_<arch>.go, its generated Go
// declarations in <family>_stubs_<arch>.go and its kernels in
// <family>_<arch>.s; the file names carry the architecture and the
// generated files also carry the full constraint (<arch> && !purego).
//
// The exported entry points and their out-of-line entries per machine
// type (typed.go), on every architecture:
//
//go:generate go -C ../asm run ./typed -out ../kernel/typed.go
//
// amd64 (avo): the sum family (float and integer sums, checked sums), the
// summary family (min, max and the valid count), valid-bit counts, the
// gather family (selection index checks and gathered min and max), the
// reproducible sum's range pass and extraction folds, the grouped
// kernels, and CPUID for the vendor and family that x/sys/cpu does not
// report.
//
//go:generate go -C ../asm run ./amd64/sum -out ../kernel/sum_amd64.s -stubs ../kernel/sum_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/summary -out ../kernel/summary_amd64.s -stubs ../kernel/summary_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/count -out ../kernel/count_amd64.s -stubs ../kernel/count_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/gather -out ../kernel/gather_amd64.s -stubs ../kernel/gather_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/repro -out ../kernel/repro_amd64.s -stubs ../kernel/repro_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/group -out ../kernel/group_amd64.s -stubs ../kernel/group_stubs_amd64.go -pkg kernel
//go:generate go -C ../asm run ./amd64/cpuid -out ../kernel/cpuid_amd64.s -stubs ../kernel/cpuid_stubs_amd64.go -pkg kernel
//
// The switches that call those kernels, read from the stubs above (so this
// directive comes after them):
//
//go:generate go -C ../asm run ./amd64/calls -stubs ../kernel -out ../kernel/asmcall_amd64.go
//
// arm64 (NEON, encoded from the Arm encodings as WORD directives):
//
//go:generate go -C ../asm run ./arm64/sum -out ../kernel/sum_arm64.s -stubs ../kernel/sum_stubs_arm64.go
//go:generate go -C ../asm run ./arm64/summary -out ../kernel/summary_arm64.s -stubs ../kernel/summary_stubs_arm64.go
//go:generate go -C ../asm run ./arm64/count -out ../kernel/count_arm64.s -stubs ../kernel/count_stubs_arm64.go
//go:generate go -C ../asm run ./arm64/repro -out ../kernel/repro_arm64.s -stubs ../kernel/repro_stubs_arm64.go
//go:generate go -C ../asm run ./arm64/group -out ../kernel/group_arm64.s -stubs ../kernel/group_stubs_arm64.go
