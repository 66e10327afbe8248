// Package neon is a small emitter for Go arm64 assembly that uses Advanced
// SIMD (NEON) instructions. Go's assembler spells many NEON instructions
// itself (VLD1, VADD, VAND, VCNT, ...) but not all of them (vector FADD,
// FMIN, SMIN, CMGT, SADDLP, ...). For those the emitter encodes the
// instruction from the Arm A64 encoding fields and writes it as
//
//	WORD $0x4e61d400 // fadd v0.2d, v0.2d, v1.2d
//
// with the instruction in the comment exactly as a disassembler prints it,
// so that a test can disassemble every word and compare.
package neon

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"strings"
)

// Type is an element type the generators are parameterized by.
type Type struct {
	Name   string // Go spelling of the machine type: "int8", "float64"
	Size   int    // bytes per element
	Signed bool   // signed integer (floats are not "signed" here)
	Float  bool
}

// The ten element types.
var (
	I8  = Type{"int8", 1, true, false}
	I16 = Type{"int16", 2, true, false}
	I32 = Type{"int32", 4, true, false}
	I64 = Type{"int64", 8, true, false}
	U8  = Type{"uint8", 1, false, false}
	U16 = Type{"uint16", 2, false, false}
	U32 = Type{"uint32", 4, false, false}
	U64 = Type{"uint64", 8, false, false}
	F32 = Type{"float32", 4, false, true}
	F64 = Type{"float64", 8, false, true}

	Ints   = []Type{I8, I16, I32, I64, U8, U16, U32, U64}
	Floats = []Type{F32, F64}
)

// Suffix is the short name used in function names: I8, U64, F32.
func (t Type) Suffix() string {
	p := "I"
	switch {
	case t.Float:
		p = "F"
	case !t.Signed:
		p = "U"
	}
	return fmt.Sprintf("%s%d", p, t.Size*8)
}

// Lanes is the number of elements in a 128-bit vector.
func (t Type) Lanes() int { return 16 / t.Size }

// Q is the full-width (128-bit) arrangement of t's elements.
func (t Type) Q() Arr { return Arr{Size: t.Size, Lanes: t.Lanes()} }

// Arr is a vector arrangement: Lanes lanes of Size bytes each.
type Arr struct {
	Size, Lanes int
}

// The arrangements the generators use.
var (
	B8  = Arr{1, 8}
	B16 = Arr{1, 16}
	H4  = Arr{2, 4}
	H8  = Arr{2, 8}
	S2  = Arr{4, 2}
	S4  = Arr{4, 4}
	D1  = Arr{8, 1}
	D2  = Arr{8, 2}
)

// q is the Q bit: 1 for a 128-bit vector.
func (a Arr) q() uint32 {
	if a.Size*a.Lanes == 16 {
		return 1
	}
	return 0
}

// size is the two-bit element size field: 0 bytes, 1 halfwords, 2 words,
// 3 doublewords.
func (a Arr) size() uint32 {
	switch a.Size {
	case 1:
		return 0
	case 2:
		return 1
	case 4:
		return 2
	}
	return 3
}

func (a Arr) letter() string { return [...]string{"b", "h", "s", "d"}[a.size()] }

// Go is the arrangement in Go assembler syntax: B16, S4, D2.
func (a Arr) Go() string { return fmt.Sprintf("%s%d", strings.ToUpper(a.letter()), a.Lanes) }

// GNU is the arrangement as the Arm disassembler prints it: 16b, 4s, 2d.
func (a Arr) GNU() string { return fmt.Sprintf("%d%s", a.Lanes, a.letter()) }

// Wide is the arrangement with elements twice as wide and half as many
// lanes, in the same register width: the result of a pairwise widening add.
func (a Arr) Wide() Arr { return Arr{a.Size * 2, a.Lanes / 2} }

// V is a vector register, V0..V31.
type V uint32

// R is a general-purpose register, written as in Go assembler (R0..R30).
type R string

func (v V) gnu(a Arr) string { return fmt.Sprintf("v%d.%s", v, a.GNU()) }
func (v V) g(a Arr) string   { return fmt.Sprintf("V%d.%s", v, a.Go()) }

// Word is one instruction emitted as a WORD: its encoding and its
// disassembly.
type Word struct {
	Enc uint32
	Asm string
}

// File accumulates one generated assembly file.
type File struct {
	buf    bytes.Buffer
	Words  []Word  // every WORD emitted, in order
	Consts []Const // constants for the Go declarations
}

// Bytes returns the file's text so far.
func (f *File) Bytes() []byte { return f.buf.Bytes() }

// P writes one line of Go assembler verbatim (a directive, a label, an
// instruction the Go assembler spells).
func (f *File) P(format string, args ...any) {
	fmt.Fprintf(&f.buf, format, args...)
	f.buf.WriteByte('\n')
}

// I writes one instruction in Go assembler syntax, indented.
func (f *File) I(op string, operands ...string) {
	if len(operands) == 0 {
		f.P("\t%s", op)
		return
	}
	f.P("\t%s\t%s", op, strings.Join(operands, ", "))
}

// Word emits enc as a WORD directive commented with asm.
func (f *File) Word(enc uint32, asm string) {
	f.Words = append(f.Words, Word{enc, asm})
	f.P("\tWORD\t$0x%08x // %s", enc, asm)
}

func reg(v V) uint32 {
	if v > 31 {
		panic(fmt.Sprintf("neon: no register V%d", v))
	}
	return uint32(v)
}

// threeSame encodes the Advanced SIMD "three same" class:
// 0 Q U 01110 size 1 Rm opcode 1 Rn Rd.
func (f *File) threeSame(name string, u, size, opcode uint32, a Arr, d, n, m V) {
	enc := a.q()<<30 | u<<29 | 0b01110<<24 | size<<22 | 1<<21 | reg(m)<<16 | opcode<<11 | 1<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("%s %s, %s, %s", name, d.gnu(a), n.gnu(a), m.gnu(a)))
}

// twoMisc encodes the Advanced SIMD "two-register miscellaneous" class:
// 0 Q U 01110 size 10000 opcode 10 Rn Rd. a is the source arrangement,
// da the destination's as printed.
func (f *File) twoMisc(name string, u, opcode uint32, a, da Arr, d, n V) {
	enc := a.q()<<30 | u<<29 | 0b01110<<24 | a.size()<<22 | 0b10000<<17 | opcode<<12 | 0b10<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("%s %s, %s", name, d.gnu(da), n.gnu(a)))
}

func floatSize(a Arr) uint32 {
	switch a.Size {
	case 4:
		return 0
	case 8:
		return 1
	}
	panic("neon: float arrangement must have 4- or 8-byte lanes")
}

// FADD d = n + m, lanewise (IEEE round to nearest, as the FPCR says).
func (f *File) FADD(a Arr, d, n, m V) { f.threeSame("fadd", 0, floatSize(a), 0b11010, a, d, n, m) }

// FSUB d = n - m, lanewise (IEEE round to nearest, as the FPCR says).
func (f *File) FSUB(a Arr, d, n, m V) { f.threeSame("fsub", 0, 0b10|floatSize(a), 0b11010, a, d, n, m) }

// FCVTL widens the low two float32 lanes of n (FCVTL2: the high two) to
// the two float64 lanes of d, exactly.
func (f *File) FCVTL(d, n V, high bool) {
	var q uint32
	name, src := "fcvtl", n.gnu(Arr{4, 2})
	if high {
		q, name, src = 1, "fcvtl2", n.gnu(S4)
	}
	enc := q<<30 | 0b01110<<24 | 1<<22 | 0b10000<<17 | 0b10111<<12 | 0b10<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("%s %s, %s", name, d.gnu(D2), src))
}

// UMAXV d = the largest of the four unsigned 32-bit lanes of n, in the
// low lane of d (the rest of d is cleared).
func (f *File) UMAXV(d, n V) {
	enc := uint32(1)<<30 | 1<<29 | 0b01110<<24 | 0b10<<22 | 0b11000<<17 | 0b01010<<12 | 0b10<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("umaxv s%d, %s", d, n.gnu(S4)))
}

// UMINV d = the smallest of the four unsigned 32-bit lanes of n, in the
// low lane of d (the rest of d is cleared).
func (f *File) UMINV(d, n V) {
	enc := uint32(1)<<30 | 1<<29 | 0b01110<<24 | 0b10<<22 | 0b11000<<17 | 0b11010<<12 | 0b10<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("uminv s%d, %s", d, n.gnu(S4)))
}

// FMIN d = min(n, m) lanewise; a NaN operand gives a NaN.
func (f *File) FMIN(a Arr, d, n, m V) { f.threeSame("fmin", 0, 0b10|floatSize(a), 0b11110, a, d, n, m) }

// FMAX d = max(n, m) lanewise; a NaN operand gives a NaN.
func (f *File) FMAX(a Arr, d, n, m V) { f.threeSame("fmax", 0, floatSize(a), 0b11110, a, d, n, m) }

// MIN is SMIN or UMIN by signedness, for 8-, 16- and 32-bit lanes.
func (f *File) MIN(signed bool, a Arr, d, n, m V) {
	if signed {
		f.threeSame("smin", 0, a.size(), 0b01101, a, d, n, m)
		return
	}
	f.I("VUMIN", m.g(a), n.g(a), d.g(a)) // the Go assembler spells UMIN
}

// MAX is SMAX or UMAX by signedness, for 8-, 16- and 32-bit lanes.
func (f *File) MAX(signed bool, a Arr, d, n, m V) {
	if signed {
		f.threeSame("smax", 0, a.size(), 0b01100, a, d, n, m)
		return
	}
	f.I("VUMAX", m.g(a), n.g(a), d.g(a))
}

// CMGT (signed) or CMHI (unsigned): d = all ones where n > m.
func (f *File) CMGT(signed bool, a Arr, d, n, m V) {
	if signed {
		f.threeSame("cmgt", 0, a.size(), 0b00110, a, d, n, m)
		return
	}
	f.threeSame("cmhi", 1, a.size(), 0b00110, a, d, n, m)
}

// ORN d = n | ^m (128-bit).
func (f *File) ORN(d, n, m V) { f.threeSame("orn", 0, 0b11, 0b00011, B16, d, n, m) }

// ADDLP is SADDLP or UADDLP: d (wide lanes) = sums of adjacent pairs of
// n's lanes, widened so that no sum can overflow.
func (f *File) ADDLP(signed bool, a Arr, d, n V) {
	u, name := uint32(1), "uaddlp"
	if signed {
		u, name = 0, "saddlp"
	}
	f.twoMisc(name, u, 0b00010, a, a.Wide(), d, n)
}

// ADALP is SADALP or UADALP: d (wide lanes) += sums of adjacent pairs of
// n's lanes, widened.
func (f *File) ADALP(signed bool, a Arr, d, n V) {
	u, name := uint32(1), "uadalp"
	if signed {
		u, name = 0, "sadalp"
	}
	f.twoMisc(name, u, 0b00110, a, a.Wide(), d, n)
}

// SSHR d = n >> sh, arithmetic, lanewise (0 < sh <= lane bits).
func (f *File) SSHR(a Arr, d, n V, sh int) {
	bits := a.Size * 8
	if sh < 1 || sh > bits {
		panic("neon: shift out of range")
	}
	immhb := uint32(2*bits - sh) // immh:immb, the element size marked by immh's top bit
	enc := a.q()<<30 | 0b011110<<23 | immhb<<16 | 1<<10 | reg(n)<<5 | reg(d)
	f.Word(enc, fmt.Sprintf("sshr %s, %s, #%d", d.gnu(a), n.gnu(a), sh))
}

// Go-spelled instructions, with the operand order of the Go assembler
// (sources first, destination last) hidden behind the Arm order.

// ADD d = n + m (integer lanes).
func (f *File) ADD(a Arr, d, n, m V) { f.I("VADD", m.g(a), n.g(a), d.g(a)) }

// AND d = n & m.
func (f *File) AND(d, n, m V) { f.I("VAND", m.g(B16), n.g(B16), d.g(B16)) }

// ORR d = n | m.
func (f *File) ORR(d, n, m V) { f.I("VORR", m.g(B16), n.g(B16), d.g(B16)) }

// EOR d = n ^ m.
func (f *File) EOR(d, n, m V) { f.I("VEOR", m.g(B16), n.g(B16), d.g(B16)) }

// BIF d = m ? d : n, bitwise (insert n where m is clear).
func (f *File) BIF(d, n, m V) { f.I("VBIF", m.g(B16), n.g(B16), d.g(B16)) }

// BIT d = m ? n : d, bitwise (insert n where m is set).
func (f *File) BIT(d, n, m V) { f.I("VBIT", m.g(B16), n.g(B16), d.g(B16)) }

// BSL d = d ? n : m, bitwise (d is the selector and the destination).
func (f *File) BSL(d, n, m V) { f.I("VBSL", m.g(B16), n.g(B16), d.g(B16)) }

// CMTST d = all ones in each lane where n & m is not zero.
func (f *File) CMTST(a Arr, d, n, m V) { f.I("VCMTST", m.g(a), n.g(a), d.g(a)) }

// TBL d[i] = t[idx[i]] (zero for an index past 15), one table register.
func (f *File) TBL(d, t, idx V) { f.I("VTBL", idx.g(B16), "["+t.g(B16)+"]", d.g(B16)) }

// UZP1 d = the even-numbered lanes of n then of m.
func (f *File) UZP1(a Arr, d, n, m V) { f.I("VUZP1", m.g(a), n.g(a), d.g(a)) }

// UZP2 d = the odd-numbered lanes of n then of m.
func (f *File) UZP2(a Arr, d, n, m V) { f.I("VUZP2", m.g(a), n.g(a), d.g(a)) }

// USHR d = n >> sh, logical, lanewise.
func (f *File) USHR(a Arr, d, n V, sh int) { f.I("VUSHR", fmt.Sprintf("$%d", sh), n.g(a), d.g(a)) }

// CNT d = the number of set bits of each byte of n.
func (f *File) CNT(d, n V) { f.I("VCNT", n.g(B16), d.g(B16)) }

// Const loads a 128-bit constant, given as its low and high 64-bit halves.
func (f *File) Const(d V, lo, hi uint64) {
	f.I("VMOVQ", fmt.Sprintf("$0x%016x", lo), fmt.Sprintf("$0x%016x", hi), fmt.Sprintf("V%d", d))
}

// Bytes16 loads a constant given as its sixteen bytes, lowest first.
func (f *File) Bytes16(d V, b [16]byte) {
	var lo, hi uint64
	for i := 7; i >= 0; i-- {
		lo = lo<<8 | uint64(b[i])
		hi = hi<<8 | uint64(b[i+8])
	}
	f.Const(d, lo, hi)
}

// Dup fills every lane of arrangement a of d with the repeated low bits
// of lane value v.
func (f *File) Dup(a Arr, d V, v uint64) {
	var lo uint64
	bits := a.Size * 8
	v &= ^uint64(0) >> (64 - bits)
	for i := 0; i < 64/bits; i++ {
		lo |= v << (i * bits)
	}
	f.Const(d, lo, lo)
}

// Loop emits the counted loop around body, labels loop and done: n
// iterations, n in the general register n, counted down by one SUBS per
// iteration (how scripts/neon-mca.sh counts them); nothing when n is
// zero.
func (f *File) Loop(n R, body func()) {
	f.I("CBZ", string(n), "done")
	f.P("loop:")
	body()
	f.I("SUBS", "$1", string(n), string(n))
	f.I("BNE", "loop")
	f.P("done:")
}

// Load4 loads four consecutive vectors from (p) and advances p by 64.
//
// The pointer moves in an ADD of its own rather than by the load's
// post-index writeback: the same work on every core, but llvm-mca's Apple
// model (its Cyclone model) gives a writeback the load's 5-cycle latency,
// which would make the pointer a 5-cycle chain through every loop
// (docs/neon.md, "Simulated cycles").
func (f *File) Load4(a Arr, p R, v0 V) {
	f.Load4At(a, p, v0)
	f.I("ADD", "$64", string(p))
}

// Load4At loads four consecutive vectors from (p) without advancing.
func (f *File) Load4At(a Arr, p R, v0 V) {
	f.I("VLD1", fmt.Sprintf("(%s)", p), fmt.Sprintf("[%s, %s, %s, %s]", v0.g(a), (v0+1).g(a), (v0+2).g(a), (v0+3).g(a)))
}

// Store4 stores four consecutive vectors to (p).
func (f *File) Store4(a Arr, p R, v0 V) {
	f.I("VST1", fmt.Sprintf("[%s, %s, %s, %s]", v0.g(a), (v0+1).g(a), (v0+2).g(a), (v0+3).g(a)), fmt.Sprintf("(%s)", p))
}

// BuildConstraint is the constraint of every generated file: the file
// names carry _arm64 as well, but the line states it in full so that a
// reader (and a file renamed later) need not rely on the name.
const BuildConstraint = "arm64 && !purego"

// Header writes the generated-file preamble of an assembly file.
func (f *File) Header(generator string) {
	f.P("// Code generated by %s. DO NOT EDIT.", generator)
	f.P("")
	f.P("//go:build %s", BuildConstraint)
	f.P("")
	f.P("#include \"textflag.h\"")
}

// Func is an assembly function and its Go declaration.
type Func struct {
	Name string
	Doc  string // the godoc of the Go declaration, without "//"
	// Params are "name type": a slice ("x []float32", three words in the
	// frame) or one machine word (pointer, array pointer, int, 64-bit
	// integer).
	Params []string
	// Result is the type of the one result (a machine word), "" for
	// none, or a parenthesized list of machine-word results, as in
	// "(a, b float64, n uint64)".
	Result string
}

// param is one parameter of a Func: its name, whether it is a slice, and
// its offset in the argument frame.
type param struct {
	name  string
	slice bool
	off   int
}

// params lays out fn's parameters in the frame: a word each, three for a
// slice (base, len, cap). It returns them and the offset after the last.
func (fn Func) params() ([]param, int) {
	var ps []param
	off := 0
	for _, p := range fn.Params {
		fs := strings.Fields(p)
		if len(fs) != 2 {
			panic(fmt.Sprintf("neon: parameter %q is not \"name type\"", p))
		}
		slice := strings.HasPrefix(fs[1], "[]")
		ps = append(ps, param{fs[0], slice, off})
		if slice {
			off += 24
		} else {
			off += 8
		}
	}
	return ps, off
}

func (fn Func) param(name string) param {
	ps, _ := fn.params()
	for _, p := range ps {
		if p.name == name {
			return p
		}
	}
	panic(fmt.Sprintf("neon: %s has no parameter %s", fn.Name, name))
}

func (fn Func) argSize() int {
	_, n := fn.params()
	if strings.HasPrefix(fn.Result, "(") {
		n += 8 * len(strings.Split(fn.Result, ","))
	} else if fn.Result != "" {
		n += 8
	}
	return n
}

// Begin starts fn as a leaf function without a frame and loads its
// parameters into regs, in order: a word parameter's value, a slice's base
// pointer (its length is loaded with Len).
func (f *File) Begin(fn Func, regs ...R) {
	if len(regs) != len(fn.Params) {
		panic("neon: one register per parameter")
	}
	f.P("")
	f.P("// func %s", fn.decl())
	f.P("TEXT ·%s(SB), NOSPLIT|NOFRAME, $0-%d", fn.Name, fn.argSize())
	ps, _ := fn.params()
	for i, p := range ps {
		if p.slice {
			f.I("MOVD", fmt.Sprintf("%s_base+%d(FP)", p.name, p.off), string(regs[i]))
			continue
		}
		f.I("MOVD", fmt.Sprintf("%s+%d(FP)", p.name, p.off), string(regs[i]))
	}
}

// Len loads the length of fn's slice parameter name into r.
func (f *File) Len(fn Func, name string, r R) {
	p := fn.param(name)
	if !p.slice {
		panic(fmt.Sprintf("neon: %s.%s is not a slice", fn.Name, name))
	}
	f.I("MOVD", fmt.Sprintf("%s_len+%d(FP)", p.name, p.off+8), string(r))
}

// Blocks loads into r the number of whole blocks of 1<<log2 elements in
// fn's slice parameter name: its length shifted right by log2.
func (f *File) Blocks(fn Func, name string, log2 int, r R) {
	f.Len(fn, name, r)
	if log2 > 0 {
		f.I("LSR", fmt.Sprintf("$%d", log2), string(r), string(r))
	}
}

// Return stores r as fn's result and returns.
func (f *File) Return(fn Func, r R) {
	if fn.Result != "" {
		_, off := fn.params()
		f.I("MOVD", string(r), fmt.Sprintf("ret+%d(FP)", off))
	}
	f.I("RET")
}

func (fn Func) decl() string {
	s := fmt.Sprintf("%s(%s)", fn.Name, strings.Join(fn.Params, ", "))
	if fn.Result != "" {
		s += " " + fn.Result
	}
	return s
}

// Const is an integer constant of the generated Go declarations: a
// property of a kernel that the Go calling it must agree with.
type Const struct {
	Name  string
	Value int
	Doc   string // its comment, without "//"
}

// GoConst records a constant for the Go declarations of the file.
func (f *File) GoConst(name string, value int, doc string) {
	f.Consts = append(f.Consts, Const{name, value, doc})
}

// Stubs returns the Go declarations of consts and fns as a generated
// source file of package pkg.
func Stubs(generator, pkg string, consts []Const, fns []Func) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %s. DO NOT EDIT.\n\n//go:build %s\n\npackage %s\n", generator, BuildConstraint, pkg)
	if len(consts) > 0 {
		b.WriteString("\nconst (\n")
		for _, c := range consts {
			for _, l := range strings.Split(strings.TrimSpace(c.Doc), "\n") {
				b.WriteString(strings.TrimRight("\t// "+l, " ") + "\n")
			}
			fmt.Fprintf(&b, "\t%s = %d\n", c.Name, c.Value)
		}
		b.WriteString(")\n")
	}
	for _, fn := range fns {
		b.WriteString("\n")
		for _, l := range strings.Split(strings.TrimSpace(fn.Doc), "\n") {
			b.WriteString(strings.TrimRight("// "+l, " ") + "\n")
		}
		fmt.Fprintf(&b, "//\n//go:noescape\nfunc %s\n", fn.decl())
	}
	return b.Bytes()
}

// Expander turns validity bits into lane masks: the 4*t.Lanes() bits of
// one loop iteration (four vectors of t), held in the low bits of a general
// register, become four vectors whose lanes are all ones for a valid
// element and zero for an invalid one. Element e of the iteration is bit e.
//
// When a lane is at least as wide as the iteration has bits (32- and
// 64-bit elements), the bits are duplicated into every lane and each lane
// tests its own bit: one DUP and a CMTST per vector. Narrower lanes need
// the byte holding their bit first: the bits go into the low lanes of a
// vector and a TBL per vector fans the bytes out, then CMTST tests the bit
// within each byte.
type Expander struct {
	t      Type
	viaTBL bool
	bits   V    // the iteration's bits
	consts [8]V // bit masks (and TBL indices) per vector
}

// NewExpander loads the constants into c0 onward (four registers, or eight
// for 8- and 16-bit elements) and uses bits as scratch.
func NewExpander(f *File, t Type, bits, c0 V) *Expander {
	e := &Expander{t: t, viaTBL: t.Size*8 < 4*t.Lanes(), bits: bits}
	lanes := t.Lanes()
	for v := 0; v < 4; v++ {
		var idx, bit [16]byte
		for j := 0; j < 16; j++ {
			el := v*lanes + j/t.Size
			idx[j] = byte(el >> 3)
			bit[j] = 1 << (el & 7)
		}
		if e.viaTBL {
			e.consts[v], e.consts[4+v] = c0+V(v), c0+V(4+v)
			f.Bytes16(e.consts[v], idx)
			f.Bytes16(e.consts[4+v], bit)
			continue
		}
		e.consts[v] = c0 + V(v)
		var lane [16]byte
		for j := 0; j < lanes; j++ {
			el := v*lanes + j
			lane[j*t.Size+el/8] = 1 << (el & 7) // little-endian lane holding 1<<el
		}
		f.Bytes16(e.consts[v], lane)
	}
	return e
}

// Expand emits the mask computation for the bits in r into masks.
func (e *Expander) Expand(f *File, r R, masks [4]V) {
	a := e.t.Q()
	if !e.viaTBL {
		f.I("VMOV", string(r), e.bits.g(a)) // DUP from a general register
		for v := 0; v < 4; v++ {
			f.CMTST(a, masks[v], e.bits, e.consts[v])
		}
		return
	}
	f.I("VMOV", string(r), fmt.Sprintf("V%d.D[0]", e.bits))
	e.fanOut(f, masks)
}

// fanOut is the TBL expansion of the bits in the low bytes of e.bits.
func (e *Expander) fanOut(f *File, masks [4]V) {
	for v := 0; v < 4; v++ {
		f.TBL(masks[v], e.bits, e.consts[v])
		f.CMTST(B16, masks[v], masks[v], e.consts[4+v])
	}
}

// LoadExpand loads one iteration's BitmapBytes from (p), advances p past
// them and expands them into masks, using r as scratch. For the TBL
// expansion (8- and 16-bit elements, 8 or 4 bytes) the bytes go straight
// into e.bits with a load to the vector register rather than through r and
// a lane insert: in llvm-mca's Neoverse N1 model that took summaryU8Masked
// from 17.0 to 12.0 cycles per 64 bytes and sumI8Masked from 11.0 to 8.0
// (docs/neon.md). For the DUP expansion, a load-and-replicate (LD1R) in
// place of the general register and DUP was slower in every model but
// Apple's, and the general register stays.
func (e *Expander) LoadExpand(f *File, p, r R, masks [4]V) {
	n := BitmapBytes(e.t)
	if !e.viaTBL {
		f.LoadBits(n, n, p, r)
		e.Expand(f, r, masks)
		return
	}
	op := map[int]string{4: "FMOVS", 8: "FMOVD"}[n]
	f.I(op, fmt.Sprintf("(%s)", p), fmt.Sprintf("F%d", e.bits))
	f.I("ADD", fmt.Sprintf("$%d", n), string(p))
	e.fanOut(f, masks)
}

// BitmapBytes is how many bitmap bytes one iteration of four vectors of t
// consumes.
func BitmapBytes(t Type) int { return t.Lanes() / 2 }

// LoadBits emits a load of n (1, 2, 4 or 8) bitmap bytes from (p) into r,
// advancing p by step in an ADD of its own (see Load4).
func (f *File) LoadBits(n, step int, p, r R) {
	op := map[int]string{1: "MOVBU", 2: "MOVHU", 4: "MOVWU", 8: "MOVD"}[n]
	f.I(op, fmt.Sprintf("(%s)", p), string(r))
	f.I("ADD", fmt.Sprintf("$%d", step), string(p))
}

// Main is the body of a generator command: it parses -out (the assembly
// file) and -stubs (the Go declarations), runs gen and writes both.
func Main(generator string, gen func() (*File, []Func)) {
	out := flag.String("out", "", "assembly file to write")
	stubs := flag.String("stubs", "", "Go declarations file to write")
	flag.Parse()
	if *out == "" || *stubs == "" {
		log.Fatal("usage: -out file.s -stubs file.go")
	}
	f, fns := gen()
	src, err := format.Source(Stubs(generator, "kernel", f.Consts, fns))
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, f.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*stubs, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
