// Command sum generates quiver's amd64 kernels for the sum family: float
// sums in the ADR-013 blocked order, wrapping integer sums and the split
// sums behind the exact checked 64-bit sums, for AVX2 and AVX-512 (the
// valid-bit counts have their own generator, ../count). Element type and instruction set are parameters of one
// generator per operation, so every kernel of an operation has the same
// shape.
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

// elem is the element type description shared by the generators.
type elem = kit.Elem

var elems = kit.Elems

func main() {
	ConstraintExpr("amd64,!purego")
	for _, s := range []kit.ISA{kit.AVX2, kit.AVX512} {
		for _, e := range elems {
			if e.Float {
				floatSum(e, s, false)
				floatSum(e, s, true)
			} else {
				intSum(e, s)
			}
		}
		checkedSum(false, s)
		checkedSum(true, s)
	}
	kit.GenerateFiles("internal/asm/amd64/sum")
}

// accumulators is ADR-013's A for every SIMD backend.
const accumulators = 4

// floatUnroll is how many blocks one iteration of the dense float loop
// adds. Two measured no faster at n=4096 (the loop is bound by the latency
// of the A=4 accumulator chains, which unrolling does not shorten) and
// slower for float32 AVX2 at n=65536, so it stays 1.
const floatUnroll = 1

// halvesFrom is the input size in bytes from which the AVX-512 dense
// float loop adds 256-bit halves (see floatSum): twice the largest L2 of
// the AVX-512 cores measured (1 MB on Zen 4 and Zen 5, 1.25 MB on Ice
// Lake-SP), so that it serves only inputs read from L3 or DRAM.
const halvesFrom = 2 << 20

// floatSum generates sum<E><ISA>(x []T, bits []byte, off int) T: the
// ADR-013 block phase over x, whose length is a multiple of the block
// (A×W elements), with the accumulators combined and folded to a scalar.
// The Go wrapper adds the tail in index order.
//
// With lanes it generates sumLanes<E><ISA>(acc, x []T, bits []byte, off
// int) instead: the same block phase, but the accumulators start from acc
// (A×W elements, accumulator a in acc[a*W:(a+1)*W]) and are stored back
// there unfolded, so that a stream of batches can carry them from one
// call to the next and put its blocks where one call over the whole
// input would.
func floatSum(e elem, s kit.ISA, lanes bool) {
	w := s.Lanes(e.Size)
	block := accumulators * w
	name := fmt.Sprintf("sum%s%s", e.Name, s)
	if lanes {
		name = fmt.Sprintf("sumLanes%s%s", e.Name, s)
		TEXT(name, NOSPLIT, fmt.Sprintf("func(acc []%s, x []%s, bits []byte, off int)", e.GoType, e.GoType))
		Pragma("noescape")
		Doc(fmt.Sprintf("%s adds x into the %d accumulators of %d lanes in acc (len(acc) must be %d) in", name, accumulators, w, block),
			fmt.Sprintf("the ADR-013 order: len(x) must be a multiple of %d. Element i participates when", block),
			"bit off+i of bits is set (bits nil: all).")
	} else {
		TEXT(name, NOSPLIT, fmt.Sprintf("func(x []%s, bits []byte, off int) %s", e.GoType, e.GoType))
		Pragma("noescape")
		Doc(fmt.Sprintf("%s adds x in the ADR-013 order with %d accumulators of %d lanes: len(x) must be a", name, accumulators, w),
			fmt.Sprintf("multiple of %d. Element i participates when bit off+i of bits is set (bits nil: all).", block))
	}
	f := floatOps(e.Size)

	var accBase reg.GPVirtual
	if lanes {
		accBase = GP64()
		Load(Param("acc").Base(), accBase)
	}
	x, n := kit.Slice("x")
	acc := make([]reg.VecVirtual, accumulators)
	for a := range acc {
		acc[a] = s.Vec()
		if lanes {
			f.load(Mem{Base: accBase, Disp: a * s.VecBytes()}, acc[a])
		} else {
			kit.Zero(acc[a])
		}
	}
	vec := func(a int) Mem { return Mem{Base: x, Disp: a * s.VecBytes()} }
	bitsBase := GP64()
	Load(Param("bits").Base(), bitsBase)
	TESTQ(bitsBase, bitsBase)
	JNZ(LabelRef("masked"))

	Comment("Dense: every element participates.")
	// Blocks go through the accumulators in order, so unrolling whole
	// blocks keeps the ADR-013 order.
	if floatUnroll > 1 {
		kit.Loop("dense2", n, floatUnroll*block, func() {
			for b := 0; b < floatUnroll; b++ {
				for a := range acc {
					f.add(vec(b*accumulators+a), acc[a], acc[a])
				}
			}
			ADDQ(U32(floatUnroll*block*e.Size), x)
		})
	}
	if s == kit.AVX512 {
		// From DRAM, AVX-512 dense blocks go through 256-bit halves:
		// accumulator a's lanes 0..W/2-1 in its low half, the others in
		// hi[a], so every lane takes the same additions in the same order
		// as with 512-bit adds. 512-bit loads from DRAM took 1.12-1.15x
		// the time of 256-bit ones on an AMD EPYC Zen 4 (family 25 model
		// 17; 16M float64, loop-only), and the same from L1 to L3. Below
		// halvesFrom bytes the 512-bit loop stays: where a 512-bit add
		// has the throughput of two 256-bit ones and a short latency (Zen
		// 5), four 512-bit chains add twice the lanes per cycle of eight
		// 256-bit ones, and from L3 down either loop waits for memory. A
		// VEX-encoded write zeroes the upper half of the 512-bit register,
		// so the halves are split before the loop and joined after it.
		CMPQ(n, U32(halvesFrom/e.Size))
		JB(LabelRef("dense_full"))
		hi := make([]reg.VecVirtual, accumulators)
		for a := range acc {
			hi[a] = YMM()
			VEXTRACTF64X4(U8(1), acc[a], hi[a])
		}
		half := func(a, h int) Mem { return Mem{Base: x, Disp: a*s.VecBytes() + h*32} }
		kit.Loop("dense_halves", n, block, func() {
			for a := range acc {
				f.add(half(a, 0), acc[a].AsY(), acc[a].AsY())
				f.add(half(a, 1), hi[a], hi[a])
			}
			ADDQ(U32(block*e.Size), x)
		})
		for a := range acc {
			VINSERTF64X4(U8(1), hi[a], acc[a], acc[a])
		}
		JMP(LabelRef("fold"))
		Label("dense_full")
		rebuiltBlocks(e, f, x, n, acc)
	}
	kit.Loop("dense", n, block, func() {
		for a := range acc {
			f.add(vec(a), acc[a], acc[a])
		}
		ADDQ(U32(block*e.Size), x)
	})
	JMP(LabelRef("fold"))

	Label("masked")
	if s == kit.AVX2 && !lanes {
		Comment("Masked: an invalid element adds +0.0, exact on accumulators that start at +0.0.")
	} else {
		Comment("Masked: an invalid element adds -0.0, the exact neutral.")
	}
	bm := kit.LoadBitmap("bitmap", "bits", "off")
	if s == kit.AVX512 {
		// Merge masking leaves an invalid lane's accumulator as it is,
		// which is what adding -0.0 does (x + -0.0 == x for every x).
		bm.MaskLoop("masked", n, block, func(mask kit.MaskFunc) {
			k := mask(0, block)
			for a := range acc {
				f.add(vec(a), acc[a], kit.KShift(k, a*w), acc[a])
			}
			ADDQ(U32(block*e.Size), x)
		})
	} else {
		// The one-call sums load with the mask applied: a valid lane
		// reads x, an invalid one +0.0 (and is not read). Adding +0.0 is
		// exact there because their accumulators start at +0.0, and a
		// sum that starts at +0.0 never becomes -0.0 in round to nearest
		// (x + y is -0.0 only when both are), so acc + +0.0 == acc
		// throughout, NaN and infinities included. On an Intel Xeon
		// family 6 model 207 (Golden Cove) a blend with a memory operand
		// is three micro-ops on the vector ports and a masked load one
		// beside its load (H320-H324 in bench/maskedavx2_test.go).
		// The lane kernels' accumulators come from the caller (a decoded
		// state among them) and may hold -0.0, which +0.0 would turn into
		// +0.0: they blend in -0.0, the neutral of every addition.
		msb := kit.NewMSBMasks(e.Size, accumulators)
		var negz reg.VecVirtual
		if lanes {
			negz = YMM()
			VPCMPEQD(negz, negz, negz)
			if e.Size == 8 {
				VPSLLQ(U8(63), negz, negz)
			} else {
				VPSLLD(U8(31), negz, negz)
			}
		}
		bm.MSBLoop("masked", n, block, msb, func(bc reg.VecVirtual) {
			if !lanes {
				kit.PrefetchMaskedStream(x, block*e.Size)
			}
			for a := range acc {
				m := msb.Group(bc, a)
				t := YMM()
				if lanes {
					f.blend(m, vec(a), negz, t) // valid: x, invalid: -0.0
				} else {
					f.maskLoad(vec(a), m, t) // valid: x, invalid: +0.0
				}
				f.add(t, acc[a], acc[a])
			}
			ADDQ(U32(block*e.Size), x)
		})
	}

	Label("fold")
	if lanes {
		Comment("Store the accumulators back, unfolded.")
		for a := range acc {
			f.load(acc[a], Mem{Base: accBase, Disp: a * s.VecBytes()})
		}
		kit.Ret()
		return
	}
	Comment("Combine (0+2), (1+3), then the two; fold lanes low to high from +0.0.")
	f.add(acc[2], acc[0], acc[0])
	f.add(acc[3], acc[1], acc[1])
	f.add(acc[1], acc[0], acc[0])
	sum := XMM()
	VXORPS(sum, sum, sum)
	t := XMM()
	for c := 0; c < s.VecBytes()/16; c++ {
		part := acc[0].AsX()
		if c > 0 {
			part = XMM()
			if s == kit.AVX512 {
				VEXTRACTF32X4(U8(c), acc[0], part)
			} else {
				VEXTRACTF128(U8(c), acc[0], part)
			}
		}
		for l := 0; l < 16/e.Size; l++ {
			if l == 0 {
				f.addScalar(part, sum, sum)
				continue
			}
			f.lane(l, part, t)
			f.addScalar(t, sum, sum)
		}
	}
	ret, err := ReturnIndex(0).Resolve()
	if err != nil {
		panic(err)
	}
	f.storeScalar(sum, ret.Addr)
	kit.Ret()
}

// rebuiltBlocks runs the AVX-512 dense block phase over an x that does not
// start on a 64-byte boundary (n a multiple of the block, acc the
// accumulators), and falls through to the aligned loop otherwise. An
// unaligned 512-bit load straddles two cache lines every time; on an AMD
// EPYC Zen 4 the float64 loop over 4096 elements took 1.6x its aligned
// time (H274-H277 in bench/offsets_test.go). ADR-013 fixes which lane of
// which accumulator each element meets, counted from x[0], so the loop
// cannot start later. Instead it loads the aligned vectors that cover x and
// rebuilds each vector of x from two neighbours with one two-table
// permute: lane l of vector i is lane l+s of the concatenation of aligned
// vectors i and i+1 (x starts s lanes into the first), the very value the
// unaligned load would read, so every addition is the same. The first
// aligned vector is loaded with lanes s.. only and the last one with lanes
// ..s-1 only (masked lanes are not read), so no byte outside x is touched.
// Measured on the same Zen 4, float64 n=4096 8-24 bytes past a boundary:
// 262-265 ns unaligned, 221-222 rebuilt, 168-171 aligned; VALIGNQ by an
// immediate (a loop per offset) was no faster, the 256-bit halves slower
// (289). Inputs from halvesFrom on take the halves whatever their
// alignment.
func rebuiltBlocks(e elem, f fops, x, n reg.GPVirtual, acc []reg.VecVirtual) {
	s := kit.AVX512
	w := s.Lanes(e.Size)
	block := accumulators * w
	sh := GP64()
	MOVQ(x, sh)
	ANDQ(U8(63), sh)
	JZ(LabelRef("rebuilt_none"))
	TESTQ(n, n)
	JZ(LabelRef("rebuilt_none"))
	SHRQ(U8(kit.Log2(e.Size)), sh) // s: x is element-aligned
	base := GP64()
	MOVQ(x, base)
	ANDQ(I32(-64), base)
	idx := ZMM()
	perm := VPERMT2Q
	if e.Size == 8 {
		VPBROADCASTQ(sh, idx)
		VPADDQ(iotaConst(e.Size, w), idx, idx)
	} else {
		VPBROADCASTD(sh.As32(), idx)
		VPADDD(iotaConst(e.Size, w), idx, idx)
		perm = VPERMT2D
	}
	// k: lanes s.. for the first aligned vector; its complement, lanes
	// ..s-1, for the last.
	ones := GP64()
	MOVQ(I64(-1), ones)
	head := GP64()
	SHLXQ(sh, ones, head)
	kHead, kTail := K(), K()
	KMOVQ(head, kHead)
	NOTQ(head)
	KMOVQ(head, kTail)
	prev := ZMM()
	f.loadZ(Mem{Base: base}, kHead, prev)
	// Every block but the last: its four vectors and the first aligned
	// vector of the next one, which the next block starts from.
	SUBQ(U32(block), n)
	one := func(last bool) {
		a := make([]reg.VecVirtual, accumulators+1)
		a[0] = prev
		for i := 1; i <= accumulators; i++ {
			a[i] = ZMM()
			m := Mem{Base: base, Disp: 64 * i}
			if last && i == accumulators {
				f.loadZ(m, kTail, a[i])
			} else {
				f.load(m, a[i])
			}
		}
		for i := range accumulators {
			perm(a[i+1], idx, a[i]) // a[i] = vector i of x
			f.add(a[i], acc[i], acc[i])
		}
		if !last {
			VMOVDQU64(a[accumulators], prev)
		}
		ADDQ(U32(block*e.Size), base)
	}
	kit.Loop("rebuilt", n, block, func() { one(false) })
	one(true)
	JMP(LabelRef("fold"))
	Label("rebuilt_none")
}

// iotaConst is the vector of lane numbers 0..w-1 in lanes of size bytes.
func iotaConst(size, w int) Mem {
	lanes := make([]uint64, w)
	for l := range lanes {
		lanes[l] = uint64(l)
	}
	return kit.Table(fmt.Sprintf("iota%d", 8*size), size, lanes)
}

// fops are the instructions of one float width.
type fops struct {
	add, addScalar, storeScalar func(ops ...Op)
	load                        func(ops ...Op)    // a whole vector, unaligned: src, dst
	loadZ                       func(m, k, dst Op) // the lanes k selects, the others zero (AVX-512)
	blend                       func(mask, src2, src1, dst Op)
	maskLoad                    func(m, mask, dst Op) // the lanes whose mask sign is set, the others +0.0 (AVX2)
	lane                        func(l int, src, dst Op)
}

func floatOps(size int) fops {
	if size == 8 {
		return fops{
			add: VADDPD, blend: VBLENDVPD, maskLoad: VMASKMOVPD, addScalar: VADDSD, storeScalar: VMOVSD, load: VMOVUPD, loadZ: VMOVUPD_Z,
			lane: func(l int, src, dst Op) { VPERMILPD(U8(l), src, dst) },
		}
	}
	return fops{
		add: VADDPS, blend: VBLENDVPS, maskLoad: VMASKMOVPS, addScalar: VADDSS, storeScalar: VMOVSS, load: VMOVUPS, loadZ: VMOVUPS_Z,
		lane: func(l int, src, dst Op) { VPERMILPS(U8(l), src, dst) },
	}
}

// unroll is how many vectors the integer loops process per iteration, each
// into its own accumulator.
const unroll = 4

// intSum generates sum<E><ISA>(x []T, bits []byte, off int) S: the wrapping
// sum of x in 64-bit lanes, len(x) a multiple of the elements one vector
// step takes (intStep); the Go wrapper adds the rest.
//
// Elements of 16 to 64 bits are widened to 64-bit lanes by sign- or
// zero-extending loads. Bytes are summed eight at a time by VPSADBW against
// zero (the sum of absolute differences of unsigned bytes is their sum);
// signed bytes are first biased by XOR 0x80, which adds 128 to each, and
// the 128×len(x) is taken off at the end. An invalid element is zeroed
// before the bias, so it adds exactly 128 like every other, and the
// correction does not depend on the mask.
func intSum(e elem, s kit.ISA) {
	name := fmt.Sprintf("sum%s%s", e.Name, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(x []%s, bits []byte, off int, tail uint64) %s", e.GoType, e.SumType()))
	Pragma("noescape")
	step := intStep(e.Size, s)
	Doc(append([]string{fmt.Sprintf("%s returns the wrapping %s sum of the valid elements of x.", name, e.SumType()),
		"Element i is valid when bit off+i of bits is set (bits nil: all)."}, tailDoc(s, step)...)...)

	x, n := kit.Slice("x")
	total := GP64()
	MOVQ(n, total)
	acc := make([]reg.VecVirtual, unroll)
	for a := range acc {
		acc[a] = s.Vec()
		kit.Zero(acc[a])
	}
	var zero reg.VecVirtual // VPSADBW's other operand, the AVX2 widened elements' null
	if e.Size < 8 {
		zero = s.Vec()
		kit.Zero(zero)
	}
	var bias reg.VecVirtual
	if e.Size == 1 && e.Signed {
		bias = s.Vec()
		b := GP64()
		MOVQ(U64(0x8080808080808080), b)
		if s == kit.AVX512 {
			VPBROADCASTQ(b, bias)
		} else {
			VMOVQ(b, bias.AsX())
			VPBROADCASTQ(bias.AsX(), bias)
		}
	}
	bytesPerStep := step * e.Size
	src := func(v int) Mem { return Mem{Base: x, Disp: v * bytesPerStep} }

	// load puts vector v's elements, widened to 64-bit lanes (bytes: as
	// they are), into a register; mask zeroes the invalid ones.
	type masker struct {
		k   reg.OpmaskVirtual // AVX-512
		msb reg.VecVirtual    // AVX2, 16- to 64-bit elements
		bm  reg.VecVirtual    // AVX2 bytes
	}
	load := func(v int, m *masker) reg.VecVirtual {
		t := s.Vec()
		switch {
		case e.Size == 1:
			switch {
			case m == nil:
				if !e.Signed {
					VPSADBW(src(v), zero, t)
					return t
				}
				pxor(s, src(v), bias, t)
			case s == kit.AVX512:
				VMOVDQU8_Z(src(v), m.k, t)
				if e.Signed {
					VPXORQ(bias, t, t)
				}
			default:
				VPAND(src(v), m.bm, t)
				if e.Signed {
					VPXOR(bias, t, t)
				}
			}
			VPSADBW(zero, t, t)
			return t
		case e.Size == 8:
			switch {
			case m == nil:
				// Added straight from memory by the caller.
				return nil
			case s == kit.AVX512:
				VMOVDQU64_Z(src(v), m.k, t)
			default:
				// The load applies the mask: 0 for a null, the exact
				// neutral, and a blend's micro-ops saved (H325-H328 in
				// bench/maskedavx2_test.go).
				VPMASKMOVQ(src(v), m.msb, t)
			}
			return t
		}
		widen(e, s, src(v), m != nil && s == kit.AVX512, func() reg.OpmaskVirtual { return m.k }, t)
		if m != nil && s == kit.AVX2 {
			VBLENDVPD(m.msb, t, zero, t)
		}
		return t
	}
	addTo := func(v int, m *masker, a reg.VecVirtual) {
		if e.Size == 8 && m != nil && s == kit.AVX512 {
			// Merge masking: an invalid lane keeps its sum.
			VPADDQ(src(v), a, m.k, a)
			return
		}
		if t := load(v, m); t != nil {
			VPADDQ(t, a, a)
		} else {
			VPADDQ(src(v), a, a)
		}
	}

	bitsBase := GP64()
	Load(Param("bits").Base(), bitsBase)
	TESTQ(bitsBase, bitsBase)
	JNZ(LabelRef("masked"))

	Comment("Dense.")
	if e.Size == 8 && s == kit.AVX2 {
		// Two vectors per accumulator per iteration: half the loop
		// overhead per load. Measured, avx2 backend on an Intel Ice
		// Lake-SP (AVX-512 machine), int64 n=4096: 192 -> 168 ns
		// (arrow-go's eight-accumulator loop 160 ns); n=65536, bound by
		// L2, unchanged.
		kit.Loop("dense2", n, 2*unroll*step, func() {
			for v := range 2 * unroll {
				addTo(v, nil, acc[v%unroll])
			}
			ADDQ(U32(2*unroll*bytesPerStep), x)
		})
	}
	kit.Loop("dense", n, unroll*step, func() {
		for v := range acc {
			addTo(v, nil, acc[v])
		}
		ADDQ(U32(unroll*bytesPerStep), x)
	})
	kit.Loop("dense1", n, step, func() {
		addTo(0, nil, acc[0])
		ADDQ(U32(bytesPerStep), x)
	})
	// tailStep runs the last len(x) mod step elements as one vector
	// under the opmask tail (AVX-512): the masked loads suppress every
	// lane past the end, and a masked-off lane reads 0, as an invalid
	// one does.
	tailStep := func(label string) {
		if s != kit.AVX512 {
			return
		}
		k := tailMask(n, label)
		if e.Size == 1 && e.Signed {
			// Every lane adds 128 after the bias, those past the end
			// too: count them in the correction.
			c := GP64()
			MOVQ(U32(step), c)
			SUBQ(n, c)
			ADDQ(c, total)
		}
		addTo(0, &masker{k: k}, acc[0])
		Label(label)
	}
	tailStep("dense_tail_done")
	JMP(LabelRef("reduce"))

	Label("masked")
	Comment("Masked: invalid elements are zeroed before they are added.")
	bm := kit.LoadBitmap("bitmap", "bits", "off")
	// oneVector is the AVX2 masked loop of one vector (4 elements in 64-bit
	// lanes) at a time, after the main loop.
	oneVector := func(msb *kit.MSBMasks) {
		bm.Loop("masked1", n, step, func(read kit.ReadFunc) {
			bc := msb.Broadcast(read(0))
			addTo(0, &masker{msb: msb.Group(bc, 0)}, acc[0])
			ADDQ(U32(bytesPerStep), x)
		})
	}
	switch {
	case s == kit.AVX512 && e.Size == 1:
		bm.Loop("masked", n, step, func(read kit.ReadFunc) {
			m := &masker{k: kit.KMask(kit.Read64(read, 0))}
			addTo(0, m, acc[0])
			ADDQ(U32(bytesPerStep), x)
		})
	case s == kit.AVX512:
		bm.Loop("masked", n, unroll*step, func(read kit.ReadFunc) {
			k := kit.KMask(read(0))
			for v := range acc {
				addTo(v, &masker{k: kit.KShift(k, v*step)}, acc[v])
			}
			ADDQ(U32(unroll*bytesPerStep), x)
		})
		bm.Loop("masked1", n, step, func(read kit.ReadFunc) {
			addTo(0, &masker{k: kit.KMask(read(0))}, acc[0])
			ADDQ(U32(bytesPerStep), x)
		})
	case e.Size == 1:
		bmk := kit.NewByteMasks()
		bm.Loop("masked", n, step, func(read kit.ReadFunc) {
			addTo(0, &masker{bm: bmk.Mask(read(0))}, acc[0])
			ADDQ(U32(bytesPerStep), x)
		})
	case e.Size == 4:
		// 32-bit elements: one masked load of 8 elements under 32-bit lane
		// masks (a null reads 0), then both halves widened in registers,
		// instead of a widening load and a blend per 4 elements (H340-H342
		// in bench/maskedavx2_test.go).
		msb := kit.NewMSBMasks(4, unroll/2)
		bm.MSBLoop("masked", n, unroll*step, msb, func(bc reg.VecVirtual) {
			kit.PrefetchMaskedStream(x, unroll*bytesPerStep)
			for g := range unroll / 2 {
				d := YMM()
				VPMASKMOVD(Mem{Base: x, Disp: g * 32}, msb.Group(bc, g), d)
				hi := XMM()
				VEXTRACTI128(U8(1), d, hi)
				for h, half := range []reg.Register{d.AsX(), hi} {
					t := YMM()
					if e.Signed {
						VPMOVSXDQ(half, t)
					} else {
						VPMOVZXDQ(half, t)
					}
					VPADDQ(t, acc[2*g+h], acc[2*g+h])
				}
			}
			ADDQ(U32(unroll*bytesPerStep), x)
		})
		oneVector(kit.NewMSBMasks(8, unroll))
	default:
		msb := kit.NewMSBMasks(8, unroll)
		bm.MSBLoop("masked", n, unroll*step, msb, func(bc reg.VecVirtual) {
			if e.Size == 8 { // VPMASKMOVQ; 16-bit lanes load with widening
				kit.PrefetchMaskedStream(x, unroll*bytesPerStep)
			}
			for v := range acc {
				addTo(v, &masker{msb: msb.Group(bc, v)}, acc[v])
			}
			ADDQ(U32(unroll*bytesPerStep), x)
		})
		oneVector(msb)
	}
	tailStep("masked_tail_done")

	Label("reduce")
	for v := 1; v < len(acc); v++ {
		VPADDQ(acc[v], acc[0], acc[0])
	}
	r := kit.HsumQ(s, acc[0])
	if e.Size == 1 && e.Signed {
		Comment("Take off the bias: 128 per element.")
		SHLQ(U8(7), total)
		SUBQ(total, r)
	}
	Store(r, ReturnIndex(0))
	kit.Ret()
}

// tailMask starts an AVX-512 sum kernel's last, partial vector: with n,
// the elements the loops left, zero it jumps to label (which the caller
// places after the vector's code), else it returns the opmask of the
// kernel's tail argument.
func tailMask(n reg.GPVirtual, label string) reg.OpmaskVirtual {
	TESTQ(n, n)
	JZ(LabelRef(label))
	t := GP64()
	Load(Param("tail"), t)
	k := K()
	KMOVQ(t, k)
	return k
}

// tailDoc is the doc lines of an integer or checked sum kernel of s with
// vectors of step elements on its length and tail.
func tailDoc(s kit.ISA, step int) []string {
	if s != kit.AVX512 {
		return []string{fmt.Sprintf("len(x) must be a multiple of %d; tail is not read.", step)}
	}
	return []string{fmt.Sprintf("The last len(x) mod %d elements run as one masked vector, tail their validity", step),
		"(bit i for the i-th of them; all set when bits is nil)."}
}

// intStep is the number of elements one vector step of intSum consumes:
// a vector of bytes, or as many elements as 64-bit lanes otherwise.
func intStep(size int, s kit.ISA) int {
	if size == 1 {
		return s.VecBytes()
	}
	return s.Lanes(8)
}

// pxor is VPXOR or, for ZMM, VPXORQ.
func pxor(s kit.ISA, a, b, dst Op) {
	if s == kit.AVX512 {
		VPXORQ(a, b, dst)
	} else {
		VPXOR(a, b, dst)
	}
}

// widen loads a vector of 16- or 32-bit elements from m sign- or
// zero-extended to 64-bit lanes; with zeroing it applies the AVX-512 mask
// k() (zero-masking: invalid lanes become 0).
func widen(e elem, s kit.ISA, m Mem, zeroing bool, k func() reg.OpmaskVirtual, dst reg.VecVirtual) {
	type ins struct {
		plain func(ops ...Op)
		z     func(mx, k, xyz Op)
	}
	var i ins
	switch {
	case e.Size == 4 && e.Signed:
		i = ins{VPMOVSXDQ, VPMOVSXDQ_Z}
	case e.Size == 4:
		i = ins{VPMOVZXDQ, VPMOVZXDQ_Z}
	case e.Size == 2 && e.Signed:
		i = ins{VPMOVSXWQ, VPMOVSXWQ_Z}
	default:
		i = ins{VPMOVZXWQ, VPMOVZXWQ_Z}
	}
	if zeroing {
		i.z(m, k(), dst)
		return
	}
	i.plain(m, dst)
}

// checkedSum generates checked<I64|U64><ISA>(x, bits, off) (lo, hi uint64):
// over the valid elements of x (len(x) a multiple of the vector's lanes),
// the sums of the low and the high 32-bit halves of each element as an
// unsigned 64-bit number; for int64 the element is first offset by 2^63
// (its sign bit flipped) and an invalid element counts as offset zero,
// that is 2^63, so the Go side takes off exactly len(x)×2^63. Both sums
// are exact for len(x) < 2^31, and hi×2^32 + lo is then the exact sum.
func checkedSum(signed bool, s kit.ISA) {
	e := elem{Name: "U64", GoType: "uint64", Size: 8}
	if signed {
		e = elem{Name: "I64", GoType: "int64", Size: 8, Signed: true}
	}
	name := fmt.Sprintf("checked%s%s", e.Name, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(x []%s, bits []byte, off int, tail uint64) (lo, hi uint64)", e.GoType))
	Pragma("noescape")
	step := s.Lanes(8)
	Doc(append([]string{fmt.Sprintf("%s returns the sums of the low and high 32-bit halves of the valid elements", name),
		"of x (offset by 2^63 if signed; invalid ones count as 0 before the offset, and so do the lanes",
		"of the last vector past the end of x); len(x) must be below 2^31."}, tailDoc(s, step)...)...)

	x, n := kit.Slice("x")
	const pairs = 2
	accLo, accHi := make([]reg.VecVirtual, pairs), make([]reg.VecVirtual, pairs)
	for p := 0; p < pairs; p++ {
		accLo[p], accHi[p] = s.Vec(), s.Vec()
		kit.Zero(accLo[p])
		kit.Zero(accHi[p])
	}
	lowMask := s.Vec() // 0x00000000FFFFFFFF per lane
	if s == kit.AVX512 {
		VPTERNLOGQ(U8(0xFF), lowMask, lowMask, lowMask)
	} else {
		VPCMPEQD(lowMask, lowMask, lowMask)
	}
	VPSRLQ(U8(32), lowMask, lowMask)
	var sign reg.VecVirtual
	if signed {
		sign = s.Vec()
		if s == kit.AVX512 {
			VPTERNLOGQ(U8(0xFF), sign, sign, sign)
		} else {
			VPCMPEQD(sign, sign, sign)
		}
		VPSLLQ(U8(63), sign, sign)
	}
	src := func(v int) Mem { return Mem{Base: x, Disp: v * s.VecBytes()} }
	split := func(t reg.VecVirtual, p int) {
		if signed {
			pxor(s, sign, t, t)
		}
		lo, hi := s.Vec(), s.Vec()
		if s == kit.AVX512 {
			VPANDQ(lowMask, t, lo)
		} else {
			VPAND(lowMask, t, lo)
		}
		VPSRLQ(U8(32), t, hi)
		VPADDQ(lo, accLo[p], accLo[p])
		VPADDQ(hi, accHi[p], accHi[p])
	}

	bitsBase := GP64()
	Load(Param("bits").Base(), bitsBase)
	TESTQ(bitsBase, bitsBase)
	JNZ(LabelRef("masked"))

	kit.Loop("dense", n, unroll*step, func() {
		for v := 0; v < unroll; v++ {
			t := s.Vec()
			if s == kit.AVX512 {
				VMOVDQU64(src(v), t)
			} else {
				VMOVDQU(src(v), t)
			}
			split(t, v%pairs)
		}
		ADDQ(U32(unroll*s.VecBytes()), x)
	})
	kit.Loop("dense1", n, step, func() {
		t := s.Vec()
		if s == kit.AVX512 {
			VMOVDQU64(src(0), t)
		} else {
			VMOVDQU(src(0), t)
		}
		split(t, 0)
		ADDQ(U32(s.VecBytes()), x)
	})
	// tailStep is intSum's: the last len(x) mod step elements as one
	// vector under the opmask tail (AVX-512).
	tailStep := func(label string) {
		if s != kit.AVX512 {
			return
		}
		k := tailMask(n, label)
		t := s.Vec()
		VMOVDQU64_Z(src(0), k, t)
		split(t, 0)
		Label(label)
	}
	tailStep("dense_tail_done")
	JMP(LabelRef("reduce"))

	Label("masked")
	bm := kit.LoadBitmap("bitmap", "bits", "off")
	if s == kit.AVX512 {
		bm.Loop("masked", n, unroll*step, func(read kit.ReadFunc) {
			k := kit.KMask(read(0))
			for v := 0; v < unroll; v++ {
				t := s.Vec()
				VMOVDQU64_Z(src(v), kit.KShift(k, v*step), t)
				split(t, v%pairs)
			}
			ADDQ(U32(unroll*s.VecBytes()), x)
		})
		bm.Loop("masked1", n, step, func(read kit.ReadFunc) {
			t := s.Vec()
			VMOVDQU64_Z(src(0), kit.KMask(read(0)), t)
			split(t, 0)
			ADDQ(U32(s.VecBytes()), x)
		})
	} else {
		msb := kit.NewMSBMasks(8, unroll)
		bm.MSBLoop("masked", n, unroll*step, msb, func(bc reg.VecVirtual) {
			kit.PrefetchMaskedStream(x, unroll*s.VecBytes())
			for v := 0; v < unroll; v++ {
				t := YMM()
				VPMASKMOVQ(src(v), msb.Group(bc, v), t) // a null reads 0
				split(t, v%pairs)
			}
			ADDQ(U32(unroll*s.VecBytes()), x)
		})
		bm.Loop("masked1", n, step, func(read kit.ReadFunc) {
			bc := msb.Broadcast(read(0))
			t := YMM()
			VPMASKMOVQ(src(0), msb.Group(bc, 0), t)
			split(t, 0)
			ADDQ(U32(s.VecBytes()), x)
		})
	}

	tailStep("masked_tail_done")

	Label("reduce")
	VPADDQ(accLo[1], accLo[0], accLo[0])
	VPADDQ(accHi[1], accHi[0], accHi[0])
	Store(kit.HsumQ(s, accLo[0]), Return("lo"))
	Store(kit.HsumQ(s, accHi[0]), Return("hi"))
	kit.Ret()
}
