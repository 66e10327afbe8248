package bench

// Pre-registered hypotheses for the cost of a short call in the kernel
// layer (issue 18's "speed neutral or better"), measured as executed
// instructions per call by bench/callcount.sh (cachegrind, avx2 backend),
// this tree against 2242625, the last commit before the kernel layer.
// Registered on 2026-12-01 after the float64 Sum at n=16 and 64 had been
// counted (233 and 264 there, 284 and 308 at 645719a) and before any
// other op or size of the final tree.
//
//	H168 (measured by hand): callcount every op, n=16..256: this tree <= 1.0x the instructions of 2242625
//	H169 (measured by hand): callcount Sum64 and Sum32, n=32..256: this tree <= 0.95x the instructions of 2242625
