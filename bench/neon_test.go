package bench

// The NEON backend's targets, checked by simulation: there is no arm64
// machine to time it on, and qemu says nothing about speed.
// scripts/neon-mca.sh (at the repository root) runs every NEON kernel's
// inner loop, cut from the built arm64 binary, and whole short calls,
// traced under qemu-aarch64, through llvm-mca 19's Apple M1 and Neoverse
// N1, V1, N2 and V2 models; docs/neon.md has the numbers and the
// verdicts. The bound of a loop is the largest of its load bound (the
// mean pressure on the model's load units), its vector bound (the busiest
// vector pipe) and its dispatch bound.
//
// Registered after the script's first run, which found the loops to
// change (four accumulator chains in the integer and split sums, the
// masked 8- and 16-bit kernels' bitmap loads); the verdicts are on the
// code after those changes:
//
//	H170 (measured by hand): every NEON inner loop but the dense float sums runs within 1.2x of its bound in the Neoverse N1, V1, N2 and V2 models
//	H171 (measured by hand): every NEON inner loop but the dense float sums runs within 1.2x of its bound in the Apple M1 model
//	H172 (measured by hand): the dense float sums run at max(load bound, vector FADD latency) within 1.05x in every model: ADR-013's four chains of one vector each make the FADD latency a bound per 64 bytes
//	H173 (measured by hand): the dense integer sums of every width run within 1.05x of their bound in every model (no accumulator chain limits them)
//	H174 (measured by hand): the dense float64 Sum takes at most 1/7.5 of the strict fold's cycles per element in every model, as the Apple M2 ledger's 7.7-8.0x
//	H175 (measured by hand): from n=48 (WideWordCut on NEON) a masked int64 or int32 SumInt and a masked or dense int64 SumChecked through the kernel take at most 1.0x the word loop's simulated cycles in the Apple M1 and Neoverse N1, V1 and N2 models, and at most 1.1x in the Neoverse V2 model
