// Command group generates quiver's arm64 grouped kernels: the exact
// grouped int64 sum's table update, which stops after the first addition
// that overflows int64 (ADDS sets the V flag; BVS, not taken), and the
// grouped count, which checks each id as it counts. Both are scalar
// (general-purpose registers only) and take four rows an iteration.
// Against the Go loops they shed the bounds checks, the loop's counting
// and branch on three rows of four and, for the sum, the four instructions
// of the branch-free overflow check: per row the sum takes two loads of
// the inputs, a load, an ADDS and a store of the entry and the BVS; the
// count a load, a compare and branch, and the load, add and store of the
// entry.
//
//	go run ./arm64/group -out ../kernel/group_arm64.s -stubs ../kernel/group_stubs_arm64.go
package main

import (
	"fmt"

	"github.com/quiverlabs/quiver/internal/asm/arm64/neon"
)

const generator = "internal/asm/arm64/group"

func main() { neon.Main(generator, generate) }

func generate() (*neon.File, []neon.Func) {
	f := new(neon.File)
	f.Header(generator)
	return f, []neon.Func{addInt64(f), count(f)}
}

// unroll is the rows per iteration of the main loops; a one-row loop
// takes the rest. Four rows an iteration take the loop's own counting and
// branch off three of them: per row, the sum runs six instructions (of
// which one BVS) instead of eight (two branches), the count six instead
// of ten (three branches); see docs/neon.md, "Grouped kernels".
const unroll = 4

// addInt64 emits groupAddInt64(acc []int64, x []int64, ids []uint32) (n
// int, overflow uint64): acc[ids[i]] += x[i] in row order, stopping after
// the first addition that overflows; n rows were added (the overflowing
// one last, its wrapped sum stored) and overflow is 1, or every row and 0.
func addInt64(f *neon.File) neon.Func {
	fn := neon.Func{
		Name: "groupAddInt64",
		Doc: "groupAddInt64 adds x[i] to acc[ids[i]] in row order, stopping after the first\n" +
			"addition that overflows int64; n is the number of rows added and overflow is 1 when\n" +
			"it stopped. Every ids[i] (i < len(x)) must be below len(acc), and len(ids) >= len(x).",
		Params: []string{"acc []int64", "x []int64", "ids []uint32"},
		Result: "(n int, overflow uint64)",
	}
	f.Begin(fn, "R0", "R1", "R2")
	f.Len(fn, "x", "R3")
	f.I("MOVD", "ZR", "R4") // i: the rows of the iterations before this one
	f.I("MOVD", "ZR", "R8") // overflow
	// Row k of an iteration: the id and the value at offsets from
	// pointers that move once an iteration (a post-incremented load costs
	// Neoverse N1 an extra uop), the entry's load, ADDS and store, and the
	// branch taken on overflow.
	row := func(k int) {
		f.I("MOVWU", fmt.Sprintf("%d(R2)", 4*k), "R5")
		f.I("MOVD", fmt.Sprintf("%d(R1)", 8*k), "R6")
		f.I("MOVD", "(R0)(R5<<3)", "R7")
		f.I("ADDS", "R6", "R7", "R7")
		f.I("MOVD", "R7", "(R0)(R5<<3)")
		f.I("BVS", fmt.Sprintf("add_overflow%d", k))
	}
	rows(f, "add", row, stride{"R2", 4}, stride{"R1", 8})
	// Row i+k overflowed: i+k+1 rows were added.
	for k := unroll - 1; k >= 0; k-- {
		f.P("add_overflow%d:", k)
		f.I("ADD", "$1", "R4", "R4")
	}
	f.I("MOVD", "$1", "R8")
	f.P("add_done:")
	f.I("MOVD", "R4", fmt.Sprintf("n+%d(FP)", 72))
	f.I("MOVD", "R8", fmt.Sprintf("overflow+%d(FP)", 80))
	f.I("RET")
	return fn
}

// count emits groupCount(count []int, ids []uint32) int: count[ids[i]]++
// in order, stopping at the first id not below len(count); the result is
// the number of rows counted.
func count(f *neon.File) neon.Func {
	fn := neon.Func{
		Name: "groupCount",
		Doc: "groupCount adds 1 to count[ids[i]] for each i in order, stopping at the first id\n" +
			"that is not below len(count); it returns the number of rows counted.",
		Params: []string{"count []int", "ids []uint32"},
		Result: "int",
	}
	f.Begin(fn, "R0", "R1")
	f.Len(fn, "count", "R2")
	f.Len(fn, "ids", "R3")
	f.I("MOVD", "ZR", "R4") // i: the rows of the iterations before this one
	row := func(k int) {
		f.I("MOVWU", fmt.Sprintf("%d(R1)", 4*k), "R5")
		f.I("CMP", "R2", "R5")
		f.I("BHS", fmt.Sprintf("count_bad%d", k))
		f.I("MOVD", "(R0)(R5<<3)", "R6")
		f.I("ADD", "$1", "R6", "R6")
		f.I("MOVD", "R6", "(R0)(R5<<3)")
	}
	rows(f, "count", row, stride{"R1", 4})
	// Row i+k is out of range: i+k rows were counted.
	for k := unroll - 1; k >= 1; k-- {
		f.P("count_bad%d:", k)
		f.I("ADD", "$1", "R4", "R4")
	}
	f.P("count_bad0:")
	f.P("count_done:")
	f.Return(fn, "R4")
	return fn
}

// stride is a pointer register and the bytes it moves a row.
type stride struct {
	reg   string
	bytes int
}

// rows emits the loops over R3 rows that both kernels run, labels
// <name>_loop and <name>_tail, ending at <name>_done: unroll rows an
// iteration (row(k) reads row k at offsets from the pointers, which then
// move unroll rows; R4 counts the rows of the iterations done, R9 the
// iterations left), then one row at a time.
func rows(f *neon.File, name string, row func(k int), ptrs ...stride) {
	f.I("LSR", fmt.Sprintf("$%d", log2(unroll)), "R3", "R9")
	f.I("CBZ", "R9", name+"_tail")
	f.P("%s_loop:", name)
	for k := range unroll {
		row(k)
	}
	f.I("ADD", fmt.Sprintf("$%d", unroll), "R4", "R4")
	for _, p := range ptrs {
		f.I("ADD", fmt.Sprintf("$%d", unroll*p.bytes), p.reg, p.reg)
	}
	f.I("SUB", "$1", "R9", "R9")
	f.I("CBNZ", "R9", name+"_loop")
	f.P("%s_tail:", name)
	f.I("CMP", "R3", "R4")
	f.I("BGE", name+"_done")
	row(0)
	f.I("ADD", "$1", "R4", "R4")
	for _, p := range ptrs {
		f.I("ADD", fmt.Sprintf("$%d", p.bytes), p.reg, p.reg)
	}
	f.I("B", name+"_tail")
}

// log2 is the base-2 logarithm of a power of two.
func log2(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}
