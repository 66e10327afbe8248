// Command group generates quiver's arm64 grouped kernels: the exact
// grouped int64 sum's table update, which stops after the first addition
// that overflows int64 (ADDS sets the V flag; BVS, not taken), and the
// grouped count, which checks each id as it counts. Both are scalar
// (general-purpose registers only). Against the Go loops they shed the
// bounds checks and, for the sum, the four instructions of the branch-free
// overflow check: per row the sum takes two loads of the inputs, a load,
// an ADDS and a store of the entry and the BVS (the Go loop: those, a
// bounds check and four ALU instructions); the count a load, a compare
// and branch, and the load, add and store of the entry.
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
	f.I("MOVD", "ZR", "R4") // i
	f.I("MOVD", "ZR", "R8") // overflow
	f.P("add_loop:")
	f.I("CMP", "R3", "R4")
	f.I("BGE", "add_done")
	f.I("MOVWU", "(R2)(R4<<2)", "R5")
	f.I("MOVD", "(R1)(R4<<3)", "R6")
	f.I("MOVD", "(R0)(R5<<3)", "R7")
	f.I("ADDS", "R6", "R7", "R7")
	f.I("MOVD", "R7", "(R0)(R5<<3)")
	f.I("ADD", "$1", "R4", "R4")
	f.I("BVC", "add_loop")
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
	f.I("MOVD", "ZR", "R4")
	f.P("count_loop:")
	f.I("CMP", "R3", "R4")
	f.I("BGE", "count_done")
	f.I("MOVWU", "(R1)(R4<<2)", "R5")
	f.I("CMP", "R2", "R5")
	f.I("BHS", "count_done")
	f.I("MOVD", "(R0)(R5<<3)", "R6")
	f.I("ADD", "$1", "R6", "R6")
	f.I("MOVD", "R6", "(R0)(R5<<3)")
	f.I("ADD", "$1", "R4", "R4")
	f.I("B", "count_loop")
	f.P("count_done:")
	f.Return(fn, "R4")
	return fn
}
