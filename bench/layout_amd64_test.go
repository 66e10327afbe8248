package bench

// Where the kernels' loops lie in memory. bench/avx2only.sh's first full
// run (AMD EPYC family 26 model 2, Zen 5 class, avx2 backend on this
// AVX-512 core) found the dense uint8 MinMax and Summarize on avx2 1.24-
// 1.31x slower than at d1cdb80 and 284c342, with the kernel's code and
// the input unchanged. A standalone loop over the kernel alone, with NOP
// bytes placing its 73-byte main loop at every offset into a 64-byte line
// of code, took 38-40 ns for 4096 elements from offset 0 to 12 and 27-28
// ns from 14 to 52: at 0-12 its first line starts 13 or 14 of its
// instructions, from 14 on at most 12. The place was the linker's choice,
// so any build could time any kernel up to 1.4x slower. The change: the
// generators' post-pass (kit.LayOut) aligns every kernel to 64 bytes and
// puts NOPs before the inner loops that need them, so that no 64-byte
// line starts more than 12 instructions of a loop where a place exists.
// Registered before the change, against the commit before it (429628e),
// the two bench binaries run in turns (bench/avx2only.sh's method,
// cmd/abratio's median of per-pass ratios, time after over before):
//
//	H501 (measured by hand): MinMax and Summarize uint8 dense n=4096 on avx2 (BenchmarkOddLengths): time <= 0.80x before
//	H502 (measured by hand): MinMax and Summary uint8 nulls=0 n=65536 on avx2 (BenchmarkMinMax, BenchmarkSummary): time <= 0.85x before
//	H503 (measured by hand): every dense case of BenchmarkOddLengths at n=1024, 4096 and 4099 on avx2 and avx512: time <= 1.03x before (no kernel gets slower)
//	H504 (measured by hand): the short dense calls of BenchmarkDenseCuts on avx2 (n <= 64, where the NOPs before a loop are a larger share): time <= 1.03x before
//	H505 (measured by hand): the masked cells of BenchmarkMaskedFrames on avx2 and avx512: time <= 1.03x before
