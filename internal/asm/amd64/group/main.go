// Command group generates quiver's amd64 grouped kernels: the exact
// grouped int64 sum's table update, the grouped count, and the min-only
// and max-only table updates (extreme). They are scalar
// (general-purpose registers only, the same code for every vector ISA):
// what they shed against the plain Go loop is its bounds checks and the
// instructions of a branch-free overflow check, which the overflow flag
// of the memory add gives for free (JO, predicted not taken). The element
// type is the parameter of the sum generator (int64 only, for now).
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
	"github.com/quiverlabs/quiver/internal/asm/elem"
)

func main() {
	ConstraintExpr("amd64,!purego")
	addSigned("Int64", 8)
	count()
	for _, name := range []string{"F32", "F64", "I32", "I64", "U32", "U64"} {
		for _, isMax := range []bool{false, true} {
			for _, store := range []bool{false, true} {
				extreme(elem.Named(name), isMax, store)
			}
		}
	}
	kit.GenerateFiles("internal/asm/amd64/group")
}

// unroll is the rows per iteration of the main loops.
const unroll = 4

// addSigned generates groupAdd<T>(acc []int64, x []T, ids []uint32) (n
// int, overflow bool): acc[ids[i]] += x[i] for i = 0, 1, ... in order,
// stopping after the first addition that overflows int64. n is the number
// of rows added (all of them when overflow is false; else the overflowing
// row is the last one added, its wrapped sum stored). The caller
// guarantees len(ids) >= len(x) and every ids[i] < len(acc).
func addSigned(name string, size int) {
	TEXT("groupAdd"+name, NOSPLIT, "func(acc []int64, x []int64, ids []uint32) (n int, overflow bool)")
	Pragma("noescape")
	Doc("groupAdd"+name+" adds x[i] to acc[ids[i]] in row order, stopping after the first",
		"addition that overflows int64; n is the number of rows added. Every ids[i] (i < len(x))",
		"must be below len(acc), and len(ids) >= len(x).")
	acc := Load(Param("acc").Base(), GP64())
	xp, n := kit.Slice("x")
	ids := Load(Param("ids").Base(), GP64())
	i := GP64()
	XORQ(i, i)
	end := GP64()
	MOVQ(n, end)
	ANDQ(I32(-unroll), end)
	g, v := GP64(), GP64()
	row := func(k int) {
		MOVL(Mem{Base: ids, Index: i, Scale: 4, Disp: 4 * k}, g.As32())
		MOVQ(Mem{Base: xp, Index: i, Scale: 8, Disp: size * k}, v)
		ADDQ(v, Mem{Base: acc, Index: g, Scale: 8})
		JO(LabelRef(overflowLabel(k)))
	}
	CMPQ(i, end)
	JGE(LabelRef("tail"))
	Label("loop")
	for k := range unroll {
		row(k)
	}
	ADDQ(U8(unroll), i)
	CMPQ(i, end)
	JL(LabelRef("loop"))
	Label("tail")
	CMPQ(i, n)
	JGE(LabelRef("done"))
	row(0)
	INCQ(i)
	JMP(LabelRef("tail"))
	Label("done")
	Store(i, ReturnIndex(0))
	f := GP8()
	XORL(f.As32(), f.As32())
	Store(f, ReturnIndex(1))
	RET()
	// Row i+k overflowed: i+k+1 rows were added.
	for k := unroll - 1; k >= 0; k-- {
		Label(overflowLabel(k))
		INCQ(i)
	}
	Store(i, ReturnIndex(0))
	t := GP8()
	MOVB(U8(1), t)
	Store(t, ReturnIndex(1))
	RET()
}

func overflowLabel(k int) string { return "overflow" + string(rune('0'+k)) }

// count generates groupCount(count []int, ids []uint32) int:
// count[ids[i]]++ for every i, checking each id against len(count) first
// and stopping at the first that is not below it; the result is the
// number of rows counted (len(ids) when every id is in range).
func count() {
	TEXT("groupCount", NOSPLIT, "func(count []int, ids []uint32) int")
	Pragma("noescape")
	Doc("groupCount adds 1 to count[ids[i]] for each i in order, stopping at the first id",
		"that is not below len(count); it returns the number of rows counted.")
	c, groups := kit.Slice("count")
	ids, n := kit.Slice("ids")
	i := GP64()
	XORQ(i, i)
	end := GP64()
	MOVQ(n, end)
	ANDQ(I32(-unroll), end)
	var gs [unroll]reg.GPVirtual
	for k := range gs {
		gs[k] = GP64()
	}
	CMPQ(i, end)
	JGE(LabelRef("ctail"))
	Label("cloop")
	for k := range unroll {
		MOVL(Mem{Base: ids, Index: i, Scale: 4, Disp: 4 * k}, gs[k].As32())
		CMPQ(gs[k], groups)
		JAE(LabelRef(badLabel(k)))
		INCQ(Mem{Base: c, Index: gs[k], Scale: 8})
	}
	ADDQ(U8(unroll), i)
	CMPQ(i, end)
	JL(LabelRef("cloop"))
	Label("ctail")
	CMPQ(i, n)
	JGE(LabelRef("cdone"))
	MOVL(Mem{Base: ids, Index: i, Scale: 4}, gs[0].As32())
	CMPQ(gs[0], groups)
	JAE(LabelRef(badLabel(0)))
	INCQ(Mem{Base: c, Index: gs[0], Scale: 8})
	INCQ(i)
	JMP(LabelRef("ctail"))
	// Row i+k is out of range: i+k rows were counted.
	for k := unroll - 1; k >= 1; k-- {
		Label(badLabel(k))
		INCQ(i)
	}
	Label(badLabel(0))
	Label("cdone")
	Store(i, ReturnIndex(0))
	RET()
}

func badLabel(k int) string { return "bad" + string(rune('0'+k)) }

// extremeUnroll is the rows per iteration of the min and max loops: with
// eight, the loop's own instructions are a tenth of the row's.
const extremeUnroll = 8

// Empty marks and canonical NaNs of the float tables (kernel/group_minmax.go).
const (
	mark32  = 0x7FE00000
	mark64  = 0x7FFC000000000000
	canon32 = 0x7FC00000
	canon64 = 0x7FF8000000000000
)

// extreme generates groupMin<E> or groupMax<E>(acc, x []T, ids []uint32)
// int: the min-only (max-only) table update of kernel.GroupMinDense, for
// every row in order, checking each id against len(acc) before its entry
// is read and stopping at the first one out of range; the result is the
// number of rows taken. A row is an id load, the id check (a compare and a
// branch, fused), the row's load and a compare with the entry in memory
// (for the maximum, the entry's load and a compare with the row in
// memory), and a branch taken for a new extreme or a NaN on either side,
// which goes to the rare code below the loop: store the row; for floats,
// when the compare was unordered, the entry's bits tell the empty mark
// (take the row, canonical if NaN) from a NaN seen before (stays) and from
// a number (a NaN row stores the canonical NaN).
//
// With store, groupMinStore<E> (groupMaxStore<E>) is the same update with
// no branch on the comparison: the entry is loaded, the smaller (larger)
// of it and the row, the entry on a tie, taken by MINSD/MAXSD or a CMOV,
// and stored back every row; for floats the compare's parity flag sends
// an unordered pair (a NaN or the empty mark) to the rare code. It wins
// where new extremes are frequent (few rows per group: the branch
// mispredicts), and loses where a group's rows follow each other closely
// (each store feeds the next load of the entry).
func extreme(e elem.Elem, isMax, store bool) {
	op := "Min"
	if isMax {
		op = "Max"
	}
	variant := op
	if store {
		variant += "Store"
	}
	name := "group" + variant + e.Name
	TEXT(name, NOSPLIT, "func(acc []"+e.GoType+", x []"+e.GoType+", ids []uint32) int")
	Pragma("noescape")
	if store {
		Doc(name+" is group"+op+e.Name+" with no branch on the comparison: every row's entry is",
			"stored back. len(ids) >= len(x).")
	} else {
		Doc(name+" updates the "+strings.ToLower(op)+"imum table acc with x[i] for each i in order (kernel.Group"+op+"Dense),",
			"stopping at the first id that is not below len(acc); it returns the number of rows taken.",
			"len(ids) >= len(x).")
	}
	acc, groups := kit.Slice("acc")
	xp, n := kit.Slice("x")
	ids := Load(Param("ids").Base(), GP64())
	i := GP64()
	XORQ(i, i)
	end := GP64()
	MOVQ(n, end)
	ANDQ(I32(-extremeUnroll), end)
	var mark, canon reg.GPVirtual
	if e.Float {
		mark, canon = GP64(), GP64()
		if e.Size == 4 {
			MOVL(U32(mark32), mark.As32())
			MOVL(U32(canon32), canon.As32())
		} else {
			MOVQ(U64(mark64), mark)
			MOVQ(U64(canon64), canon)
		}
	}
	g := GP64()
	v := GP64()
	xv, av := XMM(), XMM()
	pre := strings.ToLower(variant) + e.Name
	lbl := func(what string, k int) string { return pre + what + string(rune('0'+k)) }
	xAt := func(off int) Mem { return Mem{Base: xp, Index: i, Scale: uint8(e.Size), Disp: e.Size * off} }
	entry := Mem{Base: acc, Index: g, Scale: uint8(e.Size)}
	// row k of the code reads row i+off (the tail's row, k = extremeUnroll,
	// reads row i).
	row := func(k, off int) {
		MOVL(Mem{Base: ids, Index: i, Scale: 4, Disp: 4 * off}, g.As32())
		CMPQ(g, groups)
		JAE(LabelRef(lbl("bad", off)))
		switch {
		case store && e.Float:
			// PF: unordered; else the extreme of the two, the entry on a tie.
			mov(e, xAt(off), xv)
			mov(e, entry, av)
			ucomis(e, av, xv)
			JPS(LabelRef(lbl("nan", k)))
			switch {
			case isMax && e.Size == 4:
				MAXSS(av, xv)
			case isMax:
				MAXSD(av, xv)
			case e.Size == 4:
				MINSS(av, xv)
			default:
				MINSD(av, xv)
			}
			mov(e, xv, entry)
		case store:
			a := GP64()
			if e.Size == 4 {
				MOVL(xAt(off), v.As32())
				MOVL(entry, a.As32())
				CMPL(v.As32(), a.As32())
				switch {
				case !isMax && e.Signed:
					CMOVLLT(v.As32(), a.As32())
				case !isMax:
					CMOVLCS(v.As32(), a.As32())
				case e.Signed:
					CMOVLGT(v.As32(), a.As32())
				default:
					CMOVLHI(v.As32(), a.As32())
				}
				MOVL(a.As32(), entry)
			} else {
				MOVQ(xAt(off), v)
				MOVQ(entry, a)
				CMPQ(v, a)
				switch {
				case !isMax && e.Signed:
					CMOVQLT(v, a)
				case !isMax:
					CMOVQCS(v, a)
				case e.Signed:
					CMOVQGT(v, a)
				default:
					CMOVQHI(v, a)
				}
				MOVQ(a, entry)
			}
		case e.Float && !isMax:
			// CF: x < entry, or unordered.
			mov(e, xAt(off), xv)
			ucomis(e, entry, xv)
			JCS(LabelRef(lbl("rare", k)))
		case e.Float:
			// CF: entry < x, or unordered.
			mov(e, entry, av)
			ucomis(e, xAt(off), av)
			JCS(LabelRef(lbl("rare", k)))
		default:
			if e.Size == 4 {
				MOVL(xAt(off), v.As32())
				CMPL(v.As32(), entry)
			} else {
				MOVQ(xAt(off), v)
				CMPQ(v, entry)
			}
			switch {
			case !isMax && e.Signed:
				JLT(LabelRef(lbl("rare", k)))
			case !isMax:
				JCS(LabelRef(lbl("rare", k)))
			case e.Signed:
				JGT(LabelRef(lbl("rare", k)))
			default:
				JHI(LabelRef(lbl("rare", k)))
			}
		}
		Label(lbl("next", k))
	}
	CMPQ(i, end)
	JGE(LabelRef(pre + "tail"))
	Label(pre + "loop")
	for k := range extremeUnroll {
		row(k, k)
	}
	ADDQ(U8(extremeUnroll), i)
	CMPQ(i, end)
	JL(LabelRef(pre + "loop"))
	Label(pre + "tail")
	// The last rows one at a time.
	CMPQ(i, n)
	JGE(LabelRef(pre + "done"))
	row(extremeUnroll, 0)
	INCQ(i)
	JMP(LabelRef(pre + "tail"))
	Label(pre + "done")
	Store(i, ReturnIndex(0))
	RET()
	// Row i+k's id is out of range: i+k rows were taken.
	for k := extremeUnroll - 1; k >= 1; k-- {
		Label(lbl("bad", k))
		INCQ(i)
	}
	Label(lbl("bad", 0))
	Store(i, ReturnIndex(0))
	RET()
	for k := 0; k <= extremeUnroll; k++ {
		off := k
		if k == extremeUnroll {
			off = 0 // the tail's row reads x at i
		}
		if store && !e.Float {
			continue // no rare code
		}
		if store {
			// The row is in xv; the compare was unordered.
			rareFloat(e, lbl, k, xv, entry, mark, canon)
			continue
		}
		Label(lbl("rare", k))
		if !e.Float {
			if e.Size == 4 {
				MOVL(v.As32(), entry)
			} else {
				MOVQ(v, entry)
			}
			JMP(LabelRef(lbl("next", k)))
			continue
		}
		if isMax {
			mov(e, xAt(off), xv) // the row, which the compare read from memory
		}
		JPS(LabelRef(lbl("nan", k)))
		rareFloat(e, lbl, k, xv, entry, mark, canon)
	}
}

// rareFloat is the rare code of row k of a float kernel: the store of the
// row in xv (label store), and from label nan, where the entry or the row
// is a NaN, the empty mark's and the NaNs' rules.
func rareFloat(e elem.Elem, lbl func(string, int) string, k int, xv reg.VecVirtual, entry Mem, mark, canon reg.GPVirtual) {
	{
		Label(lbl("store", k))
		mov(e, xv, entry)
		JMP(LabelRef(lbl("next", k)))
		Label(lbl("nan", k))
		// The entry or the row is a NaN.
		t := GP64()
		if e.Size == 4 {
			MOVL(entry, t.As32())
			CMPL(t.As32(), mark.As32())
		} else {
			MOVQ(entry, t)
			CMPQ(t, mark)
		}
		JNE(LabelRef(lbl("seen", k)))
		ucomis(e, xv, xv) // the empty mark: the row, canonical if NaN
		JPC(LabelRef(lbl("store", k)))
		JMP(LabelRef(lbl("canon", k)))
		Label(lbl("seen", k))
		ucomis(e, xv, xv) // a number row: the entry is a NaN seen before
		JPC(LabelRef(lbl("next", k)))
		Label(lbl("canon", k)) // a NaN row: the canonical NaN
		if e.Size == 4 {
			MOVL(canon.As32(), entry)
		} else {
			MOVQ(canon, entry)
		}
		JMP(LabelRef(lbl("next", k)))
	}
}

// mov is MOVSS or MOVSD by the element size.
func mov(e elem.Elem, src, dst Op) {
	if e.Size == 4 {
		MOVSS(src, dst)
	} else {
		MOVSD(src, dst)
	}
}

// ucomis is UCOMISS or UCOMISD by the element size.
func ucomis(e elem.Elem, m, x Op) {
	if e.Size == 4 {
		UCOMISS(m, x)
	} else {
		UCOMISD(m, x)
	}
}
