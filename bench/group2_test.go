package bench

// Grouped reductions, second round (issue 19): the kernels behind the
// grouped states made at least level with the plain loops, then toward the
// issue's targets. Registered on 2026-12-01 before the formal measurement
// of the changed kernels (BenchmarkGroup, BenchmarkGroupWindows and
// BenchmarkGroupLarge in group_test.go, loop and quiver interleaved in one
// process run, benchstat; ratios are the loop's time over quiver's):
//
// H210 (measured by hand): GroupIntSumState int64 values < 2^56, n=65536, groups=16 and 256: >= 2x loop   expected MISS (about 1.1-1.5x: one int64 table, an overflow flag per add)
// H211 (measured by hand): GroupIntSumState int64 n=65536, values < 2^56 and < 2^32, groups=16, 256, 4096: >= 1.0x loop
// H212 (measured by hand): GroupCountState n=65536 groups=16, 256, 4096: >= 1.0x loop   (ids checked inside the counting kernel, no separate pass)
// H213 (measured by hand): GroupCountState n=65536 groups=16 and 256: >= 2x loop   expected MISS
// H214 (measured by hand): GroupSummaryState float64 against a min-only loop, n=65536 groups=16 and 256: >= 1.0x loop   expected MISS (three results per row against one)
// H215 (measured by hand): GroupSummaryState float64 against the summary loop, n=65536 groups=16, 256, 4096: >= 1.0x loop
// H216 (measured by hand): RunBounds + SumWindows float64, n=65536 sorted ids in runs of 64: >= 1.0x loop
// H217 (measured by hand): SumWindows float64 n=65536, bounds given, runs of 64: >= 4x loop
// H218 (measured by hand): GroupSumState float64 n=65536 groups=16, 256, 4096: >= 1.0x loop
// H219 (measured by hand): GroupSumState float64 n=16777216 groups=1000: time <= 1.2x of Sum(x) + SumUint(ids)   expected MISS
