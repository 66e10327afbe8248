package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

// mode is which extremes a gathered min/max kernel folds.
type mode int

const (
	modeMin mode = iota
	modeMax
	modeBoth
)

func (m mode) String() string {
	return [...]string{"Min", "Max", "MinMax"}[m]
}

// minMaxElems are the element types with gathered min/max kernels.
func minMaxElems(s kit.ISA) []kit.Elem {
	var out []kit.Elem
	for _, e := range kit.Elems {
		// AVX2: floats only. Integer kernels (VPMINSD, and VPCMPGTQ with
		// a blend for 64 bits) measured 1.0-1.4x on hardware but gave
		// wrong results under the emulator the AVX2 tests run on, not yet
		// understood; the integers stay with the Go loops there.
		if e.Size < 4 || (s == kit.AVX2 && !e.Float) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// gathers per iteration of a min/max kernel.
const mmGathers = 4

// mmStep is the number of selection entries one iteration takes.
func mmStep(s kit.ISA, e kit.Elem) int { return mmGathers * s.Lanes(e.Size) }

// selMinMax generates sel<Mode><E>[Valid]<ISA>: the lanewise min and/or
// max of x[sel[k]] (with valid, of the entries whose bit off+sel[k] of
// bits is set). Float lanes fold as v < acc ? v : acc (v > acc for max),
// so a NaN never enters an accumulator; it is noted by an unordered
// compare and reported in nan. Which of equal values wins is unspecified
// (the caller resolves ±0 in selection order). The accumulators start at
// +Inf/-Inf for floats and at the integer limits; with valid, the kernel
// also counts the valid entries. An extreme the mode does not compute is
// returned as the other one.
func selMinMax(s kit.ISA, e kit.Elem, m mode, valid bool) {
	lanes := s.Lanes(e.Size)
	step := mmStep(s, e)
	v := ""
	if valid {
		v = "Valid"
	}
	name := fmt.Sprintf("sel%s%s%s%s", m, e.Name, v, s)
	sig := fmt.Sprintf("func(x []%s, sel []uint32) (lo, hi %s, nan bool)", e.GoType, e.GoType)
	if valid {
		sig = fmt.Sprintf("func(x []%s, sel []uint32, bits []byte, off int) (lo, hi %s, nan bool, valid int)", e.GoType, e.GoType)
	}
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	what := map[mode]string{modeMin: "the min", modeMax: "the max", modeBoth: "the min and max"}[m]
	doc := fmt.Sprintf("%s returns %s of x[sel[k]] lane by lane, ties unresolved, and whether one was NaN; len(sel) must be a multiple of %d and every index below min(len(x), 2^31).", name, what, step)
	if valid {
		doc = fmt.Sprintf("%s returns %s of the x[sel[k]] whose bit off+sel[k] of bits is set, lane by lane, ties unresolved, whether one was NaN and how many were valid; len(sel) must be a multiple of %d, len(bits) at least 4, off below 8 and every index below min(len(x), 2^31).", name, what, step)
	}
	Doc(doc)

	x := Load(Param("x").Base(), GP64())
	p, n := kit.Slice("sel")

	nacc := 4
	if s == kit.AVX2 {
		nacc = 2
	}
	wantLo, wantHi := m != modeMax, m != modeMin
	var lo, hi []reg.VecVirtual
	if wantLo {
		lo = broadcastN(s, e, minIdentity(e), nacc)
	}
	if wantHi {
		hi = broadcastN(s, e, maxIdentity(e), nacc)
	}

	// Validity state (AVX-512 only).
	var bm, last, cnt reg.GPVirtual
	var vOff, vLast, one reg.VecVirtual
	if valid {
		bm, last = kit.Slice("bits")
		SUBQ(U8(4), last)
		off := GP64()
		Load(Param("off"), off)
		vOff, vLast, one = ZMM(), ZMM(), ZMM()
		VPBROADCASTD(off.As32(), vOff)
		VPBROADCASTD(last.As32(), vLast)
		c := GP32()
		MOVL(U32(1), c)
		VPBROADCASTD(c, one)
		cnt = GP64()
		XORQ(cnt, cnt)
	}
	// NaN state: an opmask (AVX-512) or a vector of compare results.
	var knan reg.OpmaskVirtual
	var vnan reg.VecVirtual
	if e.Float {
		if s == kit.AVX512 {
			knan = K()
			KXORW(knan, knan, knan)
		} else {
			vnan = YMM()
			kit.Zero(vnan)
		}
	}
	var ones reg.VecVirtual
	if s == kit.AVX2 {
		ones = YMM()
		VPCMPEQQ(ones, ones, ones)
	}

	kit.Loop("gather", n, step, func() {
		// With validity, each 16 entries' bits come first, as one opmask
		// per gather, then their gathers.
		per := mmGathers
		if valid {
			per = 16 / lanes
		}
		for g0 := 0; g0 < mmGathers; g0 += per {
			var masks []reg.OpmaskVirtual
			if valid {
				{
					pos, q, w, sh := ZMM(), ZMM(), ZMM(), ZMM()
					VPADDD(Mem{Base: p, Disp: g0 * lanes * 4}, vOff, pos)
					VPSRLD(U8(3), pos, q)
					VPMINUD(vLast, q, q)
					km := K()
					KXNORW(km, km, km)
					kit.Zero(w)
					VPGATHERDD(Mem{Base: bm, Index: q, Scale: 1}, km, w)
					VPSLLD(U8(3), q, q)
					VPSUBD(q, pos, sh)
					VPSRLVD(sh, w, w)
					kv := K()
					VPTESTMD(one, w, kv)
					r := GP32()
					KMOVW(kv, r)
					POPCNTL(r, r)
					ADDQ(r.As64(), cnt)
					if e.Size == 8 {
						khi := K()
						KSHIFTRW(U8(8), kv, khi)
						masks = append(masks, kv, khi)
					} else {
						masks = append(masks, kv)
					}
				}
			}
			for g := g0; g < g0+per; g++ {
				a := g % nacc
				val := s.Vec()
				kit.Zero(val)
				mem := Mem{Base: x, Scale: uint8(e.Size)}
				if s == kit.AVX512 {
					var idx reg.VecVirtual
					if e.Size == 8 {
						idx = YMM()
					} else {
						idx = ZMM()
					}
					VMOVDQU32(Mem{Base: p, Disp: g * lanes * 4}, idx)
					mem.Index = idx
					kg := K()
					var km reg.OpmaskVirtual
					if valid {
						km = masks[g-g0]
						KMOVW(km, kg)
					} else {
						KXNORW(kg, kg, kg)
					}
					gather(e, s, mem, kg, nil, val)
					if wantLo {
						fold512(e, modeMin, val, km, lo[a])
					}
					if wantHi {
						fold512(e, modeMax, val, km, hi[a])
					}
					if e.Float {
						kn := K()
						if km != nil {
							cmpUnord(e, val, km, kn)
						} else {
							cmpUnord(e, val, nil, kn)
						}
						KORW(kn, knan, knan)
					}
				} else {
					var idx reg.VecVirtual
					if e.Size == 8 {
						idx = XMM()
						VMOVDQU(Mem{Base: p, Disp: g * lanes * 4}, idx)
					} else {
						idx = YMM()
						VMOVDQU(Mem{Base: p, Disp: g * lanes * 4}, idx)
					}
					mem.Index = idx
					mk := YMM()
					VMOVDQA(ones, mk)
					gather(e, s, mem, nil, mk, val)
					if wantLo {
						fold2(e, modeMin, val, lo[a])
					}
					if wantHi {
						fold2(e, modeMax, val, hi[a])
					}
					if e.Float {
						t := YMM()
						if e.Size == 8 {
							VCMPPD(U8(3), val, val, t)
						} else {
							VCMPPS(U8(3), val, val, t)
						}
						VORPD(t, vnan, vnan)
					}
				}
			}
		}
		ADDQ(U32(step*4), p)
	})

	var rlo, rhi reg.Register
	if wantLo {
		rlo = reduce(s, e, modeMin, lo)
	}
	if wantHi {
		rhi = reduce(s, e, modeMax, hi)
	}
	if rlo == nil {
		rlo = rhi
	}
	if rhi == nil {
		rhi = rlo
	}
	Store(rlo, ReturnIndex(0))
	Store(rhi, ReturnIndex(1))
	nb := GP8()
	if e.Float {
		if s == kit.AVX512 {
			KORTESTW(knan, knan)
		} else {
			VPTEST(vnan, vnan)
		}
		SETNE(nb)
	} else {
		XORL(nb.As32(), nb.As32())
	}
	Store(nb, ReturnIndex(2))
	if valid {
		Store(cnt, ReturnIndex(3))
	}
	kit.Ret()
}

func minIdentity(e kit.Elem) uint64 {
	switch {
	case e.Float && e.Size == 8:
		return 0x7FF0000000000000
	case e.Float:
		return 0x7F800000
	case e.Signed:
		return (1 << (8*e.Size - 1)) - 1
	}
	return 1<<(8*e.Size) - 1
}

func maxIdentity(e kit.Elem) uint64 {
	switch {
	case e.Float && e.Size == 8:
		return 0xFFF0000000000000
	case e.Float:
		return 0xFF800000
	case e.Signed:
		return 1 << (8*e.Size - 1)
	}
	return 0
}

// broadcastN returns n vectors with every lane set to bits c.
func broadcastN(s kit.ISA, e kit.Elem, c uint64, n int) []reg.VecVirtual {
	r := GP64()
	MOVQ(U64(c), r)
	t := XMM()
	MOVQ(r, t)
	first := s.Vec()
	if e.Size == 8 {
		VPBROADCASTQ(t, first)
	} else {
		VPBROADCASTD(t, first)
	}
	out := []reg.VecVirtual{first}
	for len(out) < n {
		v := s.Vec()
		if s == kit.AVX512 {
			VMOVDQU64(first, v)
		} else {
			VMOVDQU(first, v)
		}
		out = append(out, v)
	}
	return out
}

// gather loads x lanes through an opmask (AVX-512) or a mask vector (AVX2).
func gather(e kit.Elem, s kit.ISA, mem Mem, k reg.OpmaskVirtual, mk, dst reg.VecVirtual) {
	switch {
	case s == kit.AVX512 && e.Float && e.Size == 8:
		VGATHERDPD(mem, k, dst)
	case s == kit.AVX512 && e.Float:
		VGATHERDPS(mem, k, dst)
	case s == kit.AVX512 && e.Size == 8:
		VPGATHERDQ(mem, k, dst)
	case s == kit.AVX512:
		VPGATHERDD(mem, k, dst)
	case e.Float && e.Size == 8:
		VGATHERDPD(mk, mem, dst)
	case e.Float:
		VGATHERDPS(mk, mem, dst)
	case e.Size == 8:
		VPGATHERDQ(mk, mem, dst)
	default:
		VPGATHERDD(mk, mem, dst)
	}
}

// fold512 folds v into acc (merge-masked by k when k is not nil):
// acc = v < acc ? v : acc for min, v > acc for max.
func fold512(e kit.Elem, m mode, v reg.Register, k reg.OpmaskVirtual, acc reg.Register) {
	ops := []Op{acc, v}
	if k != nil {
		ops = append(ops, k)
	}
	ops = append(ops, acc)
	minOp(e, m)(ops...)
}

// minOp is the lanewise min or max instruction of e (AVX-512 forms, or the
// AVX2 ones where they exist).
func minOp(e kit.Elem, m mode) func(...Op) {
	lo := m == modeMin
	switch {
	case e.Float && e.Size == 8:
		return pick(lo, VMINPD, VMAXPD)
	case e.Float:
		return pick(lo, VMINPS, VMAXPS)
	case e.Size == 8 && e.Signed:
		return pick(lo, VPMINSQ, VPMAXSQ)
	case e.Size == 8:
		return pick(lo, VPMINUQ, VPMAXUQ)
	case e.Signed:
		return pick(lo, VPMINSD, VPMAXSD)
	}
	return pick(lo, VPMINUD, VPMAXUD)
}

func pick(lo bool, a, b func(...Op)) func(...Op) {
	if lo {
		return a
	}
	return b
}

// fold2 is fold512 for AVX2: int64 lanes by compare and blend.
func fold2(e kit.Elem, m mode, v, acc reg.Register) {
	if e.Size == 8 && !e.Float {
		var c reg.Register = YMM()
		if acc.Size() == 16 {
			c = XMM()
		}
		if m == modeMin {
			VPCMPGTQ(v, acc, c) // acc > v
		} else {
			VPCMPGTQ(acc, v, c) // v > acc
		}
		VBLENDVPD(c, v, acc, acc)
		return
	}
	minOp(e, m)(acc, v, acc)
}

// cmpUnord sets kn to the (k-masked) lanes of v that are NaN.
func cmpUnord(e kit.Elem, v reg.VecVirtual, k, kn reg.OpmaskVirtual) {
	ops := []Op{U8(3), v, v}
	if k != nil {
		ops = append(ops, k)
	}
	ops = append(ops, kn)
	if e.Size == 8 {
		VCMPPD(ops...)
	} else {
		VCMPPS(ops...)
	}
}

// reduce folds the accumulators and their lanes into one element: an XMM
// register for floats, a general register for integers.
func reduce(s kit.ISA, e kit.Elem, m mode, acc []reg.VecVirtual) reg.Register {
	op := func(a, b reg.VecVirtual) { // b = fold(b, a)
		if s == kit.AVX2 {
			fold2(e, m, a, b)
			return
		}
		fold512(e, m, a, nil, b)
	}
	for _, a := range acc[1:] {
		op(a, acc[0])
	}
	v := acc[0]
	if s == kit.AVX512 {
		h := YMM()
		VEXTRACTI64X4(U8(1), v, h)
		fold512(e, m, h, nil, v.AsY())
		hx := XMM()
		VEXTRACTI32X4(U8(1), v.AsY(), hx)
		fold512(e, m, hx, nil, v.AsX())
	} else {
		hx := XMM()
		VEXTRACTI128(U8(1), v.AsY(), hx)
		fold2(e, m, hx, v.AsX())
	}
	x := v.AsX()
	shuf := []uint8{0x4E}
	if e.Size == 4 {
		shuf = append(shuf, 0xB1)
	}
	for _, c := range shuf {
		t := XMM()
		VPSHUFD(U8(c), x, t)
		if s == kit.AVX512 {
			fold512(e, m, t, nil, x)
		} else {
			fold2(e, m, t, x)
		}
	}
	if e.Float {
		return x
	}
	if e.Size == 8 {
		r := GP64()
		VMOVQ(x, r)
		return r
	}
	r := GP32()
	VMOVD(x, r)
	return r
}

// selOneValid generates sel<Min|Max><E>ValidAVX512, the single-extreme
// kernels with validity. Validity costs a gather of bitmap words, so it is
// read only for candidates: each gather of x is compared with its
// accumulator (v < acc or NaN for min), and only when some lane is a
// candidate does an out-of-line block gather those lanes' bits and fold
// the valid ones. After the first few steps candidates are rare. valid is
// the number of valid candidates, not of valid entries: it is zero when
// no valid entry ever beat the identity start (every entry invalid, or
// every valid one equal to the start), and the caller then counts.
func selOneValid(e kit.Elem, m mode) {
	s := kit.AVX512
	lanes := s.Lanes(e.Size)
	step := mmStep(s, e)
	name := fmt.Sprintf("sel%s%sValid%s", m, e.Name, s)
	TEXT(name, NOSPLIT, fmt.Sprintf("func(x []%s, sel []uint32, bits []byte, off int) (lo, hi %s, nan bool, valid int)", e.GoType, e.GoType))
	Pragma("noescape")
	what := map[mode]string{modeMin: "the min", modeMax: "the max"}[m]
	Doc(fmt.Sprintf("%s returns %s of the x[sel[k]] whose bit off+sel[k] of bits is set, lane by lane, ties unresolved, whether one was NaN and how many valid entries beat the running extreme of their lane (zero: count them); len(sel) must be a multiple of %d, len(bits) at least 4, off below 8 and every index below min(len(x), 2^31).", name, what, step))

	x := Load(Param("x").Base(), GP64())
	p, n := kit.Slice("sel")
	id := minIdentity(e)
	if m == modeMax {
		id = maxIdentity(e)
	}
	// One accumulator: it is written only on the out-of-line path, so the
	// compares do not wait on each other, and every lane more would start
	// from the identity and take that path more often early on.
	acc := broadcastN(s, e, id, 1)
	bm, last := kit.Slice("bits")
	SUBQ(U8(4), last)
	off := GP64()
	Load(Param("off"), off)
	vOff, vLast, one := ZMM(), ZMM(), ZMM()
	VPBROADCASTD(off.As32(), vOff)
	VPBROADCASTD(last.As32(), vLast)
	c := GP32()
	MOVL(U32(1), c)
	VPBROADCASTD(c, one)
	cnt := GP64()
	XORQ(cnt, cnt)
	var knan reg.OpmaskVirtual
	if e.Float {
		knan = K()
		KXORW(knan, knan, knan)
	}

	// candidate compares: kc = v beats acc (for floats, or is NaN).
	cand := func(v, a reg.VecVirtual, kc reg.OpmaskVirtual) {
		switch {
		case e.Float && m == modeMin:
			cmpPred(e, 0x19, a, v, kc) // NGE_UQ: !(v >= acc)
		case e.Float:
			cmpPred(e, 0x16, a, v, kc) // NLE_UQ: !(v <= acc)
		case m == modeMin:
			cmpPred(e, 1, a, v, kc) // v < acc
		default:
			cmpPred(e, 6, a, v, kc) // v > acc
		}
	}

	var rare []func()
	kit.Loop("gather", n, step, func() {
		for g := 0; g < mmGathers; g++ {
			val := ZMM()
			kit.Zero(val)
			var idx reg.VecVirtual = ZMM()
			if e.Size == 8 {
				idx = YMM()
			}
			VMOVDQU32(Mem{Base: p, Disp: g * lanes * 4}, idx)
			kg := K()
			KXNORW(kg, kg, kg)
			gather(e, s, Mem{Base: x, Index: idx, Scale: uint8(e.Size)}, kg, nil, val)
			kc := K()
			cand(val, acc[0], kc)
			KORTESTW(kc, kc)
			label := fmt.Sprintf("cand%d", g)
			JNE(LabelRef(label))
			Label(label + "_back")
			a := acc[0]
			disp := g * lanes * 4
			rare = append(rare, func() {
				Label(label)
				// 64-bit elements: 8 indices, in the low half of each vector.
				var pos, q, w, sh, vo, vl, o reg.Register = ZMM(), ZMM(), ZMM(), ZMM(), vOff, vLast, one
				if e.Size == 8 {
					pos, q, w, sh, vo, vl, o = YMM(), YMM(), YMM(), YMM(), vOff.AsY(), vLast.AsY(), one.AsY()
				}
				VPADDD(Mem{Base: p, Disp: disp}, vo, pos)
				VPSRLD(U8(3), pos, q)
				VPMINUD(vl, q, q)
				kk := K()
				KMOVW(kc, kk)
				VPXORD(w, w, w)
				VPGATHERDD(Mem{Base: bm, Index: q, Scale: 1}, kk, w)
				VPSLLD(U8(3), q, q)
				VPSUBD(q, pos, sh)
				VPSRLVD(sh, w, w)
				kv := K()
				VPTESTMD(o, w, kc, kv)
				r := GP32()
				KMOVW(kv, r)
				POPCNTL(r, r)
				ADDQ(r.As64(), cnt)
				fold512(e, m, val, kv, a)
				if e.Float {
					kn := K()
					cmpUnord(e, val, kv, kn)
					KORW(kn, knan, knan)
				}
				JMP(LabelRef(label + "_back"))
			})
		}
		ADDQ(U32(step*4), p)
	})
	r := reduce(s, e, m, acc)
	Store(r, ReturnIndex(0))
	Store(r, ReturnIndex(1))
	nb := GP8()
	if e.Float {
		KORTESTW(knan, knan)
		SETNE(nb)
	} else {
		XORL(nb.As32(), nb.As32())
	}
	Store(nb, ReturnIndex(2))
	Store(cnt, ReturnIndex(3))
	kit.Ret()
	for _, f := range rare {
		f()
	}
}

// cmpPred sets k to the lanes where src1 <pred> src2 (Intel operand
// order: v against acc), for e's compare instruction.
func cmpPred(e kit.Elem, pred uint8, acc, v reg.VecVirtual, k reg.OpmaskVirtual) {
	var f func(...Op)
	switch {
	case e.Float && e.Size == 8:
		f = VCMPPD
	case e.Float:
		f = VCMPPS
	case e.Size == 8 && e.Signed:
		f = VPCMPQ
	case e.Size == 8:
		f = VPCMPUQ
	case e.Signed:
		f = VPCMPD
	default:
		f = VPCMPUD
	}
	f(U8(pred), acc, v, k)
}
