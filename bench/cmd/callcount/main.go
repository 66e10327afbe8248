// Command callcount calls one exported reduction in a loop, so that an
// instruction counter (valgrind's cachegrind) can measure what one short
// call executes, exactly and whatever else the machine is doing:
//
//	callcount <op> <n> <calls>
//
// bench/callcount.sh runs it for every op and size twice, with <calls>
// and with 0, and prints the difference per call. Ops: Sum64, Sum64m
// (bitmap at offset 3), Sum32, SumInt64, SumInt64m, SumUint32, SumChecked,
// Min64, Min64m, MinMaxI64, Summ64, Count, Repro64; Min64p and Summ64p
// over a column without a zero (Min64's minimum is 0, which takes the
// ±0 rescan).
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/quiverlabs/quiver"
)

var sink float64

//go:noinline
func run(op string, n, reps int) {
	f64 := make([]float64, n)
	f32 := make([]float32, n)
	f64p := make([]float64, n) // no zero: the dense extremes' common path
	i64 := make([]int64, n)
	u32 := make([]uint32, n)
	for i := range f64 {
		f64[i] = float64(i%13) * 0.5
		f64p[i] = f64[i] + 1
		f32[i] = float32(i%7) * 0.25
		i64[i] = int64(i*7919) - 5000
		u32[i] = uint32(i * 31)
	}
	bm := make([]byte, (n+7)/8+8)
	for i := range bm {
		bm[i] = byte(0xB5 ^ i*37)
	}
	m := quiver.Valid(bm, 3)
	var s float64
	switch op {
	case "Sum64":
		for i := 0; i < reps; i++ {
			s += quiver.Sum(f64)
		}
	case "Sum64m":
		for i := 0; i < reps; i++ {
			s += quiver.Sum(f64, m)
		}
	case "Sum32":
		for i := 0; i < reps; i++ {
			s += float64(quiver.Sum(f32))
		}
	case "SumInt64":
		for i := 0; i < reps; i++ {
			s += float64(quiver.SumInt(i64))
		}
	case "SumInt64m":
		for i := 0; i < reps; i++ {
			s += float64(quiver.SumInt(i64, m))
		}
	case "SumUint32":
		for i := 0; i < reps; i++ {
			s += float64(quiver.SumUint(u32))
		}
	case "SumChecked":
		for i := 0; i < reps; i++ {
			s += float64(quiver.SumChecked(i64).Sum)
		}
	case "Min64":
		for i := 0; i < reps; i++ {
			s += quiver.Min(f64)
		}
	case "Min64p":
		for i := 0; i < reps; i++ {
			s += quiver.Min(f64p)
		}
	case "Summ64p":
		for i := 0; i < reps; i++ {
			s += quiver.Summarize(f64p).Max
		}
	case "Min64m":
		for i := 0; i < reps; i++ {
			s += quiver.Min(f64, m)
		}
	case "MinMaxI64":
		for i := 0; i < reps; i++ {
			lo, hi := quiver.MinMax(i64)
			s += float64(lo + hi)
		}
	case "Summ64":
		for i := 0; i < reps; i++ {
			s += quiver.Summarize(f64).Max
		}
	case "Count":
		for i := 0; i < reps; i++ {
			s += float64(quiver.CountValid(n, m))
		}
	case "Repro64":
		for i := 0; i < reps; i++ {
			s += quiver.SumReproducible(f64)
		}
	}
	sink = s
}

func main() {
	n, _ := strconv.Atoi(os.Args[2])
	reps, _ := strconv.Atoi(os.Args[3])
	run(os.Args[1], n, reps)
	fmt.Println(sink)
}
