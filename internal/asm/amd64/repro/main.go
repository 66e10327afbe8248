// Command repro generates quiver's amd64 kernels for the reproducible
// float sum (ADR-105), for AVX2 and AVX-512, float32 and float64: the
// integer pass for a block's largest and smallest exponent fields, the
// error-free extraction folds in each of their plans, and the compress
// kernels of masked input. Element type and instruction set are
// parameters of one generator, so every kernel of the family has the same
// shape.
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

// elem is one element type of the family.
type elem struct {
	kit.Elem
	absMask uint64 // every bit of one element but the sign
}

var elems = []elem{
	{kit.Elem{Name: "F32", GoType: "float32", Size: 4, Signed: true, Float: true}, 0x7FFFFFFF},
	{kit.Elem{Name: "F64", GoType: "float64", Size: 8, Signed: true, Float: true}, 0x7FFFFFFFFFFFFFFF},
}

// plan is one way to fold a block (ADR-105): how many extraction folds,
// and whether the last one checks for a residual. A block whose values
// all lie on the last fold's grid (its smallest exponent tells) needs no
// check there: that fold is a plain addition, exact, and the folds below
// it are not needed at all.
type plan struct {
	name    string
	folds   int
	checked bool
}

// plans are the ways each fold kernel can fold, selected by its plan
// argument (the index here, reproPlan in the kernel package): three folds
// with the residual check (any block), three folds whose last is a plain
// addition, two folds whose last is a plain addition.
var plans = []plan{{"c3", 3, true}, {"x3", 3, false}, {"x2", 2, false}}

// maxUnroll is how many vectors one iteration of the range pass takes,
// each into its own accumulator.
const maxUnroll = 4

// foldUnroll is how many vectors one iteration of the fold loop takes.
// The folds are bound by the throughput of their nine adds per vector, not
// by the latency of the accumulator chains (one add per vector and fold),
// so two independent vectors are enough; AVX2's 16 registers hold two sets
// of three accumulators, the constants and the temporaries, and AVX-512's
// 32 hold four.
func foldUnroll(s kit.ISA) int {
	if s == kit.AVX512 {
		return 4
	}
	return 2
}

// flushIters is how many fold iterations pass between two flushes, in
// which each fold accumulator's bits are added into a 64-bit integer sum
// and the accumulator starts again from its constant. An iteration gives
// every accumulator lane two values and the drain after the loop up to
// two more, so no accumulator takes more than 14 values between flushes:
// the kernel package's reproFlush, which its grids (reproHead, reproGap)
// are chosen for.
const flushIters = 6

func main() {
	ConstraintExpr("amd64,!purego")
	for _, s := range []kit.ISA{kit.AVX2, kit.AVX512} {
		for _, e := range elems {
			rangeExp(e, s)
			if s == kit.AVX2 {
				fold(e, s, false, false) // for AVX2 CPUs without FMA
			}
			fold(e, s, true, false)
			if s == kit.AVX512 {
				fold(e, s, true, true)
			}
		}
	}
	for _, s := range []kit.ISA{kit.AVX2, kit.AVX512} {
		for _, e := range elems {
			compress(e, s)
		}
	}
	kit.GenerateFiles("internal/asm/amd64/repro")
}

// compressStep is how many elements one iteration of a compress kernel
// takes: 32, the bits of one bitmap read.
const compressStep = 32

// compress generates reproCompress<E><ISA>(dst, x []T, bits []byte, off
// int) int: the elements of x whose validity bit (bit off+i of bits) is
// set, copied in order to the front of dst; it returns how many. len(x)
// is a multiple of 32 and len(dst) at least len(x): each vector's valid
// lanes are packed into a register and the whole register stored at the
// running count, so a store reaches at most as far as the vector's own
// last element.
//
// AVX-512 packs with VCOMPRESSPD/VCOMPRESSPS under the validity bits as an
// opmask (the register form: the memory form is microcoded on Zen 4).
// AVX2 has no compress: VPERMPS moves the valid lanes to the front with a
// permutation read from a table indexed by the vector's validity bits
// (permTable), 16 entries for float64's 4 lanes and 256 for float32's 8.
//
// The copy is what a masked SumReproducible spent most of its time on in
// Go (each store waited for the count of the values before it); the
// reproducible sum is exact, so the values' order and blocks do not
// matter.
func compress(e elem, s kit.ISA) {
	name := fmt.Sprintf("reproCompress%s%s", e.Name, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(dst, x []%s, bits []byte, off int) int", e.GoType))
	Pragma("noescape")
	Doc(fmt.Sprintf("%s copies the elements of x whose bit off+i of bits is set to the front of dst, in order,", name),
		fmt.Sprintf("and returns how many; len(x) must be a multiple of %d and len(dst) at least len(x).", compressStep))
	lanes := s.Lanes(e.Size)
	d := GP64()
	Load(Param("dst").Base(), d)
	x, n := kit.Slice("x")
	b := kit.LoadBitmap("bits", "bits", "off")
	c := GP64()
	XORQ(c, c)
	var table reg.GPVirtual
	if s == kit.AVX2 {
		table = GP64()
		LEAQ(permTable(e), table)
	}
	store := VMOVUPD
	if e.Size == 4 {
		store = VMOVUPS
	}
	b.Loop("compress", n, compressStep, func(read kit.ReadFunc) {
		r := read(0)
		if s == kit.AVX512 {
			k := kit.KMask(r)
			for v := 0; v < compressStep/lanes; v++ {
				kv := kit.KShift(k, v*lanes)
				val, packed, cnt := s.Vec(), s.Vec(), GP32()
				mem := Mem{Base: x, Disp: v * s.VecBytes()}
				if e.Size == 8 {
					VMOVUPD(mem, val)
					VCOMPRESSPD_Z(val, kv, packed)
					KMOVB(kv, cnt)
				} else {
					VMOVUPS(mem, val)
					VCOMPRESSPS_Z(val, kv, packed)
					KMOVW(kv, cnt)
				}
				store(packed, Mem{Base: d, Index: c, Scale: uint8(e.Size)})
				POPCNTL(cnt, cnt)
				ADDQ(cnt.As64(), c)
			}
		} else {
			for v := 0; v < compressStep/lanes; v++ {
				m := GP64()
				MOVL(r.As32(), m.As32())
				if v > 0 {
					SHRL(U8(v*lanes), m.As32())
				}
				ANDL(U32(1<<lanes-1), m.As32())
				perm, packed, cnt := s.Vec(), s.Vec(), GP64()
				VPMOVZXBD(Mem{Base: table, Index: m, Scale: 8}, perm)
				VPERMPS(Mem{Base: x, Disp: v * s.VecBytes()}, perm, packed)
				store(packed, Mem{Base: d, Index: c, Scale: uint8(e.Size)})
				POPCNTQ(m, cnt)
				ADDQ(cnt, c)
			}
		}
		ADDQ(U32(compressStep*e.Size), x)
	})
	Store(c, ReturnIndex(0))
	kit.Ret()
}

// permTable emits (once per element type) the AVX2 compress kernel's
// table: for each pattern of validity bits of one vector's lanes, the
// VPERMPS dword indices (as bytes, widened by VPMOVZXBD) that move the
// valid lanes to the front in order: lane j of a float32 vector is dword
// j, of a float64 vector dwords 2j and 2j+1. The other indices are 0.
func permTable(e elem) Mem {
	lanes := kit.AVX2.Lanes(e.Size)
	m := GLOBL(fmt.Sprintf("compressperm%s", e.Name), RODATA|NOPTR)
	for bits := 0; bits < 1<<lanes; bits++ {
		var idx [8]byte
		k := 0
		for j := 0; j < lanes; j++ {
			if bits>>j&1 == 0 {
				continue
			}
			if e.Size == 4 {
				idx[k] = byte(j)
				k++
			} else {
				idx[k], idx[k+1] = byte(2*j), byte(2*j+1)
				k += 2
			}
		}
		var word uint64
		for i, v := range idx {
			word |= uint64(v) << (8 * i)
		}
		DATA(8*bits, U64(word))
	}
	return m
}

// foldStep is how many elements one fold iteration takes: two rounds of
// foldUnroll vectors of float64 lanes (a float32 kernel widens half a
// register's worth of elements per vector).
func foldStep(s kit.ISA) int { return 2 * foldUnroll(s) * s.Lanes(8) }

// rangeExp generates reproRange<E><ISA>(x []T) (hi, lo uint32): the
// largest value of the high 32 bits of |x| (the whole of |x| for float32)
// and the smallest of those of |x|-1, computed in the element's width, so
// that a zero wraps to all ones and drops out of the minimum. hi's
// exponent field is the block's largest; lo's is the smallest exponent
// field of a value other than zero, or one less for a power of two whose
// low word is zero (which errs on the safe side). len(x) is a multiple of
// the step.
//
// Per vector: an AND, an unsigned maximum, a subtraction, an unsigned
// minimum. The float64 lanes' low dwords take part in the dword max and
// min as well (a qword max does not exist in AVX2), but only in their own
// dword positions, which the final reduction drops.
func rangeExp(e elem, s kit.ISA) {
	name := fmt.Sprintf("reproRange%s%s", e.Name, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(x []%s) (hi, lo uint32)", e.GoType))
	Pragma("noescape")
	lanes := s.Lanes(e.Size)
	st := maxUnroll * lanes
	Doc(fmt.Sprintf("%s returns the largest high dword of |x| and the smallest of |x|-1 (float32: of the", name),
		fmt.Sprintf("whole element); len(x) must be a multiple of %d.", st))
	x, n := kit.Slice("x")
	abs, ones := s.Vec(), s.Vec()
	broadcast(e, abs, e.absMask)
	if s == kit.AVX512 {
		VPTERNLOGD(U8(0xFF), ones, ones, ones) // all ones: -1 in every lane
	} else {
		VPCMPEQD(ones, ones, ones)
	}
	hi := make([]reg.VecVirtual, maxUnroll)
	lo := make([]reg.VecVirtual, maxUnroll)
	for u := range hi {
		hi[u], lo[u] = s.Vec(), s.Vec()
		kit.Zero(hi[u])
		VMOVAPD(ones, lo[u])
	}
	kit.Loop("range", n, st, func() {
		for u := range hi {
			t := s.Vec()
			and(s, Mem{Base: x, Disp: u * s.VecBytes()}, abs, t)
			VPMAXUD(t, hi[u], hi[u])
			if e.Size == 8 {
				VPADDQ(ones, t, t)
			} else {
				VPADDD(ones, t, t)
			}
			VPMINUD(t, lo[u], lo[u])
		}
		ADDQ(U32(st*e.Size), x)
	})
	rangeResults(e, s, hi, lo, 0)
	kit.Ret()
}

// rangeResults reduces the range pass's accumulators hi and lo (unsigned
// dword maxima and minima, any number of each) and stores the results as
// the kernel's results first and first+1.
func rangeResults(e elem, s kit.ISA, hi, lo []reg.VecVirtual, first int) {
	for k, acc := range [][]reg.VecVirtual{hi, lo} {
		op := func(a, b, d Op) { VPMAXUD(a, b, d) }
		if k == 1 {
			op = func(a, b, d Op) { VPMINUD(a, b, d) }
		}
		for len(acc) > 1 {
			h := (len(acc) + 1) / 2
			for i := h; i < len(acc); i++ {
				op(acc[i], acc[i-h], acc[i-h])
			}
			acc = acc[:h]
		}
		v := narrow(s, acc[0], op)
		if e.Size == 8 {
			Comment("Only the high dwords count: copy each over its low dword.")
			VPSHUFD(U8(0xF5), v, v)
		}
		t := XMM()
		VPSHUFD(U8(0x4E), v, t)
		op(t, v, v)
		VPSHUFD(U8(0xB1), v, t)
		op(t, v, v)
		r := GP32()
		VMOVD(v, r)
		Store(r, ReturnIndex(first+k))
	}
}

// fold generates reproFold<E>[FMA]<ISA>(x, pf []T, plan int, mA, mB, mC
// float64) (a, b, c int64, resid uint64): the extraction folds of
// ADR-105 over x (len(x) a multiple of the step) in the way plans[plan]
// says, each lane of each accumulator starting at the fold's constant. It
// returns the exact sums of the parts each fold took, in units of the
// fold's grid (c = 0 with two folds), and, with the plan's check, the OR
// of the last residuals' bits without the sign bit (else 0). pf, at least
// as long as x, is prefetched meanwhile. Each plan has a loop of its own,
// chosen once at the start.
//
// An accumulator stays in the binade of its constant M = 1.5·2^52·g, where
// the low 52 bits count grid units: the difference of its bits and M's is
// its change in units, exactly. Every flushIters iterations the
// accumulators' bits are therefore added, as 64-bit integers, into a sum
// per fold in the frame, and the accumulators start again from M; at the
// end the kernel subtracts M's bits once per lane and flush. The integer
// sums wrap, but the true total is below 2^59 (at most 2^12 parts of 2^47
// units), so the wrapped difference is exact. The flushes let the grids
// lie 48 binades apart instead of the 39 that a whole block of 4096 parts
// in one float64 accumulator would allow.
//
// Per vector and fold: t = acc + v, q = t - acc, v -= q, all three
// additions; a plan's unchecked last fold is acc += v alone, exact because
// the caller has made sure that v is on the fold's grid. With useFMA,
// acc + v and v - q run as fused multiply-adds by 1.0, which round exactly
// as the additions do (v·1 is exact) but issue to the FMA units: on cores
// whose adders and FMA units are separate pipes (Zen 4, Golden Cove) the
// additions per vector then spread over four pipes instead of two. The
// checked residual's subtraction stays an addition, to balance the pipes
// at five FMAs and four adds.
//
// The folds of one vector form a chain of up to nine dependent additions
// (about 30 cycles), which would fill the scheduler with waiting work long
// before the adders are busy. The loop is therefore software-pipelined:
// an iteration runs fold A on the vectors it loads, fold B on the
// residuals of the previous iteration's fold A and fold C on those of the
// one before, independent chains. The stages start at +0.0, which passes
// through a fold without changing it, and draining steps after the loop
// finish the last vectors.
//
// With rng, the kernel is reproFoldRange<E>FMA<ISA>(x, nx, pf []T, plan
// int, mA, mB, mC float64) (a, b, c int64, resid uint64, hi, lo uint32):
// the same loop runs the range pass (rangeExp) over nx, the next block,
// as long as x, and returns its hi and lo too, and it prefetches pf, as
// long as x, into L1 as it reads nx (the caller passes the elements a
// fixed distance beyond nx: the loop's own loads do not run far enough
// ahead to keep DRAM busy). From DRAM the memory is then read once, as
// one stream, while the folds work on the block before from cache; the
// prefetching kernel reads every block twice, the range pass from L2 and
// the folds from L1, and leaves the memory idle when the folds of a block
// take less time than the fetch of the next (AVX-512 on Zen 5: H251).
func fold(e elem, s kit.ISA, useFMA, rng bool) {
	fma := ""
	if useFMA {
		fma = "FMA"
	}
	kind, second, more := "Fold", "pf", ""
	if rng {
		kind, second, more = "FoldRange", "nx, pf", ", hi, lo uint32"
	}
	name := fmt.Sprintf("repro%s%s%s%s", kind, e.Name, fma, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(x, %s []%s, plan int, mA, mB, mC float64) (a, b, c int64, resid uint64%s)", second, e.GoType, more))
	Pragma("noescape")
	st := foldStep(s)
	last := []string{"pf, at least as long as x, is prefetched into L2 meanwhile."}
	if rng {
		last = []string{"It runs the range pass of nx, as long as x, meanwhile, and returns its hi and lo as reproRange",
			"does; pf, as long as x, is prefetched into L1 as nx is read."}
	}
	Doc(append([]string{fmt.Sprintf("%s runs the extraction folds of ADR-105 over x as plans[plan] of the generator says:", name),
		"0: three folds, the last with the residual check; 1: three folds, 2: two folds, the last a plain",
		fmt.Sprintf("addition (x must be on its grid). len(x) must be a multiple of %d. It returns the exact sums", st),
		"of the parts each fold took, in units of its grid, and the OR of the residuals' bits, sign cleared."},
		last...)...)
	// The frame's vectors for the flushes (foldPlan), shared by the
	// plans' loops: a NOSPLIT frame has little room.
	var sums [3]Mem
	for k := range sums {
		sums[k] = AllocLocal(s.VecBytes())
	}
	pl := GP64()
	Load(Param("plan"), pl)
	for i := 1; i < len(plans); i++ {
		CMPQ(pl, U32(i))
		JE(LabelRef(plans[i].name))
	}
	for i, p := range plans {
		if i > 0 {
			Label(p.name)
		}
		foldPlan(e, s, useFMA, rng, p, sums[:p.folds])
	}
}

// foldPlan emits the code of fold for plan p, through its return.
func foldPlan(e elem, s kit.ISA, useFMA, rng bool, p plan, sums []Mem) {
	folds := p.folds
	st, unroll := foldStep(s), foldUnroll(s)
	x, n := kit.Slice("x")
	pf := GP64()
	Load(Param("pf").Base(), pf)
	var nx reg.GPVirtual
	var rs *rangeState
	if rng {
		nx = GP64()
		Load(Param("nx").Base(), nx)
		rs = newRangeState(e, s)
	}
	params := []string{"mA", "mB", "mC"}[:folds]
	// rot reports whether fold k's accumulators rotate between two
	// registers: in the unchecked plans, every fold but the last (which
	// adds in place). t = acc + v then lands in the other register, and
	// the old one takes q = t - acc: no register moves, and with FMA the
	// subtraction is a fused multiply-subtract by 1.0. Each loop iteration
	// runs every fold twice, so the registers are back in place at its
	// end. The checked plan keeps one register per accumulator and moves.
	rot := func(k int) bool { return !p.checked && k < folds-1 }
	// acc[k][u][cur[k][u]] is fold k's accumulator for vector u; the
	// constants are only needed again at the end, and are reloaded then.
	acc := make([][][2]reg.VecVirtual, folds)
	cur := make([][]int, folds)
	for k, p := range params {
		m := s.Vec()
		VBROADCASTSD(addr(Param(p)), m)
		acc[k] = make([][2]reg.VecVirtual, unroll)
		cur[k] = make([]int, unroll)
		for u := range acc[k] {
			acc[k][u][0] = s.Vec()
			VMOVAPD(m, acc[k][u][0])
			if rot(k) {
				acc[k][u][1] = s.Vec()
			}
		}
	}
	// stage[k][u] holds the value that fold k takes next for vector u
	// (k >= 1; fold A takes a fresh load).
	stage := make([][]reg.VecVirtual, folds)
	for k := 1; k < folds; k++ {
		stage[k] = make([]reg.VecVirtual, unroll)
		for u := range stage[k] {
			stage[k][u] = s.Vec()
			kit.Zero(stage[k][u])
		}
	}
	var res reg.VecVirtual
	if p.checked {
		res = s.Vec()
		kit.Zero(res)
	}
	var one reg.VecVirtual
	if useFMA {
		one = s.Vec()
		broadcast(elems[1], one, 0x3FF0000000000000) // 1.0
	}
	// sums[k] is fold k's integer sum of its accumulators' bits, one
	// 64-bit lane per float64 lane, in the frame (AVX2's 16 registers are
	// taken by the pipeline). flushes counts the flushes, left the
	// iterations until the next one.
	for k := range sums {
		z := s.Vec()
		kit.Zero(z)
		storeInt(s, z, sums[k])
	}
	flushes, left := GP64(), GP64()
	XORQ(flushes, flushes)
	MOVQ(U32(flushIters), left)
	flush := func() {
		for k, p := range params {
			// Summed into the first accumulator, which starts again
			// from M below: no register beyond the pipeline's.
			t := acc[k][0][cur[k][0]]
			for u := 1; u < unroll; u++ {
				VPADDQ(acc[k][u][cur[k][u]], t, t)
			}
			VPADDQ(sums[k], t, t)
			storeInt(s, t, sums[k])
			for u := 0; u < unroll; u++ {
				VBROADCASTSD(addr(Param(p)), acc[k][u][cur[k][u]])
			}
		}
		INCQ(flushes)
	}
	// step runs fold k on v in place: acc takes v's part on its grid, v
	// keeps the rest. An unchecked last fold takes all of v.
	step := func(k, u int, v reg.VecVirtual) {
		a := acc[k][u][cur[k][u]]
		if k == folds-1 && !p.checked {
			VADDPD(v, a, a) // exact: v is on the fold's grid
			return
		}
		if rot(k) {
			t := acc[k][u][1-cur[k][u]]
			cur[k][u] = 1 - cur[k][u]
			VADDPD(v, a, t) // t = a + v: v rounded to the fold's grid, plus a
			if useFMA {
				VFMSUB231PD(one, t, a)  // a = t - a, exact: the part of v on the grid
				VFNMADD231PD(one, a, v) // v -= a, exact: the rounding error of a + v
			} else {
				VSUBPD(a, t, a) // a = t - a, exact: the part of v on the grid
				VSUBPD(a, v, v) // v -= a, exact: the rounding error of a + v
			}
			return
		}
		t, q := s.Vec(), s.Vec()
		if useFMA {
			VMOVAPD(a, t)
			VFMADD231PD(one, v, a) // a += v: v rounded to the fold's grid
			VSUBPD(t, a, q)        // q = a - t, exact: the part of v on the grid
			if k < folds-1 {
				VFNMADD231PD(one, q, v) // v -= q, exact: the rounding error of a + v
			} else {
				VSUBPD(q, v, v)
			}
			return
		}
		VADDPD(v, a, t) // t = a + v: v rounded to the fold's grid, plus a
		VSUBPD(a, t, q) // q = t - a, exact: the part of v on the grid
		VMOVAPD(t, a)
		VSUBPD(q, v, v) // v - q, exact: the rounding error of a + v
	}
	// pipeline runs one round from fold `from` on: each fold k >= 1 on
	// stage k, from the last fold back (its residual to stage k+1: moved,
	// or in the unchecked plans by swapping the two stages' registers,
	// the last fold having emptied stage k+1), then fold A on a fresh load
	// when from is 0 (its residual to stage 1), the loads half vectors on.
	vecIn := s.VecBytes() * e.Size / 8 // bytes of x one vector of float64 lanes takes
	pipeline := func(from, half int) {
		for k := folds - 1; k >= max(from, 1); k-- {
			for u := 0; u < unroll; u++ {
				step(k, u, stage[k][u])
				switch {
				case k < folds-1 && p.checked:
					VMOVAPD(stage[k][u], stage[k+1][u])
				case p.checked:
					VORPD(stage[k][u], res, res)
				}
			}
			if k < folds-1 && !p.checked {
				stage[k], stage[k+1] = stage[k+1], stage[k]
			}
		}
		if from > 0 {
			return
		}
		for u := 0; u < unroll; u++ {
			src := Mem{Base: x, Disp: (half*unroll + u) * vecIn}
			if e.Size == 4 {
				VCVTPS2PD(src, stage[1][u])
			} else {
				VMOVUPD(src, stage[1][u])
			}
			step(0, u, stage[1][u])
		}
	}
	kit.Loop(p.name+"fold", n, st, func() {
		if rng {
			prefetchT0(pf, st*e.Size)
			rs.step(nx, st*e.Size/2, 0)
			pipeline(0, 0)
			rs.step(nx, st*e.Size/2, st*e.Size/2)
			pipeline(0, 1)
			ADDQ(U32(st*e.Size), nx)
		} else {
			prefetch(pf, st*e.Size)
			pipeline(0, 0)
			pipeline(0, 1)
		}
		ADDQ(U32(st*e.Size), x)
		DECQ(left)
		JNZ(LabelRef(p.name + "noflush"))
		flush()
		MOVQ(U32(flushIters), left)
		Label(p.name + "noflush")
	})
	Comment("Drain the pipeline: the folds after A for the last loads.")
	for from := 1; from < folds; from++ {
		pipeline(from, 0)
	}
	flush()
	Comment("Each fold's sum of bits less its constant's bits once per lane and flush: its",
		"change in grid units, exact (the true value is below 2^59 in magnitude).")
	lanes := s.Lanes(8) * unroll
	for k, p := range params {
		v := s.Vec()
		loadInt(s, sums[k], v)
		r := kit.HsumQ(s, v)
		m := GP64()
		MOVQ(addr(Param(p)), m)
		IMULQ(flushes, m)
		SHLQ(U8(kit.Log2(lanes)), m)
		SUBQ(m, r)
		Store(r, ReturnIndex(k))
	}
	for k := folds; k < 3; k++ {
		z := GP64()
		XORQ(z, z)
		MOVQ(z, addr(ReturnIndex(k)))
	}
	r := GP64()
	if p.checked {
		v := narrow(s, res, func(a, b, d Op) { or(s, a, b, d) })
		t := XMM()
		VPSHUFD(U8(0x4E), v, t)
		or(s, t, v, v)
		sign := GP64()
		VMOVQ(v, r)
		MOVQ(U64(1<<63-1), sign)
		ANDQ(sign, r)
	} else {
		XORQ(r, r)
	}
	Store(r, ReturnIndex(3))
	if rng {
		rangeResults(e, s, []reg.VecVirtual{rs.hi}, []reg.VecVirtual{rs.lo}, 4)
	}
	kit.Ret()
}

// rangeState is the range pass inside a fold loop: one maximum and one
// minimum accumulator, with the constants read from memory as broadcast
// operands, since the three-fold pipeline leaves AVX-512 three free
// registers.
type rangeState struct {
	e        elem
	s        kit.ISA
	hi, lo   reg.VecVirtual
	abs, neg Mem // the element's magnitude mask and -1, one element each
}

func newRangeState(e elem, s kit.ISA) *rangeState {
	vals := func(v uint64) []uint64 { return []uint64{v} }
	r := &rangeState{e: e, s: s, hi: s.Vec(), lo: s.Vec(),
		abs: kit.Table(fmt.Sprintf("reproabs%s", e.Name), e.Size, vals(e.absMask)),
		neg: kit.Table(fmt.Sprintf("reproneg%s", e.Name), e.Size, vals(^uint64(0))),
	}
	kit.Zero(r.hi)
	if s == kit.AVX512 {
		VPTERNLOGD(U8(0xFF), r.lo, r.lo, r.lo) // all ones: no minimum yet
	} else {
		VPCMPEQD(r.lo, r.lo, r.lo)
	}
	return r
}

// step runs the range pass over the bytes bytes at p+off: per vector a
// load, an AND, an unsigned maximum, a subtraction of 1 and an unsigned
// minimum, as in rangeExp.
func (r *rangeState) step(p reg.GPVirtual, bytes, off int) {
	if r.s != kit.AVX512 {
		panic("repro: the fused range pass is AVX-512 only")
	}
	for v := 0; v < bytes; v += r.s.VecBytes() {
		t := r.s.Vec()
		VMOVDQU64(Mem{Base: p, Disp: off + v}, t)
		if r.e.Size == 8 {
			VPANDQ_BCST(r.abs, t, t)
			VPMAXUD(t, r.hi, r.hi)
			VPADDQ_BCST(r.neg, t, t)
		} else {
			VPANDD_BCST(r.abs, t, t)
			VPMAXUD(t, r.hi, r.hi)
			VPADDD_BCST(r.neg, t, t)
		}
		VPMINUD(t, r.lo, r.lo)
	}
}

// prefetch asks for the cache lines of the next bytes bytes at p to be
// brought into L2 and advances p past them. The fold kernels prefetch the
// block that follows theirs: the range pass of that block then reads
// from L2, while the memory system would otherwise sit idle during the
// folds, which are bound by arithmetic, and a dense sum from DRAM would
// cost the time of the folds plus that of the memory.
func prefetch(p reg.GPVirtual, bytes int) {
	for off := 0; off < bytes; off += 64 {
		PREFETCHT1(Mem{Base: p, Disp: off})
	}
	ADDQ(U32(bytes), p)
}

// prefetchT0 is prefetch into L1: the fused kernels' prefetches run a
// fixed distance ahead of their own loads of the next block (the caller
// chooses it), where a PREFETCHT1 would leave the L2 latency on the loads.
func prefetchT0(p reg.GPVirtual, bytes int) {
	for off := 0; off < bytes; off += 64 {
		PREFETCHT0(Mem{Base: p, Disp: off})
	}
	ADDQ(U32(bytes), p)
}

// addr is the memory operand of a parameter or result.
func addr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// broadcast fills v with the element-sized constant c.
func broadcast(e elem, v reg.VecVirtual, c uint64) {
	g, x := GP64(), XMM()
	MOVQ(U64(c), g)
	VMOVQ(g, x)
	if e.Size == 4 {
		VPBROADCASTD(x, v)
	} else {
		VPBROADCASTQ(x, v)
	}
}

// narrow combines the halves of a full-width vector down to 128 bits with
// op and returns the XMM register that holds the result.
func narrow(s kit.ISA, v reg.VecVirtual, op func(a, b, d Op)) reg.Register {
	y := v.AsY()
	if s == kit.AVX512 {
		hi := YMM()
		VEXTRACTF64X4(U8(1), v, hi)
		op(hi, y, y)
	}
	x := v.AsX()
	hx := XMM()
	if s == kit.AVX512 {
		VEXTRACTF32X4(U8(1), y, hx) // y may be Y16-Y31, which only EVEX encodes
	} else {
		VEXTRACTF128(U8(1), y, hx)
	}
	op(hx, x, x)
	return x
}

// storeInt and loadInt move a vector of integers to and from memory (the
// VEX forms do not reach ZMM).
func storeInt(s kit.ISA, v reg.VecVirtual, m Mem) {
	if s == kit.AVX512 {
		VMOVDQU64(v, m)
	} else {
		VMOVDQU(v, m)
	}
}

func loadInt(s kit.ISA, m Mem, v reg.VecVirtual) {
	if s == kit.AVX512 {
		VMOVDQU64(m, v)
	} else {
		VMOVDQU(m, v)
	}
}

// and and or are the bitwise instructions of the ISA (the VEX forms do not
// reach ZMM or X16-X31).
func and(s kit.ISA, a, b, d Op) {
	if s == kit.AVX512 {
		VPANDQ(a, b, d)
	} else {
		VPAND(a, b, d)
	}
}

func or(s kit.ISA, a, b, d Op) {
	if s == kit.AVX512 {
		VPORQ(a, b, d)
	} else {
		VPOR(a, b, d)
	}
}
