// Command group generates quiver's amd64 grouped kernels: the exact
// grouped int64 sum's table update and the grouped count. They are scalar
// (general-purpose registers only, the same code for every vector ISA):
// what they shed against the plain Go loop is its bounds checks and the
// instructions of a branch-free overflow check, which the overflow flag
// of the memory add gives for free (JO, predicted not taken). The element
// type is the parameter of the sum generator (int64 only, for now).
//
// Run through go generate from the repository root (see generate.go).
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/quiverlabs/quiver/internal/asm/amd64/kit"
)

func main() {
	ConstraintExpr("amd64,!purego")
	addSigned("Int64", 8)
	count()
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
