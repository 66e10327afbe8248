// Command summary generates quiver's amd64 summary kernels (min, max and
// valid count of one column) for AVX2 and AVX-512, one dense and one
// validity-masked kernel per element type and set of extremes, from a
// single description parameterized by element type, instruction set and
// which extremes to compute.
//
// What the kernels compute and what they leave to Go (see summary_amd64.go):
//
//   - The vector accumulators start at the order's extremes: +Inf/-Inf for
//     floats (an identity start of ±MaxFloat would turn a lone +Inf into
//     MaxFloat), the type's limits for integers. Go maps "nothing valid" to
//     the identities afterwards, using the count.
//   - Float min/max are VMINP*/VMAXP*, which return their SECOND source
//     operand when either is NaN or both are zero. Every min/max here is
//     written so the accumulator is that second source: a NaN lane never
//     enters an accumulator (so lo and hi are always the min and max of the
//     non-NaN valid values, whatever the NaN check finds), and between
//     zeros the accumulator keeps what it had. Which zero survives is still
//     decided by lane position, not index order, so ±0 ties are settled in
//     Go by a rescan for the first participating zero; NaNs are detected
//     apart from the min/max by a check that accumulates across the loop
//     (AVX-512: an ordered compare into a k-register write-masked by
//     itself; AVX2 masked (seeded): an unordered compare ORed into a
//     vector, or on CPUs with FMA3 a second set, ...AVX2FMA, with the FMA
//     sentinel described next, whose alarms Go settles with the compares'
//     kernel; AVX2 dense: sentinel sums, a + b of each vector pair added into a chain
//     per pair, NaN at the end if a NaN went in, and also on the rare
//     false alarm where +Inf met -Inf, which Go settles with an exact
//     scan; a second set of dense kernels, named ...AVX2FMA, for CPUs with
//     FMA3, accumulates the products a*b instead, one FMA per pair, whose
//     wider false alarms Go settles with the first set's kernel before
//     the exact scan). One compare, sum or product covers a pair of
//     vectors. Both rescues
//     make the lane blocking bit-identical to the scalar fold of the
//     reference.
//   - Invalid lanes never take part: AVX-512 loads with zeroing and merges
//     the min/max under a k-mask loaded straight from the bitmap; AVX2
//     expands bitmap bits into lane masks and blends into the invalid
//     lanes a valid element that Go passes in, which no extreme moves
//     past (seeded: every float kernel and the integer kernels of both
//     extremes), or the order's extreme (the integer kernels of one).
//   - The masked kernels need a byte-aligned bitmap (Go runs the at most 7
//     head elements of an unaligned offset). AVX2 kernels take whole steps
//     only (Go finishes the tail); AVX-512 kernels finish the tail with a
//     masked load whose bits Go passes in, so no kernel reads a byte past
//     its slices. Dense AVX-512 kernels also peel a masked head up to the
//     first 64-byte boundary of x; dense AVX2 kernels run one unaligned
//     step at each end and their loops from the first 32-byte boundary
//     (alignOverlap), so that no load of theirs straddles a cache line.
//
// A third parameter says which extremes a kernel computes: both (the fused
// summary kernels, behind MinMax and Summarize) or only the min or only the
// max (float32 and float64 only, behind Min and Max; integer Min and Max run
// the fused kernel). A single-extreme kernel is the same loop, masking, NaN
// check and tail without the other accumulators; it returns the extreme it
// does not compute as its start (±Inf), so it shares the fused signature.
// Measured (dense float64 AVX-512, n=4096, interleaved with the fused-only
// build, medians of 10): Min 198 -> 156 ns, Max 203 -> 159 ns; AVX2 Min
// 428 -> 334 ns; with 50% nulls the AVX-512 masked kernels gain little
// (Min 298 -> 280 ns, within noise). See docs/amd64.md. Dense AVX2
// single-extreme kernels with 8 vectors per iteration instead of 4 (the
// registers are free) measured no faster on an AMD core with AVX-512
// (float64 Min 318 against 312 ns), when their NaN check was an unordered
// compare per vector pair. With the sentinel sums they take 8, which hide
// the 4-cycle VMINP* latency of Intel cores. (This paragraph's llvm-mca
// figures put the sums on other pipes than VMINP* on Zen 3; measured on
// a Zen 3 EPYC they share FP2/FP3, and the FMA variant takes them off:
// see nanCheck.) llvm-mca, cycles per vector of the dense float64 loops (znver3 /
// icelake-server): Min 0.77/1.02 with compares and 4 vectors, 0.59/1.01
// with sentinel sums and 8 (vek's bare VMINPD loop: 0.51/1.01); fused
// MinMax 1.27/1.27 with compares, 1.01/1.52 with sums (vek's two passes:
// 1.01/2.01). Measured, avx2 backend on an Intel Ice Lake-SP (AVX-512
// machine), n=4096, fastest of 150 interleaved samples: Min float64
// 364 -> 327 ns (vek 291-299), float32 181 -> 177 ns (vek 145-149);
// MinMax float64 415 -> 489 ns (vek 590-595), float32 227 -> 263 ns
// (vek 287-296): on Intel the fused kernel pays for the sums, and stays
// ahead of the two passes it replaces.
// Against vek's bare YMM VMINPD loop (float64, n=4096, one process): the
// dense AVX-512 min-only loop here runs 158 ns with or without its NaN
// compares, vek's shape 151 ns; YMM loops with the NaN check (compares into
// 4-7 k-register chains, on the data or on the accumulators) 156-157 ns, not
// kept; adds instead of compares and VRANGEPD (which drops quiet NaNs) do
// not work or are slower. The numbers are in docs/amd64.md.

package main

import (
	"fmt"
	"math"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

// elem is the element type description shared by the generators.
type elem = kit.Elem

var elems = kit.Elems

// isa describes an instruction set: AVX2 on 32-byte YMM vectors, AVX-512
// on 64-byte ZMM vectors with k-mask registers.
type isa struct {
	name   string
	vbytes int
	avx512 bool
}

var isas = []isa{{"AVX2", 32, false}, {"AVX512", 64, true}}

// unroll is the number of vectors per main-loop iteration on AVX2, each
// with its own min and max accumulator (independent dependency chains).
// Measured at n=4096 on an AVX-512 machine running the AVX2 kernels: 4
// against 2 is even for float64 and 1.4x faster for int8 dense; 8 does
// not fit in 16 registers with the temporaries.
const unroll = 4

// unrollSingle is unroll for the AVX2 single-extreme kernels (Min and
// Max) on dense input, which have registers for twice as many
// accumulators.
const unrollSingle = 8

// unroll512 is unroll for AVX-512, which has 32 vector registers. With 4
// vectors per iteration the float kernels were bound by the latency of the
// two ordered-compare chains (a compare into a k-register merged with its
// own previous value); 8 vectors, with one chain per vector pair, took the
// dense float64 kernel at n=4096 from about 240 ns to about 160 ns.
const unroll512 = 8

// extremes selects which of the two extremes a kernel computes. Min and
// Max need only one: dropping the other halves the min/max work per vector.
type extremes int

const (
	both    extremes = iota // the fused summary kernel: min and max
	minOnly                 // min only
	maxOnly                 // max only
)

// name is the kernel name infix: summaryDense..., summaryMinDense...
func (x extremes) name() string {
	return [...]string{"", "Min", "Max"}[x]
}

func main() {
	ConstraintExpr("amd64,!purego")
	for _, is := range isas {
		for _, e := range elems {
			// Min and Max of floats, and of integers on AVX2, run kernels
			// of their own, which compute one extreme. A float extreme
			// costs more than one instruction a vector (the NaN and zero
			// rules), and so does a 64-bit integer's on AVX2 (a compare
			// and a blend: AVX2 has no 64-bit min). On an AMD EPYC Zen 5,
			// n=4096, against the fused kernel: AVX2 Min int64 0.50x,
			// int32 0.74x, int16 0.52x, int8 0.73x (16 KB each); AVX-512
			// Min int32 0.97x and int8 0.87x, where one instruction a
			// vector and 32 registers leave the fused loop bound by its
			// loads, so AVX-512 integers keep the fused kernel alone
			// (H278-H290 in bench/minmax_test.go).
			exts := []extremes{both}
			if e.Float || !is.avx512 {
				exts = append(exts, minOnly, maxOnly)
			}
			for _, x := range exts {
				newGen(e, is, x, false).kernel()
				newGen(e, is, x, true).kernel()
				if e.Float && !is.avx512 {
					// The dense and the seeded AVX2 float kernels
					// again, with their NaN check as one FMA per pair
					// (see nanCheck and sentinel).
					g := newGen(e, is, x, false)
					g.fma = true
					g.kernel()
					g = newGen(e, is, x, true)
					g.fma = true
					g.kernel()
				}
			}
		}
	}
	kit.GenerateFiles("internal/asm/amd64/summary")
}

// gen generates one kernel.
type gen struct {
	e      elem
	is     isa
	ext    extremes
	masked bool
	// fma: the NaN check of an AVX2 dense or seeded float kernel is a
	// sentinel, one FMA per vector pair, s = a*b + s, instead of two
	// additions (dense) or an unordered compare and an OR (seeded); the
	// kernel's name ends in FMA, and Go calls it when the CPU has FMA3.
	fma bool
	w   int // lanes per vector
	u   int // vectors per main-loop iteration

	// flip: AVX2 has no unsigned 64-bit compare, so uint64 runs in the
	// signed order after XOR with the sign bit (on the way in and out).
	flip bool

	xp, n, bp, cnt reg.GPVirtual
	lo, hi         []reg.VecVirtual    // nil for the extreme not computed
	nanv           reg.VecVirtual      // AVX2 masked: unordered-compare accumulator
	sent           []reg.VecVirtual    // AVX2 dense: NaN sentinel sums, one chain per vector pair
	kord           []reg.OpmaskVirtual // AVX-512: lanes still all-ordered, one chain per vector pair
	signv          reg.VecVirtual
	neutral        reg.VecVirtual // AVX2 masked integer kernels of one extreme: its start in every lane, for the blends
	seedv          reg.VecVirtual // AVX2 seeded: the seed in every lane
	zero           reg.VecVirtual
	// counts: the shift counts of kit.MSBLanes for vectors 0..u-1, held
	// in registers by the kernels that have them to spare (countsInRegs;
	// see msbCounts).
	counts []reg.VecVirtual
}

func newGen(e elem, is isa, ext extremes, masked bool) *gen {
	u := unroll
	switch {
	case is.avx512:
		u = unroll512
	case ext != both && !masked:
		u = unrollSingle
	}
	return &gen{e: e, is: is, ext: ext, masked: masked, w: is.vbytes / e.Size, u: u,
		flip: !is.avx512 && e.Size == 8 && !e.Float && !e.Signed}
}

// seeded says whether the kernel is an AVX2 masked kernel of both
// extremes, or a float one of one extreme, which Go calls with a seed, a
// valid element of x: every lane's min and max start at the seed, and
// each vector's invalid lanes are blended to it, once. A valid element lies between the min and the
// max of the valid elements, so it moves neither, and one copy serves
// both extremes where two blends (to the highest and lowest value of the
// order) did; 64-bit integer vectors then take the dense kernel's pair
// sort (paired). The float kernels' NaN check reads the same copy: its
// invalid lanes hold a value that takes part, so the check sees NaN only
// where a participating element is NaN (a NaN seed is one, and then the
// result is NaN whatever the lanes hold). Before the seed they blended
// NaN, which min and max skip, and checked a second, masked load of the
// vector. Its name says Seeded where the others say Masked. H348-H351
// and H358-H360 in bench/maskedsummary_avx2_test.go. The float kernels of
// one extreme blended ±Inf, as the integer ones still blend the type's
// limit; seeded, their invalid lanes hold no infinity for the FMA
// sentinel to multiply by a valid zero (H365-H368).
func (g *gen) seeded() bool {
	return g.masked && !g.is.avx512 && (g.ext == both || g.e.Float)
}

// countsInRegs says whether the kernel holds the shift counts that expand
// its bitmap into lane masks in registers rather than reading them from
// memory with each shift: the seeded float kernels of one extreme, which
// have the four registers to spare (the fused ones do not). On an AMD EPYC
// family 26 model 2 (Zen 5 class) their loop is bound both by the pipes
// of VMINP*, VCMPP* and the shifts and by its loads; the FMA sentinel
// relieves the first and the counts in registers the second, and neither
// gained alone (H365-H367 in bench/maskedsummary_avx2_test.go).
func (g *gen) countsInRegs() bool {
	return g.seeded() && g.e.Float && g.ext != both
}

// msbCounts is the shift-count operand of vector j's lane masks: the
// register that holds it (countsInRegs), or the constant in memory.
func (g *gen) msbCounts(j int) Op {
	if g.counts != nil {
		return g.counts[j]
	}
	return kit.MSBCountsAligned(g.e.Size, j)
}

func (g *gen) wantMin() bool { return g.ext != maxOnly }
func (g *gen) wantMax() bool { return g.ext != minOnly }

func (g *gen) fname() string {
	kind := "Dense"
	switch {
	case g.seeded():
		kind = "Seeded"
	case g.masked:
		kind = "Masked"
	}
	name := fmt.Sprintf("summary%s%s%s%s", g.ext.name(), kind, g.e.Name, g.is.name)
	if g.fma {
		name += "FMA"
	}
	return name
}

func (g *gen) vec() reg.VecVirtual {
	if g.is.avx512 {
		return ZMM()
	}
	return YMM()
}

// ---- constants ----

var consts = map[string]Mem{}

// splat returns a 64-byte read-only constant holding v (an element bit
// pattern of size bytes) in every lane; it serves as a full YMM or ZMM
// memory operand and as a VPBROADCASTQ source.
func splat(v uint64, size int) Mem {
	name := fmt.Sprintf("summarysplat%d_%x", size, v)
	if m, ok := consts[name]; ok {
		return m
	}
	m := GLOBL(name, RODATA|NOPTR)
	for off := 0; off < 64; off += size {
		switch size {
		case 1:
			DATA(off, U8(uint8(v)))
		case 2:
			DATA(off, U16(uint16(v)))
		case 4:
			DATA(off, U32(uint32(v)))
		default:
			DATA(off, U64(v))
		}
	}
	consts[name] = m
	return m
}

// extremes returns the bit patterns the min and max accumulators start
// from, which are also what invalid lanes are replaced by: the largest and
// the lowest value of the order the kernel compares in.
func (g *gen) extremes() (top, bottom uint64) {
	bits := uint(8 * g.e.Size)
	mask := uint64(math.MaxUint64) >> (64 - bits)
	switch {
	case g.e.Float && g.e.Size == 4:
		return uint64(math.Float32bits(float32(math.Inf(1)))), uint64(math.Float32bits(float32(math.Inf(-1))))
	case g.e.Float:
		return math.Float64bits(math.Inf(1)), math.Float64bits(math.Inf(-1))
	case g.e.Signed || g.flip:
		return mask >> 1, (mask >> 1) ^ mask
	default:
		return mask, 0
	}
}

// ownStart is the start of the one extreme a min-only (the order's top)
// or max-only kernel (its bottom) computes.
func (g *gen) ownStart() uint64 {
	top, bottom := g.extremes()
	if g.wantMin() {
		return top
	}
	return bottom
}

// start sets acc to the first value of a min (v the order's top) or max
// (its bottom) accumulator: v in every lane, or the seed when seeded.
func (g *gen) start(v uint64, acc reg.VecVirtual) {
	if g.seeded() {
		VMOVDQA(g.seedv, acc)
		return
	}
	VPBROADCASTQ(splat(v, g.e.Size), acc)
}

// broadcastSeed puts the seed argument in every lane of seedv, straight
// from its stack slot, in the order the kernel compares in (uint64 flips
// its sign bit, as every element's).
func (g *gen) broadcastSeed() {
	b, err := Param("seed").Resolve()
	if err != nil {
		panic(err)
	}
	switch g.e.Size {
	case 1:
		VPBROADCASTB(b.Addr, g.seedv)
	case 2:
		VPBROADCASTW(b.Addr, g.seedv)
	case 4:
		// From a register: go vet's asmdecl reads the D of VPBROADCASTD
		// as the wrong width for a 4-byte argument.
		r := GP32()
		MOVL(b.Addr, r)
		VMOVD(r, g.seedv.AsX())
		VPBROADCASTD(g.seedv.AsX(), g.seedv)
	default:
		VPBROADCASTQ(b.Addr, g.seedv)
	}
	if g.flip {
		VPXOR(g.signv, g.seedv, g.seedv)
	}
}

// ---- per-type instruction selection ----

func (g *gen) load(m Mem, dst reg.VecVirtual) {
	switch {
	case g.e.Float && g.e.Size == 8:
		VMOVUPD(m, dst)
	case g.e.Float:
		VMOVUPS(m, dst)
	case g.is.avx512:
		VMOVDQU64(m, dst)
	default:
		VMOVDQU(m, dst)
	}
}

// loadZ loads the lanes in k and zeroes the others; masked-off lanes are
// not read at all (AVX-512 fault suppression), which is what makes the
// tail safe.
func (g *gen) loadZ(m Mem, k reg.OpmaskVirtual, dst reg.VecVirtual) {
	switch {
	case g.e.Float && g.e.Size == 8:
		VMOVUPD_Z(m, k, dst)
	case g.e.Float:
		VMOVUPS_Z(m, k, dst)
	case g.e.Size == 1:
		VMOVDQU8_Z(m, k, dst)
	case g.e.Size == 2:
		VMOVDQU16_Z(m, k, dst)
	case g.e.Size == 4:
		VMOVDQU32_Z(m, k, dst)
	default:
		VMOVDQU64_Z(m, k, dst)
	}
}

// minmaxOp returns the native vector min or max for the element type, or
// nil where AVX2 has none (64-bit integers).
func (g *gen) minmaxOp(isMin bool) func(...Op) {
	type key struct {
		size          int
		float, signed bool
	}
	mins := map[key]func(...Op){
		{4, true, true}: VMINPS, {8, true, true}: VMINPD,
		{1, false, true}: VPMINSB, {2, false, true}: VPMINSW, {4, false, true}: VPMINSD, {8, false, true}: VPMINSQ,
		{1, false, false}: VPMINUB, {2, false, false}: VPMINUW, {4, false, false}: VPMINUD, {8, false, false}: VPMINUQ,
	}
	maxs := map[key]func(...Op){
		{4, true, true}: VMAXPS, {8, true, true}: VMAXPD,
		{1, false, true}: VPMAXSB, {2, false, true}: VPMAXSW, {4, false, true}: VPMAXSD, {8, false, true}: VPMAXSQ,
		{1, false, false}: VPMAXUB, {2, false, false}: VPMAXUW, {4, false, false}: VPMAXUD, {8, false, false}: VPMAXUQ,
	}
	if !g.is.avx512 && g.e.Size == 8 && !g.e.Float {
		return nil
	}
	k := key{g.e.Size, g.e.Float, g.e.Signed}
	if isMin {
		return mins[k]
	}
	return maxs[k]
}

// step folds x into acc: acc = min(x, acc) or max(x, acc), lane by lane,
// only in the lanes of k when k is not nil (merge masking: the other lanes
// keep acc). For floats x is the FIRST source and acc the SECOND, so a NaN
// in x or a ±0 tie leaves acc unchanged (VMINP*/VMAXP* return the second
// source in both cases).
func (g *gen) step(isMin bool, x, acc reg.VecVirtual, k reg.OpmaskVirtual) {
	if op := g.minmaxOp(isMin); op != nil {
		if k != nil {
			op(acc, x, k, acc)
		} else {
			op(acc, x, acc)
		}
		return
	}
	// AVX2 64-bit integers: compare, then blend x into the lanes where it
	// wins. VPCMPGTQ a, b, t sets t = b > a.
	t := g.vec()
	if isMin {
		VPCMPGTQ(x, acc, t) // acc > x
	} else {
		VPCMPGTQ(acc, x, t) // x > acc
	}
	VBLENDVPD(t, x, acc, acc)
}

// steps folds x into accumulator j of each extreme the kernel computes.
func (g *gen) steps(x reg.VecVirtual, j int, k reg.OpmaskVirtual) {
	if g.wantMin() {
		g.step(true, x, g.lo[j], k)
	}
	if g.wantMax() {
		g.step(false, x, g.hi[j], k)
	}
}

// paired says whether the kernel sorts its vectors in pairs before they
// meet the accumulators: the fused dense or seeded AVX2 kernel of a 64-bit
// integer, whose every min or max step is a compare and a blend. A pair sorted by
// one compare and two blends into its smaller and its larger lanes takes
// one step each: 7 instructions for two vectors instead of 8, and on an
// AMD EPYC Zen 5 0.82x the unpaired kernel's time at n=4096 and 65536
// (H282 in bench/minmax_test.go; eight vectors an iteration in place of
// four were level, 0.81-0.82x, and are not used). Every block of it has
// an even number of vectors (unroll, and the two-vector step that sv
// gives 4-lane vectors).
func (g *gen) paired() bool {
	return !g.is.avx512 && !g.e.Float && g.e.Size == 8 && g.ext == both && (!g.masked || g.seeded())
}

// pairSteps folds a and b into accumulator pair i: their lane-wise
// smaller into lo[i], their larger into hi[i]. Integers, so which of two
// equal lanes goes where does not matter.
func (g *gen) pairSteps(a, b reg.VecVirtual, i int) {
	gt, small, big := g.vec(), g.vec(), g.vec()
	VPCMPGTQ(b, a, gt) // a > b
	VBLENDVPD(gt, b, a, small)
	VBLENDVPD(gt, a, b, big)
	g.step(true, small, g.lo[i], nil)
	g.step(false, big, g.hi[i], nil)
}

// stepX is step on 128-bit registers for the horizontal reduction.
func (g *gen) stepX(isMin bool, x, acc reg.Register) {
	if op := g.minmaxOp(isMin); op != nil {
		op(acc, x, acc)
		return
	}
	t := XMM()
	if isMin {
		VPCMPGTQ(x, acc, t)
	} else {
		VPCMPGTQ(acc, x, t)
	}
	VBLENDVPD(t, x, acc, acc)
}

// ---- the kernel ----

func (g *gen) kernel() {
	sig := fmt.Sprintf("func(x []%s) (lo, hi %s, nan bool)", g.e.GoType, g.e.GoType)
	switch {
	case g.seeded():
		sig = fmt.Sprintf("func(x []%s, bits []byte, head uint64, tail uint64, seed %s) (lo, hi %s, valid int, nan bool)", g.e.GoType, g.e.GoType, g.e.GoType)
	case g.masked:
		sig = fmt.Sprintf("func(x []%s, bits []byte, head uint64, tail uint64) (lo, hi %s, valid int, nan bool)", g.e.GoType, g.e.GoType)
	}
	TEXT(g.fname(), NOSPLIT, sig)
	g.doc()
	Pragma("noescape")

	g.xp = Load(Param("x").Base(), GP64()).(reg.GPVirtual)
	g.n = Load(Param("x").Len(), GP64()).(reg.GPVirtual)
	if g.masked {
		g.bp = Load(Param("bits").Base(), GP64()).(reg.GPVirtual)
		g.cnt = GP64()
		XORQ(g.cnt, g.cnt)
	}

	top, bottom := g.extremes()
	if g.flip {
		g.signv = g.vec()
		VPBROADCASTQ(splat(1<<63, 8), g.signv)
	}
	if g.seeded() {
		g.seedv = g.vec()
		g.broadcastSeed()
	}
	g.lo, g.hi = nil, nil
	nacc := g.u
	if g.paired() {
		nacc = g.u / 2
	}
	for range nacc {
		if g.wantMin() {
			g.lo = append(g.lo, g.vec())
			g.start(top, g.lo[len(g.lo)-1])
		}
		if g.wantMax() {
			g.hi = append(g.hi, g.vec())
			g.start(bottom, g.hi[len(g.hi)-1])
		}
	}
	if g.e.Float {
		if g.is.avx512 {
			g.kord = make([]reg.OpmaskVirtual, max(g.u/2, 1))
			for i := range g.kord {
				g.kord[i] = K()
				KXNORQ(g.kord[i], g.kord[i], g.kord[i])
			}
		} else if g.sentinel() {
			g.sent = make([]reg.VecVirtual, max(g.u/2, 1))
			for i := range g.sent {
				g.sent[i] = g.vec()
				VPXOR(g.sent[i], g.sent[i], g.sent[i])
			}
		} else {
			g.nanv = g.vec()
			VPXOR(g.nanv, g.nanv, g.nanv)
		}
	}
	if g.masked && !g.is.avx512 {
		switch {
		case g.e.Size < 4:
			// The bits become lane masks by a compare against zero.
			g.zero = g.vec()
			VPXOR(g.zero, g.zero, g.zero)
		case !g.seeded():
			// One extreme: the blends take its start, from a register.
			g.neutral = g.vec()
			VPBROADCASTQ(splat(g.ownStart(), g.e.Size), g.neutral)
		}
	}
	g.counts = nil
	if g.countsInRegs() {
		for j := range g.u {
			c := g.vec()
			VMOVDQU(kit.MSBCountsAligned(g.e.Size, j), c)
			g.counts = append(g.counts, c)
		}
	}

	// One step at a time: one vector, or for AVX2 with fewer than 8 lanes
	// (float64, uint64, int64) the two vectors that one bitmap byte covers.
	sv := 1
	if !g.is.avx512 && g.w < 8 {
		sv = 8 / g.w
	}
	overlap := !g.is.avx512 && !g.masked
	switch {
	case g.is.avx512 && !g.masked:
		g.alignHead()
	case g.is.avx512:
		g.headMasked512()
	case overlap:
		g.alignOverlap(sv)
	default:
		g.headMasked(sv)
	}

	// Main loop: u vectors per iteration.
	kit.Loop(g.fname()+"_main", g.n, g.u*g.w, func() { g.block(g.u) })
	if g.is.avx512 {
		g.singles512()
	} else {
		kit.Loop(g.fname()+"_single", g.n, sv*g.w, func() { g.block(sv) })
	}

	switch {
	case g.is.avx512:
		g.tail512()
	case overlap:
		g.tailOverlap(sv)
	default:
		g.tailMasked(sv)
	}
	Label(g.fname() + "_done")
	g.finish()
}

func (g *gen) doc() {
	what := "all of x (dense)"
	if g.masked {
		what = "the elements of x whose bit is set in bits, which starts at bit 0 of bits[0]"
	}
	lowest, highest := "the lowest value", "the highest value"
	if g.e.Float {
		lowest, highest = "-Inf", "+Inf"
	}
	which := map[extremes]string{both: "the min and max", minOnly: "the min (hi is returned as " + lowest + ")", maxOnly: "the max (lo is returned as " + highest + ")"}[g.ext]
	lines := []string{
		fmt.Sprintf("%s returns %s over %s,", g.fname(), which, what),
		"starting from the order's extremes, and whether a participating element",
		"is NaN (floats only; lo and hi then mean nothing).",
	}
	if g.seeded() {
		lines = []string{
			fmt.Sprintf("%s returns %s over %s,", g.fname(), which, what),
			"and their count, starting from seed, which must be one of them, and",
			"whether one is NaN (floats only; lo and hi then mean nothing).",
		}
	}
	switch {
	case !g.is.avx512 && !g.masked:
		lines = append(lines, fmt.Sprintf("len(x) must be 0 or at least %d.", max(g.w, 8)))
	case !g.is.avx512:
		st := max(g.w, 8)
		lines = append(lines, fmt.Sprintf("len(x) must be a multiple of %d, or more than %d: the last r = len(x) mod %d elements", st, st, st),
			fmt.Sprintf("take their validity from tail, bits %d-r to %d (the lower bits 0), not bits.", st, st-1))
	case g.masked:
		lines = append(lines, fmt.Sprintf("The last len(x) mod %d elements take their validity from tail, not bits.", g.w))
	}
	Doc(lines...)
}

// block processes v vectors at xp (and their bits at bp), then advances
// the pointers (the loop counts the elements).
func (g *gen) block(v int) { g.blockAt(v, 0) }

// blockAt is block with vector j folded into accumulator acc0+j
// (singles512 gives each leftover vector one of its own).
func (g *gen) blockAt(v, acc0 int) {
	xs := make([]reg.VecVirtual, v)
	var ks []reg.OpmaskVirtual
	if g.masked && g.is.avx512 {
		ks = make([]reg.OpmaskVirtual, v)
	}
	xmins := make([]reg.VecVirtual, v)
	// AVX2 with 32- and 64-bit lanes: one broadcast of the block's bits,
	// then one shift per vector puts each lane's bit on top for the blends.
	var bcast reg.VecVirtual
	msb := g.masked && !g.is.avx512 && g.e.Size >= 4
	if msb {
		bcast = kit.BroadcastBitsAligned(Mem{Base: g.bp}, v*g.w)
	}
	for j := range v {
		m := Mem{Base: g.xp, Disp: j * g.is.vbytes}
		x := g.vec()
		switch {
		case g.masked && g.is.avx512:
			ks[j] = kit.KLoadAligned(Mem{Base: g.bp, Disp: j * g.w / 8}, g.w)
			g.loadZ(m, ks[j], x)
		default:
			g.load(m, x)
		}
		if g.flip {
			VPXOR(g.signv, x, x)
		}
		xs[j] = x
		var k reg.OpmaskVirtual
		if ks != nil {
			k = ks[j]
		}
		// AVX2 masked: x with its invalid lanes replaced by a value that
		// changes no extreme, the seed (seeded: every float kernel and the
		// integer ones of both extremes) or the one extreme's start (the
		// type's limit: the integer kernels of one), which the extremes
		// and the NaN check read.
		if g.masked && !g.is.avx512 {
			var lanes reg.VecVirtual // valid lanes' MSB set, or invalid lanes all ones
			if msb {
				lanes = kit.MSBLanes(bcast, g.msbCounts(j), g.e.Size)
			} else {
				lanes = kit.InvalidLanesAligned(Mem{Base: g.bp}, g.e.Size, j, g.zero)
			}
			if g.seeded() {
				xs[j] = g.vec()
				if msb {
					blendMSB(g.e.Size, lanes, x, g.seedv, xs[j])
				} else {
					VPBLENDVB(lanes, g.seedv, x, xs[j]) // invalid lanes all ones: the seed
				}
				switch {
				case !g.paired():
					g.steps(xs[j], j, nil)
				case j%2 == 1:
					g.pairSteps(xs[j-1], xs[j], j/2)
				}
				xmins[j] = xs[j]
				g.nanPair(xmins, j, v, acc0)
				continue
			}
			xe := g.vec()
			if msb {
				blendMSB(g.e.Size, lanes, x, g.neutral, xe)
			} else {
				blend(g.e.Size, lanes, splat(g.ownStart(), g.e.Size), x, xe)
			}
			g.steps(xe, j, nil)
			xmins[j] = xe
			g.nanPair(xmins, j, v, acc0)
			continue
		}
		switch {
		case !g.paired():
			g.steps(x, acc0+j, k)
		case j%2 == 1:
			g.pairSteps(xs[j-1], x, j/2)
		}
		xmins[j] = x
		g.nanPair(xmins, j, v, acc0)
	}
	if g.masked {
		kit.PopcountBytes(Mem{Base: g.bp}, v*g.w/8, g.cnt)
		ADDQ(U32(v*g.w/8), g.bp)
	}
	ADDQ(U32(v*g.is.vbytes), g.xp)
}

// nanPair checks vectors j-1 and j for NaN once j closes a pair (or is
// the last of an odd count), as soon as both are loaded so that neither
// stays live longer than needed. One unordered compare covers two
// vectors, since it is true where either operand is NaN. Invalid lanes
// hold +0.0 (AVX-512 zeroing load) or the seed (AVX2 blend), which is NaN
// only where the result is. The check goes to the chain of accumulator
// pair (acc0+j)/2, as blockAt's steps go to accumulator acc0+j.
func (g *gen) nanPair(xs []reg.VecVirtual, j, v, acc0 int) {
	switch {
	case !g.e.Float:
	case j%2 == 1:
		g.nanCheck(xs[j-1], xs[j], (acc0+j)/2)
	case j == v-1:
		g.nanCheck(xs[j], xs[j], (acc0+j)/2)
	}
}

// sentinel says whether the kernel detects NaN with sentinel sums (AVX2
// dense float kernels, and the seeded ones with fma) instead of unordered
// compares. A seeded kernel's invalid lanes hold the seed, a value that
// takes part, so its products alarm only where the dense kernel's would
// over the participating values; without a seed they would hold ±Inf,
// whose product with a valid zero alarms. An alarm of the seeded FMA
// kernel is settled by the seeded kernel without FMA, whose compares are
// exact (summaryAsm.run). On an AMD EPYC family 26 model 2 (Zen 5 class),
// avx2 backend, n=4096 and 65536, float64 MinMax and Summarize with 10%
// and 50% nulls took 0.83-0.87 of the compares' time (H361-H365 in
// bench/maskedsummary_avx2_test.go): VMINP*/VMAXP*, VCMPP* and the
// vector shifts that expand the bitmap share one pair of pipes there,
// and the FMAs and blends another.
func (g *gen) sentinel() bool { return g.e.Float && !g.is.avx512 && (!g.masked || g.fma) }

// nanCheck accumulates "a or b has a NaN lane". The AVX2 dense kernels add
// instead of comparing: sent[chain] += a + b, which is NaN at the end if
// a or b ever had a NaN lane, and also (a false alarm the Go wrapper
// clears with an exact scan) if one lane's sum met +Inf and -Inf. On AMD
// Zen 3 VADDP*, VMINP*/VMAXP* and VCMPP* share the two pipes FP2/FP3 and
// FMAs go to FP0/FP1 (measured on an EPYC, family 25 model 1, 8-vector
// float64 min loops at n=4096, fastest of 100 interleaved samples: bare
// VMINPD 174 ns, with sentinel additions 322, with unordered compares
// 253, with sentinel FMAs by one, a = b*1 + a then s = a*1 + s, 231;
// fused min+max 479 with additions, 403 with compares, 328 with FMAs).
// With fma the sentinel is instead one FMA per pair, s = a*b + s: NaN at
// the end if a or b ever had a NaN lane, one instruction instead of two,
// on the FMA pipes. A finite product that overflows cannot alarm (the FMA
// adds it exactly, so an infinite s stays what it is); an infinite input
// can, where it meets a zero or an infinite product of the other sign in
// one lane, which the sums would not always do, so the Go wrapper settles
// an alarm with the additions' kernel first and the exact scan only if
// that alarms too. Measured on an
// AMD EPYC Zen 4 (family 25 model 17), 8-vector float64 min loops,
// n=4096, fastest of 200 interleaved samples: bare VMINPD 153 ns, FMAs
// by one 189, one FMA per pair 156 (docs/amd64.md). On Intel cores all of
// them share ports 0 and 1, so one FMA per pair is a quarter fewer
// instructions there too.
func (g *gen) nanCheck(a, b reg.VecVirtual, chain int) {
	if g.sentinel() && g.fma {
		// s = a*b + s; a and b are dead after this.
		s := g.sent[chain]
		if g.e.Size == 8 {
			VFMADD231PD(b, a, s)
		} else {
			VFMADD231PS(b, a, s)
		}
		return
	}
	if g.sentinel() {
		t := g.vec()
		s := g.sent[chain]
		if g.e.Size == 8 {
			VADDPD(b, a, t)
			VADDPD(t, s, s)
		} else {
			VADDPS(b, a, t)
			VADDPS(t, s, s)
		}
		return
	}
	if g.is.avx512 {
		// kord &= ordered(a, b): predicate 7 is ORD_Q; the write mask is
		// kord itself, so once a lane saw a NaN it stays clear.
		k := g.kord[chain]
		if g.e.Size == 8 {
			VCMPPD(U8(7), b, a, k, k)
		} else {
			VCMPPS(U8(7), b, a, k, k)
		}
		return
	}
	t := g.vec()
	if g.e.Size == 8 {
		VCMPPD(U8(3), b, a, t) // UNORD_Q
		VORPD(t, g.nanv, g.nanv)
	} else {
		VCMPPS(U8(3), b, a, t)
		VORPS(t, g.nanv, g.nanv)
	}
}

// blendMSB sets dst = x in the lanes whose most significant bit of valid is
// set, and neutral in the others.
func blendMSB(size int, valid, x, neutral, dst reg.VecVirtual) {
	if size == 8 {
		VBLENDVPD(valid, x, neutral, dst)
	} else {
		VBLENDVPS(valid, x, neutral, dst)
	}
}

// blend sets dst = inv ? m : x lane by lane (inv lanes are all ones or all
// zeros, so the byte blend serves every element size).
func blend(size int, inv reg.VecVirtual, m Mem, x, dst reg.VecVirtual) {
	switch size {
	case 8:
		VBLENDVPD(inv, m, x, dst)
	case 4:
		VBLENDVPS(inv, m, x, dst)
	default:
		VPBLENDVB(inv, m, x, dst)
	}
}

// tail512 finishes the last len(x) mod w elements with one masked vector:
// the lanes below the remaining count (dense) or the bits Go passed in
// (masked). Lanes outside the mask are neither read nor compared.
func (g *gen) tail512() {
	TESTQ(g.n, g.n)
	JZ(LabelRef(g.fname() + "_done"))
	r := GP64()
	if g.masked {
		Load(Param("tail"), r)
		t := GP64()
		POPCNTQ(r, t)
		ADDQ(t, g.cnt)
	} else {
		MOVQ(I64(-1), r)
		BZHIQ(g.n, r, r)
	}
	g.maskedVector(r, 0)
}

// maskedVector folds the lanes of the vector at xp that r's bits select
// into accumulator j (and its NaN chain): the AVX-512 kernels' alignment
// peel, head and tail. Lanes outside the mask are neither read nor
// compared.
func (g *gen) maskedVector(r reg.GPVirtual, j int) {
	k := K()
	KMOVQ(r, k)
	x := g.vec()
	g.loadZ(Mem{Base: g.xp}, k, x)
	g.steps(x, j, k)
	if g.e.Float {
		g.nanCheck(x, x, j/2)
	}
}

// skipElems moves xp and n past the h elements a head or an alignment
// peel took.
func (g *gen) skipElems(h reg.GPVirtual) {
	LEAQ(Mem{Base: g.xp, Index: h, Scale: uint8(g.e.Size)}, g.xp)
	SUBQ(h, g.n)
}

// singles512 runs the at most u-1 whole vectors the main loop leaves,
// each into an accumulator of its own (vector i into accumulator i), not
// as a loop into the first: a loop made a chain of up to u-1 dependent
// steps, the tail's after them, at the end of every column that is not a
// multiple of the main loop's step.
func (g *gen) singles512() {
	done := g.fname() + "_singles_done"
	for i := range g.u - 1 {
		CMPQ(g.n, U32(g.w))
		JL(LabelRef(done))
		g.blockAt(1, i)
		SUBQ(U32(g.w), g.n)
	}
	Label(done)
}

// headMasked runs the first h < 8 elements of an AVX2 masked kernel's x,
// those before the bitmap's first whole byte (head as headMasked512's),
// as one step over x[0:step] whose bits are the head's at the bottom and
// zero above, read from the frame as tailMasked's are: the lanes past the
// head are invalid and count for nothing. The loads are not masked, so x
// holds at least h elements and a whole step after them when head is not
// zero (Go sees to it). Before, Go folded the head: a masked float64 Min
// of 64 at offset 3 took 40-45 ns against 33-34 at offset 0 (H432 in
// bench/callcost_test.go).
func (g *gen) headMasked(sv int) {
	skip := g.fname() + "_headless"
	r, h := g.loadHead(skip)
	slot := AllocLocal(8)
	MOVQ(r, slot)
	LEAQ(slot, g.bp)
	g.block(sv) // x[0:step]; xp moves a step on
	LEAQ(Mem{Base: g.xp, Index: h, Scale: uint8(g.e.Size), Disp: -sv * g.is.vbytes}, g.xp)
	SUBQ(h, g.n)
	Load(Param("bits").Base(), g.bp)
	Label(skip)
}

// loadHead reads the head argument: r its validity bits, h its count,
// and a jump to skip when h is 0.
func (g *gen) loadHead(skip string) (r, h reg.GPVirtual) {
	r, h = GP64(), GP64()
	Load(Param("head"), r)
	MOVQ(r, h)
	SHRQ(U8(8), h)
	JZ(LabelRef(skip))
	ANDQ(U32(0xff), r)
	return r, h
}

// headMasked512 runs the first h < 8 elements of x, those before the
// bitmap's first whole byte, as one masked vector: head holds their
// validity in bits 0-7 and h in bits 8-15, and bits starts at the byte
// after them, so the loops take x from x[h:] with whole bytes. Lanes
// outside the mask are neither read nor compared. Before, Go folded those
// elements one at a time: an Arrow slice at offset 3 took a masked
// float64 Min of 64 1.4 times its time at offset 0 (H429 in
// bench/callcost_test.go). The AVX2 kernels run theirs as a step of
// whole vectors (headMasked).
func (g *gen) headMasked512() {
	skip := g.fname() + "_headless"
	r, h := g.loadHead(skip)
	t := GP64()
	POPCNTQ(r, t)
	ADDQ(t, g.cnt)
	// Into the last accumulator: singles512 folds into the others and the
	// tail into the first, so a short column's chains stay short.
	g.maskedVector(r, g.u-1)
	g.skipElems(h)
	Label(skip)
}

// tailMasked runs the last len(x) mod step elements of an AVX2 masked
// kernel (step = sv vectors, at most 32 elements) as one more step over
// the last step's worth of x, overlapping the elements the loops took,
// with its validity bits read from tail instead of the bitmap: the Go
// caller puts the bits of the last elements at the top of the step's
// bits (tail << (step - r) for r elements), so the overlapped lanes are
// invalid and count for nothing. The word goes through the frame, so
// that the step reads its bits from memory as the loops' steps do. x is
// at least one step long when r > 0 (the caller sees to it). Before,
// Go folded those elements one at a time, testing each bit: an AVX2
// float64 Summarize over 1031 elements took 1.11x its time over 1024
// (H408 in bench/oddlen_test.go).
func (g *gen) tailMasked(sv int) {
	TESTQ(g.n, g.n)
	JZ(LabelRef(g.fname() + "_done"))
	slot := AllocLocal(8)
	t := GP64()
	Load(Param("tail"), t)
	MOVQ(t, slot)
	LEAQ(slot, g.bp)
	LEAQ(Mem{Base: g.xp, Index: g.n, Scale: uint8(g.e.Size), Disp: -sv * g.is.vbytes}, g.xp)
	g.block(sv)
}

// alignHead runs the elements before the first 64-byte boundary of x as one
// masked vector, so that the loops' full-vector loads do not straddle
// cache lines. Only dense kernels do this: the masked ones keep their
// blocks on bitmap byte boundaries instead.
func (g *gen) alignHead() {
	h := GP64()
	MOVQ(g.xp, h)
	NEGQ(h)
	ANDQ(U8(63), h)
	JZ(LabelRef(g.fname() + "_aligned"))
	shift := map[int]uint8{1: 0, 2: 1, 4: 2, 8: 3}[g.e.Size]
	if shift > 0 {
		SHRQ(U8(shift), h) // bytes to elements; x is element-aligned
	}
	CMPQ(h, g.n)
	CMOVQGT(g.n, h)
	r := GP64()
	MOVQ(I64(-1), r)
	BZHIQ(h, r, r)
	g.maskedVector(r, 0)
	g.skipElems(h)
	Label(g.fname() + "_aligned")
}

// alignOverlap starts the loops of a dense AVX2 kernel on the first 32-byte
// boundary of x, so that no full-vector load straddles a cache line: when x
// is not on one, a step of sv vectors first runs at x[0] with unaligned
// loads, and the loops take x from the boundary past it (tailOverlap then
// runs the last step). On an AMD EPYC Zen 4, float64 Min over 4096
// elements took 1.5x (x 8 bytes past a boundary) to 1.9x (16 bytes) the
// aligned time without it in a loop-only test; with it, 171-173 ns at
// offsets of 8-24 bytes against 248-250 before, the aligned 169-172
// unchanged (H268-H273 in bench/offsets_test.go). The elements
// between x[0] and the boundary are read twice, which changes neither a
// min, a max nor the NaN check (an alarm only sends Go to its exact scan),
// and only a dense kernel may do so: a count or a sum would see them
// twice. A non-empty x is at least one step long (the caller sees to
// it), so it has a whole step to read at either end.
func (g *gen) alignOverlap(sv int) {
	aligned := g.fname() + "_aligned"
	h := GP64()
	MOVQ(g.xp, h)
	NEGQ(h)
	ANDQ(U8(31), h) // bytes to the next 32-byte boundary
	JZ(LabelRef(aligned))
	CMPQ(g.n, U32(sv*g.w))
	JL(LabelRef(aligned)) // empty: nothing to read
	g.block(sv)           // x[0:sv*w]; xp moves sv vectors on
	LEAQ(Mem{Base: g.xp, Index: h, Scale: 1, Disp: -sv * g.is.vbytes}, g.xp)
	if shift := kit.Log2(g.e.Size); shift > 0 {
		SHRQ(U8(shift), h) // bytes to elements; x is element-aligned
	}
	SUBQ(h, g.n)
	Label(aligned)
}

// tailOverlap runs the elements the loops left (fewer than a step: those
// alignOverlap's start moved past the loops' last step, and those of a
// length that is not a multiple of the step) as the last step of x,
// whose first elements the loops have already taken. So a dense kernel
// takes any length from one step on, and Go folds no tail (denseSpan in
// the kernel package).
func (g *gen) tailOverlap(sv int) {
	TESTQ(g.n, g.n)
	JZ(LabelRef(g.fname() + "_done"))
	LEAQ(Mem{Base: g.xp, Index: g.n, Scale: uint8(g.e.Size), Disp: -sv * g.is.vbytes}, g.xp)
	g.block(sv)
}

// finish combines the accumulators, reduces lanes, stores the results,
// and clears the upper vector state.
func (g *gen) finish() {
	accs := [][]reg.VecVirtual{g.lo, g.hi}
	for i, acc := range accs {
		for s := len(acc) / 2; s >= 1; s /= 2 {
			for j := range s {
				g.step(i == 0, acc[j+s], acc[j], nil)
			}
		}
	}
	var res [2]reg.Register
	for i, acc := range accs {
		if acc != nil {
			res[i] = g.hreduce(i == 0, acc[0])
		}
	}
	top, bottom := g.extremes()
	for i, x := range res {
		if x == nil {
			// Not computed: return the extreme it would start from, in
			// the element's own order.
			v := []uint64{top, bottom}[i]
			if g.flip {
				v ^= 1 << 63
			}
			r := GP64()
			MOVQ(U64(v), r)
			g.storeGP(r, i)
			continue
		}
		g.store(x, i)
	}

	ret := 2
	if g.masked {
		Store(g.cnt, ReturnIndex(2))
		ret = 3
	}
	nan := GP8()
	switch {
	case !g.e.Float:
		MOVB(U8(0), nan)
	case g.is.avx512:
		for _, k := range g.kord[1:] {
			KANDQ(g.kord[0], k, g.kord[0])
		}
		if g.w == 8 {
			KORTESTB(g.kord[0], g.kord[0])
		} else {
			KORTESTW(g.kord[0], g.kord[0])
		}
		SETCC(nan) // carry clear: some lane saw a NaN
	case g.sentinel():
		// Any sentinel lane NaN. VCMPP* unordered is true where either
		// operand is NaN, so one compare covers two chains.
		m := g.vec()
		for i := 0; i < len(g.sent); i += 2 {
			j := min(i+1, len(g.sent)-1)
			t := m
			if i > 0 {
				t = g.vec()
			}
			if g.e.Size == 8 {
				VCMPPD(U8(3), g.sent[j], g.sent[i], t)
			} else {
				VCMPPS(U8(3), g.sent[j], g.sent[i], t)
			}
			if i > 0 {
				VORPD(t, m, m)
			}
		}
		r := GP32()
		if g.e.Size == 8 {
			VMOVMSKPD(m, r)
		} else {
			VMOVMSKPS(m, r)
		}
		TESTL(r, r)
		SETNE(nan)
	default:
		r := GP32()
		if g.e.Size == 8 {
			VMOVMSKPD(g.nanv, r)
		} else {
			VMOVMSKPS(g.nanv, r)
		}
		TESTL(r, r)
		SETNE(nan)
	}
	Store(nan, ReturnIndex(ret))
	kit.Ret()
}

// hreduce folds the lanes of acc into lane 0 of the returned XMM register.
func (g *gen) hreduce(isMin bool, acc reg.VecVirtual) reg.Register {
	var y reg.Register = acc.AsY()
	if g.is.avx512 {
		t := YMM()
		VEXTRACTI64X4(U8(1), acc, t)
		g.stepY(isMin, t, y)
	}
	x := y.(reg.VecVirtual).AsX()
	t := XMM()
	if g.is.avx512 {
		VEXTRACTI32X4(U8(1), y, t)
	} else {
		VEXTRACTI128(U8(1), y, t)
	}
	g.stepX(isMin, t, x)
	for sh := 8; sh >= g.e.Size; sh /= 2 {
		t := XMM()
		VPSRLDQ(U8(sh), x, t)
		g.stepX(isMin, t, x)
	}
	return x
}

func (g *gen) stepY(isMin bool, x, acc reg.Register) {
	g.minmaxOp(isMin)(acc, x, acc)
}

// store writes lane 0 of x to result i, undoing the uint64 sign flip.
func (g *gen) store(x reg.Register, i int) {
	r := GP64()
	VMOVQ(x, r)
	if g.flip {
		BTCQ(U8(63), r)
	}
	g.storeGP(r, i)
}

// storeGP writes the low element of r to result i.
func (g *gen) storeGP(r reg.GPVirtual, i int) {
	b, err := ReturnIndex(i).Resolve()
	if err != nil {
		panic(err)
	}
	switch g.e.Size {
	case 1:
		MOVB(r.As8(), b.Addr)
	case 2:
		MOVW(r.As16(), b.Addr)
	case 4:
		MOVL(r.As32(), b.Addr)
	default:
		MOVQ(r, b.Addr)
	}
}
