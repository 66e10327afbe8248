// Package kit holds the avo building blocks shared by quiver's amd64 kernel
// generators: the instruction-set description, loop scaffolding, safe
// validity-bitmap reads, and the expansion of validity bits into AVX2 lane
// masks and AVX-512 opmask registers.
//
// Every helper emits into the function that is currently being built (avo's
// global context), so a generator calls them between TEXT and RET like any
// avo instruction.
//
// Kernel conventions the helpers assume, and every kernel built with them
// keeps:
//
//   - A kernel never reads a byte outside its slices. Vector loads cover
//     whole vectors inside x (the Go wrapper passes a length that is a
//     multiple of the kernel's step and finishes the tail itself), and
//     bitmap reads go through [Bitmap], which never leaves the bitmap.
//   - Every kernel returns through [Ret], which clears the upper vector
//     state (VZEROUPPER) before RET.
//
// A masked loop over a bitmap that starts at any bit offset looks like
// this (32 elements per iteration, an AVX-512 opmask per 8 lanes):
//
//	x, n := kit.Slice("x")
//	bm := kit.LoadBitmap("bitmap", "bits", "off")
//	bm.Loop("masked", n, 32, func(read kit.ReadFunc) {
//		k := kit.KMask(read(0)) // bit j: element j of this iteration
//		for v := 0; v < 4; v++ {
//			VADDPD(Mem{Base: x, Disp: 64 * v}, acc[v], kit.KShift(k, 8*v), acc[v])
//		}
//		ADDQ(U32(32*8), x)
//	})
//	...
//	kit.Ret()
package kit

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// ISA is the vector instruction set a kernel is generated for.
type ISA int

const (
	// AVX2 kernels use 256-bit YMM registers and lane masks expanded from
	// the bitmap (blends, or masked loads where a null may read zero).
	AVX2 ISA = iota
	// AVX512 kernels use 512-bit ZMM registers and opmask registers. They
	// need AVX512F, BW, DQ and VL (and VPOPCNTDQ where a kernel counts
	// bits); the Go side checks those before selecting a kernel.
	AVX512
)

// String is the suffix kernel names carry: "AVX2" or "AVX512".
func (s ISA) String() string {
	if s == AVX512 {
		return "AVX512"
	}
	return "AVX2"
}

// VecBytes is the width of one vector register in bytes.
func (s ISA) VecBytes() int {
	if s == AVX512 {
		return 64
	}
	return 32
}

// Lanes is how many elements of elemBytes bytes one vector holds.
func (s ISA) Lanes(elemBytes int) int { return s.VecBytes() / elemBytes }

// Vec allocates a virtual vector register of the ISA's full width.
func (s ISA) Vec() reg.VecVirtual {
	if s == AVX512 {
		return ZMM()
	}
	return YMM()
}

// Zero sets v to all zero bits (VPXOR of itself, whatever the width).
func Zero(v reg.VecVirtual) {
	if v.Size() == 64 {
		VPXORQ(v, v, v)
		return
	}
	VPXOR(v, v, v)
}

// Ret ends a kernel: VZEROUPPER, then RET, so that no caller pays the
// penalty of dirty upper vector state.
func Ret() {
	VZEROUPPER()
	RET()
}

// MaskedLoadAhead is how far ahead of x, in bytes, a loop that reads x
// through AVX2 masked loads prefetches; see PrefetchMaskedStream.
const MaskedLoadAhead = 512

// PrefetchMaskedStream hints the lines MaskedLoadAhead bytes past x into
// L1 (PREFETCHT0), one for each 64-byte line of an iteration of size
// bytes, in a loop that reads x through VMASKMOVP* or VPMASKMOV*. On an
// AMD EPYC Zen 5 those loads did not pull a stream from L3 in as plain
// loads do: a masked float64 sum over 1M elements took 1.1-1.2x the time
// of the same loop with blends, and with a prefetch the same or less; the
// checked sum needed one for every line, not every other one (H352-H354
// in bench/maskedavx2_test.go). A prefetch never faults and changes no
// result, so an address past the end of x is harmless: it reads nothing
// into the kernel.
func PrefetchMaskedStream(x reg.GPVirtual, bytes int) {
	for off := 0; off < bytes; off += 64 {
		PREFETCHT0(Mem{Base: x, Disp: MaskedLoadAhead + off})
	}
}

// Slice loads a slice parameter's base pointer and length.
func Slice(name string) (base, n reg.GPVirtual) {
	p := Param(name)
	base, n = GP64(), GP64()
	Load(p.Base(), base)
	Load(p.Len(), n)
	return base, n
}

// Loop emits `for remaining >= step { body(); remaining -= step }` with one
// taken branch per iteration. The body advances its own pointers. name
// must be unique within the function; it prefixes the loop's labels.
func Loop(name string, remaining reg.GPVirtual, step int, body func()) {
	top, done := name+"_loop", name+"_done"
	CMPQ(remaining, U32(step))
	JL(LabelRef(done))
	Label(top)
	body()
	SUBQ(U32(step), remaining)
	CMPQ(remaining, U32(step))
	JGE(LabelRef(top))
	Label(done)
}

// Bitmap reads validity bits for the element at a running position. Element
// i of the kernel's input is valid when bit Off+i of the bitmap is set, LSB
// first within each byte, and Off need not be a multiple of 8.
//
// The read is an 8-byte load at byte (p>>3) shifted right by p&7, except
// near the end of the bitmap, where the load is moved back to start at byte
// len-8 and the shift grows to match. The load therefore never leaves the
// bitmap, and the bits of every element whose bit lies inside the bitmap
// are present: at least the first 57 requested bits away from the end,
// and all bits up to the bitmap's last byte near it. Reads of at most 32
// bits (what every kernel asks for at a time) are always complete for
// elements inside the input.
//
// A bitmap shorter than 8 bytes (only tiny inputs have one) is first
// copied byte by byte into an 8-byte local of the kernel's frame, and the
// reads use that copy.
type Bitmap struct {
	Base reg.GPVirtual // address of byte 0
	Last reg.GPVirtual // len-8: the highest byte index an 8-byte load may start at
	Pos  reg.GPVirtual // bit index of the element the kernel is at
}

// LoadBitmap loads the bitmap slice parameter bits and the bit offset
// parameter off into a Bitmap positioned at element 0. name prefixes the
// labels it emits (unique within the function).
func LoadBitmap(name, bits, off string) Bitmap {
	b := Bitmap{Base: GP64(), Last: GP64(), Pos: GP64()}
	p := Param(bits)
	Load(p.Base(), b.Base)
	Load(p.Len(), b.Last)
	Load(Param(off), b.Pos)
	SUBQ(U8(8), b.Last)
	JGE(LabelRef(name + "_long"))

	Comment("Bitmap shorter than 8 bytes: read it from a zero-padded copy,")
	Comment("assembled in a register (last byte first) and stored at once, so")
	Comment("that the 8-byte loads of the copy forward from that one store.")
	local := AllocLocal(8)
	i, w, t := GP64(), GP64(), GP64()
	XORQ(w, w)
	LEAQ(Mem{Base: b.Last, Disp: 8}, i) // len
	Label(name + "_copy")
	DECQ(i)
	JL(LabelRef(name + "_copied"))
	MOVBQZX(Mem{Base: b.Base, Index: i, Scale: 1}, t)
	SHLQ(U8(8), w)
	ORQ(t, w)
	JMP(LabelRef(name + "_copy"))
	Label(name + "_copied")
	MOVQ(w, local)
	LEAQ(local, b.Base)
	XORQ(b.Last, b.Last)
	Label(name + "_long")
	return b
}

// Read returns a register whose bit j is the validity bit of the element
// at+j positions past the current one, for j < 32 (and j < 57 away from
// the end of the bitmap). Higher bits hold the validity bits of the
// elements further on, or zero past the bitmap's end or above the bits
// the load reached: mask or ignore them.
func (b Bitmap) Read(at int) reg.GPVirtual {
	p, q, v := GP64(), GP64(), GP64()
	if at == 0 {
		MOVQ(b.Pos, p)
	} else {
		LEAQ(Mem{Base: b.Pos, Disp: at}, p)
	}
	MOVQ(p, q)
	SHRQ(U8(3), q)
	CMPQ(q, b.Last)
	CMOVQGT(b.Last, q)
	MOVQ(Mem{Base: b.Base, Index: q, Scale: 1}, v)
	SHLQ(U8(3), q)
	SUBQ(q, p) // shift = p - 8*q: p&7 normally, more after the clamp
	SHRXQ(p, v, v)
	return v
}

// ReadFunc returns the validity bits of the elements at+j positions past
// the current iteration's first element in bit j of a register, for
// j < 32; higher bits are unspecified.
type ReadFunc func(at int) reg.GPVirtual

// Read64 joins two 32-bit reads into the bits of 64 elements.
//
// The low read's bits 32..63 are not cleared before the join: every bit a
// read returns is either the validity bit of the element it stands for or
// zero (shifted in, or past the bitmap's end), so OR-ing them with the high
// read's bits, which are complete for the elements inside the bitmap,
// gives those same bits. (A MOVL of a register to itself, the usual way to
// clear them, would be dropped by avo's self-move pruning anyway.)
func Read64(read ReadFunc, at int) reg.GPVirtual {
	lo := read(at)
	hi := read(at + 32)
	SHLQ(U8(32), hi)
	ORQ(hi, lo)
	return lo
}

// Loop is [Loop] for a kernel that reads the bitmap: it runs body once per
// step elements while at least step remain, hands it the iteration's
// ReadFunc, and moves the bitmap position on. A body reads at offsets at
// most max(0, step-32) (that is, 32 bits at a time across the iteration).
//
// Most iterations read with two instructions: when step is a multiple of
// 8, bit position p advances by whole bytes and p&7 is fixed, so the read
// is an 8-byte load at a running byte index and a shift by that constant.
// Only the iterations whose loads would pass the end of the bitmap (the
// last few bytes) use the clamped [Bitmap.Read]; the number of fast
// iterations is computed once, before the loop.
func (b Bitmap) Loop(name string, remaining reg.GPVirtual, step int, body func(read ReadFunc)) {
	b.loop(name, remaining, step, false, func(src bitSource) { body(src.read) })
}

// MaskFunc returns an opmask register whose bit j is the validity bit of
// the element at+j positions past the current iteration's first element,
// for j < bits (32 or 64); higher bits are unspecified.
type MaskFunc func(at, bits int) reg.OpmaskVirtual

// MaskLoop is [Bitmap.Loop] for an AVX-512 body that takes its validity
// bits in an opmask register. A body asks for 32 bits at offsets at most
// max(0, step-32) and for 64 at offsets at most step-64.
//
// When the bit position is on a byte boundary at the loop's start (and so
// in every fast iteration), the fast iterations load the opmask straight
// from the bitmap (KMOVD or KMOVQ from memory). Other positions go through
// a general register (load, shift, KMOVQ), and from L2 a masked AVX-512
// float sum fed that way took 1.40x the time of the same loop fed from
// memory on an AMD EPYC Zen 5 class CPU (float64, 10% nulls, 65536
// elements, loop-only): the masked adds wait for the mask's trip from the
// integer registers. With the memory load, Sum over 65536 float64 with
// 10% nulls took 0.69-0.72x its time before on that CPU (H314 in
// bench/maskload_test.go; docs/ledger.md).
func (b Bitmap) MaskLoop(name string, remaining reg.GPVirtual, step int, body func(mask MaskFunc)) {
	b.loop(name, remaining, step, true, func(src bitSource) { body(src.mask) })
}

// MSBLoop is [Bitmap.Loop] for an AVX2 body that takes the iteration's
// validity bits broadcast to every lane of a vector, ready for m.Group
// (the bits of the elements from the iteration's first on, 32 of them at
// least; step is at most 32).
//
// When the bit position is on a byte boundary at the loop's start, the
// fast iterations broadcast the bitmap word straight from memory
// (VPBROADCASTQ m64, or VPBROADCASTD m32 for 32-bit lanes); other
// positions go through a general register (load, shift, VMOVQ,
// VPBROADCAST), and the masked loads then wait for the mask's trip from
// the integer registers, as the AVX-512 opmasks did (see
// [Bitmap.MaskLoop]). Measured in H333-H335 (bench/maskedavx2_test.go).
func (b Bitmap) MSBLoop(name string, remaining reg.GPVirtual, step int, m *MSBMasks, body func(bcast reg.VecVirtual)) {
	if step > 32 {
		panic(fmt.Sprintf("kit: MSBLoop of step %d: a broadcast read holds 32 bits", step))
	}
	b.loop(name, remaining, step, true, func(src bitSource) {
		if src.mem == nil {
			body(m.Broadcast(src.read(0)))
			return
		}
		// The aligned copy's loads lie within the shifted copy's 8-byte
		// load at the same byte (check(0)).
		src.check(0)
		x := YMM()
		if m.laneBytes == 8 {
			VPBROADCASTQ(src.mem(0), x)
		} else {
			VPBROADCASTD(src.mem(0), x)
		}
		body(x)
	})
}

// bitSource is how one copy of a bitmap loop's body reads its bits: read
// gives them in a general register, or mem (in the copy that has it, where
// read is nil) the memory operand of the byte that holds the bit of the
// element at positions past the iteration's first, whose bit position is
// a multiple of 8. check panics on a read at an offset the loop's fast
// count does not keep inside the bitmap.
type bitSource struct {
	read  ReadFunc
	mem   func(at int) Mem
	check func(at int)
}

// mask is the MaskFunc of src.
func (src bitSource) mask(at, bits int) reg.OpmaskVirtual {
	if bits != 32 && bits != 64 {
		panic(fmt.Sprintf("kit: opmask of %d bits", bits))
	}
	if src.mem != nil {
		src.check(at + bits - 32) // the last 32 bits the load covers
		k := K()
		if bits == 64 {
			KMOVQ(src.mem(at), k)
		} else {
			KMOVD(src.mem(at), k)
		}
		return k
	}
	if bits == 64 {
		return KMask(Read64(src.read, at))
	}
	return KMask(src.read(at))
}

// loop emits a bitmap loop (see [Bitmap.Loop]); with aligned, it also
// emits a copy of the fast iterations whose body reads the bitmap from
// memory, taken when the bit position is a whole byte.
func (b Bitmap) loop(name string, remaining reg.GPVirtual, step int, aligned bool, body func(src bitSource)) {
	maxAt := max(0, step-32)
	check := func(at int) {
		if at > maxAt || at%8 != 0 {
			panic(fmt.Sprintf("kit: bitmap read at %d in a loop of step %d", at, step))
		}
	}
	checked := func(read ReadFunc) bitSource {
		return bitSource{check: check, read: func(at int) reg.GPVirtual {
			check(at)
			return read(at)
		}}
	}
	slow := func() {
		Loop(name+"_slow", remaining, step, func() {
			body(checked(b.Read))
			b.Advance(step)
		})
	}
	if step%8 != 0 || step&(step-1) != 0 {
		slow()
		return
	}
	q, sh, cnt, t := GP64(), GP64(), GP64(), GP64()
	Comment("Fast iterations: those whose 8-byte bitmap loads stay inside the bitmap.")
	MOVQ(b.Pos, q)
	SHRQ(U8(3), q)
	MOVQ(b.Pos, sh)
	ANDQ(U8(7), sh)
	// An iteration at byte q loads bytes up to q+maxAt/8+7, which must be
	// at most len-1: q <= Last-maxAt/8. Count the qs that qualify, each
	// step/8 bytes apart, and cap by the iterations remaining.
	MOVQ(b.Last, cnt)
	if maxAt > 0 {
		SUBQ(U32(maxAt/8), cnt)
	}
	SUBQ(q, cnt)
	JL(LabelRef(name + "_slowstart"))
	SHRQ(U8(Log2(step/8)), cnt)
	INCQ(cnt)
	MOVQ(remaining, t)
	SHRQ(U8(Log2(step)), t)
	CMPQ(cnt, t)
	CMOVQGT(t, cnt)
	TESTQ(cnt, cnt)
	JZ(LabelRef(name + "_slowstart"))
	MOVQ(cnt, t)
	SHLQ(U8(Log2(step)), t)
	SUBQ(t, remaining)
	if aligned {
		Comment("Bit position on a byte boundary: the body reads the bitmap from memory.")
		TESTQ(sh, sh)
		JNZ(LabelRef(name + "_fast"))
		Label(name + "_aligned")
		// Every load of this copy lies within the bytes the shifted copy
		// loads (at most 8 from byte q+at/8, at <= maxAt), which the fast
		// count keeps inside the bitmap.
		body(bitSource{
			check: check,
			mem:   func(at int) Mem { return Mem{Base: b.Base, Index: q, Scale: 1, Disp: at / 8} },
		})
		ADDQ(U32(step/8), q)
		DECQ(cnt)
		JNZ(LabelRef(name + "_aligned"))
		JMP(LabelRef(name + "_slowstart"))
	}
	Label(name + "_fast")
	body(checked(func(at int) reg.GPVirtual {
		v := GP64()
		MOVQ(Mem{Base: b.Base, Index: q, Scale: 1, Disp: at / 8}, v)
		SHRXQ(sh, v, v)
		return v
	}))
	ADDQ(U32(step/8), q)
	DECQ(cnt)
	JNZ(LabelRef(name + "_fast"))
	Label(name + "_slowstart")
	LEAQ(Mem{Base: sh, Index: q, Scale: 8}, b.Pos)
	slow()
}

// Log2 is the base-2 logarithm of v, rounded down (exact for the powers
// of two the generators pass: steps, lane and vector counts).
func Log2(v int) int {
	n := 0
	for v > 1 {
		v >>= 1
		n++
	}
	return n
}

// Advance moves the position n elements on.
func (b Bitmap) Advance(n int) {
	ADDQ(U32(n), b.Pos)
}

// KMask moves the low bits of r into a new opmask register (KMOVQ): lane l
// of a masked AVX-512 instruction then follows bit l.
func KMask(r reg.GPVirtual) reg.OpmaskVirtual {
	k := K()
	KMOVQ(r, k)
	return k
}

// KShift returns k shifted right by n bits into a new opmask register, the
// mask of the lanes n elements further on.
func KShift(k reg.OpmaskVirtual, n int) reg.OpmaskVirtual {
	if n == 0 {
		return k
	}
	s := K()
	KSHIFTRQ(U8(n), k, s)
	return s
}

// MSBMasks expands validity bits into AVX2 masks for 32- or 64-bit lanes,
// in the form the blend and masked-load instructions read: lane l's most
// significant bit is the element's validity bit, the other bits are
// unspecified. VBLENDVPS, VBLENDVPD, VMASKMOVPS, VMASKMOVPD and VPMASKMOVQ
// read only that bit, so the masks select whole 32- or 64-bit lanes, for
// floats and integers alike.
//
// A group g is the g-th run of lanes-per-vector elements in a read: group
// g of 64-bit lanes covers bits 4g..4g+3 of the broadcast bits.
type MSBMasks struct {
	laneBytes int
	counts    []reg.VecVirtual
}

// NewMSBMasks prepares masks for groups vectors of lanes of laneBytes (4 or
// 8) bytes: it emits the per-group shift-count constants (once per
// generated file, named after the shape) and loads them into registers.
func NewMSBMasks(laneBytes, groups int) *MSBMasks {
	lanes := 32 / laneBytes
	bits := laneBytes * 8
	if groups*lanes > 32 {
		panic("kit: more than 32 bits per MSB mask read")
	}
	name := fmt.Sprintf("msbshift%dx%d", bits, groups)
	mem := msbConst(name, laneBytes, groups)
	m := &MSBMasks{laneBytes: laneBytes}
	for g := 0; g < groups; g++ {
		c := YMM()
		VMOVDQU(mem.Offset(32*g), c)
		m.counts = append(m.counts, c)
	}
	return m
}

var emitted = map[string]Mem{}

// msbConst returns the shift counts that put bit g*lanes+l at the top of
// lane l: bits-1-(g*lanes+l), one 32-byte vector per group.
func msbConst(name string, laneBytes, groups int) Mem {
	if m, ok := emitted[name]; ok {
		return m
	}
	lanes := 32 / laneBytes
	bits := laneBytes * 8
	m := GLOBL(name, RODATA|NOPTR)
	for g := 0; g < groups; g++ {
		for l := 0; l < lanes; l++ {
			c := bits - 1 - (g*lanes + l)
			if laneBytes == 8 {
				DATA(32*g+8*l, U64(uint64(c)))
			} else {
				DATA(32*g+4*l, U32(uint32(c)))
			}
		}
	}
	emitted[name] = m
	return m
}

// Broadcast copies the low 32 bits of r (or all 64 for 64-bit lanes) into
// every lane of a new vector, ready for Group.
func (m *MSBMasks) Broadcast(r reg.GPVirtual) reg.VecVirtual {
	x := YMM()
	VMOVQ(r, x.AsX())
	if m.laneBytes == 8 {
		VPBROADCASTQ(x.AsX(), x)
	} else {
		VPBROADCASTD(x.AsX(), x)
	}
	return x
}

// Group returns the blend mask of group g from a broadcast read.
func (m *MSBMasks) Group(bcast reg.VecVirtual, g int) reg.VecVirtual {
	x := YMM()
	if m.laneBytes == 8 {
		VPSLLVQ(m.counts[g], bcast, x)
	} else {
		VPSLLVD(m.counts[g], bcast, x)
	}
	return x
}

// ByteMasks expands 32 validity bits into an AVX2 byte mask: byte l is 0xFF
// when bit l is set and 0x00 otherwise, ready for VPAND.
type ByteMasks struct {
	shuf, sel reg.VecVirtual
}

// NewByteMasks emits (once per generated file) and loads the two constants
// the expansion needs: a VPSHUFB control that copies byte l/8 of the
// broadcast bits into byte l, and the bit selector 1<<(l%8).
func NewByteMasks() *ByteMasks {
	shuf, ok := emitted["bytemaskshuf"]
	sel := emitted["bytemasksel"]
	if !ok {
		// VPSHUFB indexes within each 128-bit half, and every dword of
		// both halves holds the same 32 bits, so index l/8 (0..3) finds
		// bits byte l/8 in either half.
		shuf = GLOBL("bytemaskshuf", RODATA|NOPTR)
		for l := 0; l < 32; l++ {
			DATA(l, U8(uint8(l/8)))
		}
		sel = GLOBL("bytemasksel", RODATA|NOPTR)
		for l := 0; l < 32; l++ {
			DATA(l, U8(uint8(1)<<(l%8)))
		}
		emitted["bytemaskshuf"], emitted["bytemasksel"] = shuf, sel
	}
	m := &ByteMasks{shuf: YMM(), sel: YMM()}
	VMOVDQU(shuf, m.shuf)
	VMOVDQU(sel, m.sel)
	return m
}

// Mask returns the byte mask of the low 32 bits of r.
func (m *ByteMasks) Mask(r reg.GPVirtual) reg.VecVirtual {
	x := YMM()
	VMOVQ(r, x.AsX())
	VPBROADCASTD(x.AsX(), x)
	VPSHUFB(m.shuf, x, x)
	VPAND(m.sel, x, x)
	VPCMPEQB(m.sel, x, x)
	return x
}

// HsumQ adds the 64-bit lanes of v into a general register.
func HsumQ(s ISA, v reg.VecVirtual) reg.GPVirtual {
	y := v.AsY()
	if s == AVX512 {
		hi := YMM()
		VEXTRACTI64X4(U8(1), v, hi)
		VPADDQ(hi, y, y)
	}
	x := v.AsX()
	hx := XMM()
	VEXTRACTI128(U8(1), y, hx)
	VPADDQ(hx, x, x)
	VPSHUFD(U8(0x4E), x, hx)
	VPADDQ(hx, x, x)
	r := GP64()
	VMOVQ(x, r)
	return r
}
