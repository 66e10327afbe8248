package bench

// Pre-registered hypotheses for the call shapes a loop-replacing user
// meets outside the large dense and masked inputs above: short inputs
// (a group-by with small groups, a window, a per-row call) and selection
// vectors (what a vectorized filter hands to the next operator). Written
// on 2026-11-30 before any of these configurations was measured; ratios
// are the plain loop's time over quiver's in the same run, on the
// dispatched backend. The targets: at n = 1 at most 2x the loop's time
// (ratio >= 0.5), at n = 8 and 16 at most 1.25x (>= 0.8), from n = 32 on
// never slower (>= 1.0); over a selection never slower than the loop, and
// 1.5x faster for int64 SumInt and float64 Min over a sorted 10%
// selection of n = 65536. "sel=sorted10" selects 10% of the rows in
// ascending order, "sorted50" half of them, "random10" 10% in random
// order. The float Sum over a selection is the strict fold in selection
// order, latency-bound like the loop, hence parity.
//
//	H40: Sum float64 n=1 nulls=0%: avx512 >= 0.5x loop            fixed cost of a call on one element
//	H41: Sum float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H42: Sum float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H43: Sum float64 n=32 nulls=0%: avx512 >= 1.0x loop            one AVX-512 block
//	H44: Sum int64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H45: Sum int64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H46: Sum int64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H47: Sum int64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H48: Min float64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H49: Min float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H50: Min float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H51: Min float64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H52: Summary float64 n=1 nulls=0%: avx512 >= 0.5x loop
//	H53: Summary float64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H54: Summary float64 n=16 nulls=0%: avx512 >= 0.8x loop
//	H55: Summary float64 n=32 nulls=0%: avx512 >= 1.0x loop
//	H56: Sum float64 n=8 nulls=10%: avx512 >= 0.8x loop           the masked short form
//	H57: Sum int64 n=64 nulls=10%: avx512 >= 1.0x loop
//	H58: SumChecked int64 n=8 nulls=0%: avx512 >= 0.8x loop
//	H59: CountValid uint8 n=16 nulls=10%: avx512 >= 0.8x loop
//
//	H60: Sum int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop     gathers instead of a scalar loop
//	H61: Min float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.5x loop
//	H62: Sum float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop   strict fold: parity
//	H63: Min int64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
//	H64: Summary float64 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
//	H65: Sum int64 n=65536 nulls=0% sel=sorted50: avx512 >= 1.0x loop
//	H66: Sum int64 n=65536 nulls=0% sel=random10: avx512 >= 1.0x loop
//	H67: Sum int64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop    selection and validity
//	H68: Min float64 n=65536 nulls=10% sel=sorted10: avx512 >= 1.0x loop
//	H69: Sum uint8 n=65536 nulls=0% sel=sorted10: avx512 >= 1.0x loop
