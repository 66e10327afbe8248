package bench

// The masked float MinMax and Summarize on AVX2 blend each vector twice:
// its invalid lanes become +Inf for the minimum and -Inf for the maximum
// (VBLENDVPD/VBLENDVPS, three micro-ops each on the vector ports of an
// Intel Golden Cove core, one on AMD's Zen), and the NaN check compares
// the first blended copy. One blend can serve both extremes: VMINP*/VMAXP*
// return their second source when the first is NaN, and the kernels pass
// the element first and the accumulator second, so an element blended to
// NaN (all ones) in its invalid lanes leaves both accumulators as they
// are. The NaN check then needs a copy whose invalid lanes are ordered: a
// masked load (VMASKMOVPD/VMASKMOVPS: the valid lanes, +0.0 in the
// others), one micro-op beside its load. Per vector on Golden Cove that is
// a shift, one blend, the two extremes, the masked load and half a compare
// and an OR: 8 micro-ops instead of 10. On AMD's Zen cores, whose blend
// is one micro-op, the count stays at 6. A valid NaN still reaches the
// check, and the extremes still skip it, as before.
// The single-extreme kernels (Min, Max) keep their one blend with ±Inf.
//
// Registered on 2026-12-06 on an Intel Xeon family 6 model 207 (AVX-512;
// the avx2 backend chosen with quiver.SetBackend), before the change;
// measured with the ledger matrix's benchmarks (impl=avx2), the bench
// binaries of the commit before and after run alternately, ratio time
// after over time before, by the medians and the fastest samples:
//
//	H336 (measured by hand): BenchmarkSummary float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2: time <= 0.85x before
//	H337 (measured by hand): BenchmarkMinMax float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2: time <= 0.85x before
//	H338 (measured by hand): BenchmarkSummary and BenchmarkMinMax float64 and float32 n=1048576, nulls 10% and 50%, impl=avx2: time <= 0.95x before
//	H339 (measured by hand): BenchmarkMin and BenchmarkMax float64 n=4096 and 65536, nulls 10%, impl=avx2 (the single-extreme kernels, unchanged): time <= 1.03x before

// The masked integer MinMax and Summarize on AVX2 (the fused kernels of
// both extremes) still blend each vector twice, its invalid lanes to the
// type's highest value for the minimum and to its lowest for the maximum;
// for 64-bit lanes, which AVX2 has no min or max for, each extreme is a
// further compare and blend. Per pair of int64 vectors that is 2 shifts,
// 4 blends, 4 compares and 4 blends: 14 vector micro-ops on AMD's Zen
// (blends are one), 22 on Intel's Golden Cove (three).
//
// The change: Go finds one valid element (the first set bit of the
// kernel's bitmap; with no valid element the kernel is not called) and
// passes it as a seed. The kernel starts every lane's minimum and maximum
// at the seed and blends the invalid lanes of each vector to it, once:
// a valid element lies between the extremes of the valid elements, so it
// changes neither. With one copy per vector the dense kernel's pair sort
// serves the 64-bit kernels too (a compare and two blends put the pair's
// smaller and larger lanes apart; then one compare and blend per
// extreme): 2 shifts, 2 blends, then 1 + 2 + 4, so 11 micro-ops per pair
// of vectors on Zen instead of 14. The 32-, 16- and 8-bit kernels have
// VPMIN*/VPMAX* and go from two blends, a min and a max per vector to one
// blend, a min and a max. Registered on 2026-12-06 on an AMD EPYC family
// 26 model 2 (Zen 5 class, AVX-512; the avx2 backend chosen with
// quiver.SetBackend), before the change; the ledger matrix's benchmarks
// (impl=avx2), the bench binaries of the commit before and after run
// alternately, ratio time after over time before, by the medians:
//
//	H348 (measured by hand): BenchmarkMinMax and BenchmarkSummary int64 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.85x before
//	H349 (measured by hand): BenchmarkMinMax and BenchmarkSummary int32 and uint8 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.92x before
//	H350 (measured by hand): BenchmarkMinMax and BenchmarkSummary int64, int32 and uint8 n=1048576, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 1.0x before
//	H351 (measured by hand): BenchmarkMinMax and BenchmarkSummary int64 nulls 0, and BenchmarkMin and BenchmarkMax int64 nulls 10% (kernels unchanged), impl=avx2 on Zen 5: time <= 1.03x before

// The masked float MinMax and Summarize on AVX2 blend each vector once, to
// NaN in its invalid lanes (oneBlend), and check for NaN on a second,
// masked load of the vector (+0.0 in the invalid lanes), since the blended
// copy holds NaN where nothing was read. With a seed, the first valid
// element, blended into the invalid lanes instead (as the integer kernels
// of H348-H351 do), the blended copy is both what the extremes take and
// what the NaN check reads: a valid element moves neither extreme, and
// the check sees NaN only where an element that takes part is NaN (a NaN
// seed is one, and then the result is NaN whatever the lanes say). That
// drops the masked load: per vector a shift, a blend, the min, the max
// and half a compare and an OR, 5 vector operations instead of 6 on
// AMD's Zen. Registered on 2026-12-06 on the AMD EPYC family 26 model 2
// (Zen 5 class; the avx2 backend chosen with quiver.SetBackend), before
// the change; the ledger matrix's benchmarks (impl=avx2), the commit
// before and after alternately, by the medians:
//
//	H358 (measured by hand): BenchmarkMinMax and BenchmarkSummary float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.92x before
//	H359 (measured by hand): the same at n=1048576 on Zen 5: time <= 1.0x before
//	H360 (measured by hand): BenchmarkMinMax and BenchmarkSummary float64 and float32 nulls 0%, and BenchmarkMin and BenchmarkMax float64 nulls 10% (kernels unchanged), impl=avx2 on Zen 5: time <= 1.03x before

// The seeded float kernels of H358-H360 check for NaN with an unordered
// compare of each vector pair and an OR into an accumulator. On the AMD
// EPYC family 26 model 2 (Zen 5 class), 256-bit VMINP*/VMAXP*, VCMPP*,
// VADDP* and the vector shifts that expand the bitmap share one pair of
// pipes, and VBLENDVP*, VMASKMOVP*, VMULP*, the FMAs and VPMULLD another
// (pairs of those instructions in a loop: two a cycle within a group,
// four across). The masked fused float kernel puts 14 of its 18 vector
// operations per 4 vectors on the first pair. The dense kernels' FMA
// sentinel, s = a*b + s for each pair (NaN at the end if a NaN took
// part), is one operation on the second pair where the compare and the
// OR were two, one of them on the first; with the seed in the invalid
// lanes it alarms without a NaN only where the dense kernel's would, on
// an infinity that meets a zero or an infinite product of the other sign
// in one lane, and Go settles an alarm with the compares' kernel. A probe
// (the float64 seeded kernel edited by hand, 8 alternate passes) took
// 0.83-0.87 of the time at n=4096 and 65536; llvm-mca 19 gives the same
// cycles for the two loops on znver3, and 7-9% fewer with the FMAs on
// skylake, icelake-client and alderlake. Registered on 2026-12-06 on the
// AMD EPYC family 26 model 2 (the avx2 backend chosen with
// quiver.SetBackend) after that probe and before the generated change
// was measured; the ledger matrix's benchmarks (impl=avx2), the bench
// binaries of the commit before and after run alternately, ratio time
// after over time before:
//
//	H361 (measured by hand): BenchmarkMinMax and BenchmarkSummary float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.90x before by the medians
//	H362 (measured by hand): the same at n=1048576 on Zen 5: time <= 1.0x before by the medians
//	H363 (measured by hand): BenchmarkSeededAlarmAVX2 (every call alarms without a NaN, so the compares' kernel runs too) on Zen 5: time <= 2.1x before by the medians
//	H364 (measured by hand): BenchmarkMinMax and BenchmarkSummary float64 and float32 nulls 0%, BenchmarkMin and BenchmarkMax float64 nulls 10%, and BenchmarkMinMax int64 nulls 10% (kernels unchanged), impl=avx2 on Zen 5: time <= 1.03x before by the fastest samples

// The masked single-extreme float kernels on AVX2 (Min, Max) blend the
// invalid lanes of each vector to +Inf (-Inf) and check for NaN with an
// unordered compare per pair and an OR. Per 4 vectors on the Zen 5 of
// H361-H364 that is 10 operations on the pipe pair of VMINP*/VMAXP*,
// VCMPP* and the shifts (4 shifts, 4 min, 2 compares) and 4 blends on the
// other: bound there by 5 cycles, against 5.9 measured (n=4096). The
// change: seeded like the kernels of both extremes (the first valid
// element blended into the invalid lanes, which moves no extreme), so
// that the FMA sentinel of H361 applies without an infinity in every
// invalid lane (one would alarm on each valid zero), and the four
// shift-count vectors held in registers instead of read from memory with
// each shift (4 loads fewer per 4 vectors; these kernels have the
// registers). Probes on this CPU (the float64 Min kernel edited by hand,
// 8 alternate passes, n=4096 and 65536): the counts in registers alone
// 0.97-1.02, the FMA sentinel alone 0.92-1.02, both with the loads folded
// into the blends 0.82-0.91. Registered on 2026-12-06 on the AMD EPYC
// family 26 model 2 (the avx2 backend chosen with quiver.SetBackend)
// after those probes and before the generated change was measured; the
// ledger matrix's benchmarks (impl=avx2), the bench binaries of the
// commit before and after run alternately, ratio time after over time
// before:
//
//	H365 (measured by hand): BenchmarkMin and BenchmarkMax float64 and float32 n=4096 and 65536, nulls 10% and 50%, impl=avx2 on Zen 5: time <= 0.90x before by the medians
//	H366 (measured by hand): the same at n=1048576 on Zen 5: time <= 1.0x before by the medians
//	H367 (measured by hand): BenchmarkMinMax and BenchmarkSummary float64 and float32 nulls 10%, BenchmarkMin and BenchmarkMax float64 nulls 0%, and BenchmarkMin int64 nulls 10% (kernels unchanged), impl=avx2 on Zen 5: time <= 1.03x before by the fastest samples
//	H368 (measured by hand, registered after H365-H367 were measured and before this one was): BenchmarkSeededAlarmAVX2 op=min (every call alarms without a NaN) on Zen 5: time <= 2.1x before by the medians
