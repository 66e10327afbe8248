package bench

// The generic backend's masked Min, Max, MinMax and Summarize: what a
// CPU without the SIMD kernels runs (386, arm, riscv64, s390x, ppc64le,
// loong64, wasm), and measured here on amd64 with
// quiver.SetBackend. Its loop tested each element's bit with a branch
// and folded both extremes into four min/max pairs held in arrays, in
// memory: 0.38-0.9x the plain masked loop's speed in the generated run of
// 94810de on an AMD EPYC (family 26 model 2, Zen 5 class), for example
// 8.58 against 3.29 us for a float64 Max of 4096 with 10% nulls. The
// change: one validity word per 64 elements; in it each null element is
// replaced, by a conditional move, with the first valid element, a value
// already folded that no strict comparison (float) or builtin min and max
// (integer) lets change an extreme; the extremes the call wants only, in
// two chains each; 8- and 16-bit elements compared in int32. A
// development probe (not kept) of the float64 Min of 4096 with 10% nulls
// in eight rotating inputs: 2.2 us against the loop's 3.4 and the
// current code's 7.7. Registered before the change was measured with the
// bench harness, on that CPU; "generic >= Rx loop" is the loop's time
// over the generic backend's in the same run:
//
//	H437: Min float64 n=4096 nulls=10%: generic >= 1.2x loop
//	H438: Max float64 n=4096 nulls=10%: generic >= 1.2x loop
//	H439: Min float32 n=65536 nulls=10%: generic >= 1.2x loop
//	H440: Max float32 n=4096 nulls=50%: generic >= 1.2x loop
//	H441: Min int64 n=65536 nulls=10%: generic >= 1.2x loop
//	H442: Min uint8 n=4096 nulls=10%: generic >= 1.2x loop
//	H443: Max uint8 n=1048576 nulls=50%: generic >= 1.2x loop
//	H444: MinMax float64 n=1048576 nulls=10%: generic >= 1.0x loop
//	H445: MinMax float32 n=1048576 nulls=10%: generic >= 1.0x loop
//	H446: Summary float64 n=65536 nulls=10%: generic >= 1.0x loop
//	H447: Summary uint8 n=65536 nulls=10%: generic >= 1.0x loop
//
// Measured by hand, the bench binaries of the commit before and of the
// change run alternately (bench/README.md's A/B method):
//
//	H448 (measured by hand): generic masked Min, Max, MinMax and Summary, every type of the matrix, n=4096/65536/1048576, nulls 10% and 50%: generic >= 1.0x loop in every cell
//	H449 (measured by hand): generic Min float64 n=4096 nulls=10%: time <= 0.5x the commit before's
//	H450 (measured by hand): generic dense Min, Max, MinMax and Summary, and the avx512 and avx2 masked ones (code they do not run): time within 0.95-1.05x the commit before's

// The generic backend's masked float Sum. It is the strict fold, whose
// adds form one chain, and its loop branched on each element's bit. The
// change: a null adds +0.0 (its bits ANDed with a mask of its validity
// bit; a fold from +0.0 never holds -0.0, so adding +0.0 changes no
// result), one validity word per 64 elements, no branch on the bitmap.
// A development run on the AMD EPYC above: 49.8 against the plain loop's
// 96-103 us for float64 at n=65536 with 10% nulls, 46 against 300 with
// 50%; but 3.0 against 2.4 us at n=4096 with 10%, where the adds of the
// nulls cost more than the branches this core's predictor learns over
// the harness's 8 rotating bitmaps. In the same run the masks of
// kernel.pick4 (what architectures without a conditional move need)
// took 1.17-1.34 times as long as conditional moves for a masked Min or
// MinMax on amd64, so the extremes pick by architecture. Registered
// before the bench harness measured the change against the commit
// before:
//
//	H451: Sum float64 n=65536 nulls=10%: generic >= 1.5x loop
//	H452: Sum float32 n=4096 nulls=50%: generic >= 1.5x loop
//	H453: Sum float64 n=1048576 nulls=50%: generic >= 3.0x loop
//	H454 (measured by hand): generic masked Sum float64 and float32, n=4096/65536/1048576, nulls 10% and 50%: time <= 0.6x the commit before's, except n=4096 with 10% nulls: <= 1.3x
//	H455 (measured by hand): generic masked Min, Max, MinMax and Summary after the split of pick4 (conditional moves on amd64, as before): time within 0.95-1.05x the commit before's

// The generic backend's masked exact sum of 64-bit integers
// (SumChecked, SumCheckedUint). Its loop, checkedWord per 64 elements,
// split each element at bit 32 under a mask of its bit, one element at a
// time, and added each word's sum into 128 bits: 0.91x the user's
// math/bits loop at n=4096 with 10% nulls in the generated run of
// 94810de. The change: four elements an iteration, whose masks come from
// one shift of the word, the low halves as uint32 conversions, and the
// halves summed across words, into 128 bits once per chunk. A
// development probe on the AMD EPYC above: 2.2 against 3.4 us at n=4096
// with 10% nulls (the dense sum takes 1.9). Ratios as above, from
// BenchmarkGenericChecked (one input, not rotated) and the A/B of the
// two commits' bench binaries:
//
//	H456 (measured by hand): SumChecked int64 nulls=10% n=4096/65536 on generic: time <= 0.8x the commit before's
//	H457 (measured by hand): SumChecked int64 nulls=10% n=4096/65536 on generic: >= 1.2x loop
//	H458 (measured by hand): SumChecked int64 nulls=10% n=64/128 and nulls=0% n=64/128/4096/65536 on generic: time within 0.95-1.05x the commit before's
