package quiver_test

import (
	"fmt"
	"math"

	"github.com/quiverlabs/quiver"
)

// A GROUP BY: SELECT region, sum(amount), min(amount), max(amount),
// count(amount) FROM sales GROUP BY region, with the region names mapped
// to dense ids (for example by a hash table) and a null amount.
func Example_groupBy() {
	regions := []string{"north", "south", "east"}
	amount := []float64{10, 20, 5, math.NaN(), 7, 1}
	region := []uint32{0, 1, 0, 2, 1, 0}
	valid := []byte{0b110111} // amount[3] is null

	var sums quiver.GroupSumState[float64]
	var stats quiver.GroupSummaryState[float64]
	sums.Grow(len(regions))
	stats.Grow(len(regions))
	sums.Add(amount, region, quiver.Valid(valid, 0))
	stats.Add(amount, region, quiver.Valid(valid, 0))
	for g, name := range regions {
		s := stats.Summary(g)
		fmt.Printf("%-5s sum=%v min=%v max=%v count=%d nulls=%d\n", name, sums.Sum(g), s.Min, s.Max, s.Count, s.Nulls)
	}
	// Output:
	// north sum=16 min=1 max=10 count=3 nulls=0
	// south sum=27 min=7 max=20 count=2 nulls=0
	// east  sum=0 min=1.7976931348623157e+308 max=-1.7976931348623157e+308 count=0 nulls=1
}

// Time buckets: samples sorted by time, reduced per minute with the dense
// kernels: each bucket's result is the one-call result over its samples.
func Example_timeBuckets() {
	ts := []int64{0, 15, 42, 61, 90, 119, 185} // seconds, sorted
	val := []float64{1, 2, 3, 4, 5, 6, 7}
	bucket := make([]uint32, len(ts))
	for i, t := range ts {
		bucket[i] = uint32(t / 60)
	}
	bounds := quiver.RunBounds(nil, bucket, 4) // minutes 0..3
	fmt.Println(bounds)
	fmt.Println(quiver.SumWindows(nil, val, bounds))
	fmt.Println(quiver.CountValidWindows(nil, len(val), bounds))
	// Output:
	// [0 3 6 6 7]
	// [6 15 0 7]
	// [3 3 0 1]
}

func ExampleGroupSumState() {
	var s quiver.GroupSumState[float64]
	s.Grow(2)
	s.Add([]float64{0.5, 1, 2}, []uint32{1, 0, 1})
	s.Grow(3) // a new group appears in the next batch
	s.Add([]float64{4, 8}, []uint32{2, 0})
	fmt.Println(s.Sums(nil), s.Sum(2), s.Groups())
	// Output: [9 2.5 4] 4 3
}

func ExampleGroupSumState_Merge() {
	// Two partitions of the rows, reduced on their own, then merged.
	var a, b quiver.GroupSumState[float64]
	a.Grow(2)
	a.Add([]float64{1, 2}, []uint32{0, 1})
	b.Grow(3)
	b.Add([]float64{10, 20}, []uint32{1, 2})
	a.Merge(&b)
	fmt.Println(a.Sums(nil))
	// Output: [1 12 20]
}

func ExampleGroupSumState_AddParallel() {
	x := make([]float64, 1<<18)
	ids := make([]uint32, len(x))
	for i := range x {
		x[i], ids[i] = 0.25, uint32(i%4)
	}
	var s quiver.GroupSumState[float64]
	s.Grow(4)
	s.AddParallel(x, ids, 0) // the same bits for any worker count
	fmt.Println(s.Sums(nil))
	// Output: [16384 16384 16384 16384]
}

func ExampleGroupSumState_Reset() {
	var s quiver.GroupSumState[float64]
	s.Grow(2)
	s.Add([]float64{1, 2}, []uint32{0, 1})
	s.Reset() // the groups stay, empty
	fmt.Println(s.Sums(nil), s.Groups())
	// Output: [0 0] 2
}

func ExampleGroupSumReproducibleState() {
	var s quiver.GroupSumReproducibleState[float64]
	s.Grow(2)
	s.Add([]float64{1e16, 1, -1e16, 0.5}, []uint32{0, 0, 0, 1})
	// Exact per group, rounded once: the 1 survives the cancellation.
	fmt.Println(s.Sums(nil), s.Sum(0) == quiver.SumReproducible([]float64{1e16, 1, -1e16}))
	// Output: [1 0.5] true
}

func ExampleGroupIntSumState() {
	var s quiver.GroupIntSumState[int64]
	s.Grow(2)
	s.Add([]int64{math.MaxInt64, 1, 5}, []uint32{0, 0, 1})
	fmt.Println(s.Checked(0), s.Exact(0), s.Sum(1))
	fmt.Println(s.Sums(nil), s.CheckedSums(nil))
	// Output:
	// {-9223372036854775808 true} 9223372036854775808 5
	// [-9223372036854775808 5] [{-9223372036854775808 true} {5 false}]
}

func ExampleGroupUintSumState() {
	var s quiver.GroupUintSumState[uint8]
	s.Grow(2)
	s.Add([]uint8{200, 100, 7}, []uint32{0, 0, 1}, quiver.Select([]uint32{0, 1, 2}))
	fmt.Println(s.Sum(0), s.Checked(1), s.Exact(0))
	// Output: 300 {7 false} 300
}

func ExampleGroupSummaryState() {
	var s quiver.GroupSummaryState[float64]
	s.Grow(3)
	s.Add([]float64{3, -1, math.NaN(), 2, 0}, []uint32{0, 0, 1, 1, 0})
	lo, hi := s.MinMax(0)
	fmt.Println(lo, hi, s.Min(1), s.Max(2))
	fmt.Println(s.Mins(nil), s.Maxs(nil))
	fmt.Printf("%+v\n", s.Summaries(nil)[0])
	// Output:
	// -1 3 NaN -1.7976931348623157e+308
	// [-1 NaN 1.7976931348623157e+308] [3 NaN -1.7976931348623157e+308]
	// {Min:-1 Max:3 Count:3 Nulls:0}
}

func ExampleGroupCountState() {
	var s quiver.GroupCountState
	s.Grow(2)
	ids := []uint32{0, 1, 1, 0, 1}
	s.Add(ids, quiver.Valid([]byte{0b01011}, 0))
	fmt.Println(s.Counts(nil), s.Count(1))
	// Output: [2 1] 1
}

func ExampleRunBounds() {
	ids := []uint32{0, 0, 2, 2, 2} // sorted; group 1 is empty
	fmt.Println(quiver.RunBounds(nil, ids, 3))
	// Output: [0 2 2 5]
}

func ExampleSumWindows() {
	x := []float64{1, 2, 3, 4, 5, 6}
	fmt.Println(quiver.SumWindows(nil, x, []int{0, 2, 2, 6}))
	// Output: [3 0 18]
}

func ExampleSumReproducibleWindows() {
	x := []float64{1e16, 1, -1e16, 2}
	fmt.Println(quiver.SumReproducibleWindows(nil, x, []int{0, 3, 4}))
	// Output: [1 2]
}

func ExampleSumIntWindows() {
	x := []int32{1, -2, 3, 4}
	fmt.Println(quiver.SumIntWindows(nil, x, []int{0, 2, 4}, quiver.Valid([]byte{0b1101}, 0)))
	// Output: [1 7]
}

func ExampleSumUintWindows() {
	fmt.Println(quiver.SumUintWindows(nil, []uint16{1, 2, 3}, []int{0, 1, 3}))
	// Output: [1 5]
}

func ExampleSumCheckedWindows() {
	x := []int64{math.MaxInt64, 1, 2}
	fmt.Println(quiver.SumCheckedWindows(nil, x, []int{0, 2, 3}))
	// Output: [{-9223372036854775808 true} {2 false}]
}

func ExampleSumCheckedUintWindows() {
	x := []uint64{math.MaxUint64, 1, 2}
	fmt.Println(quiver.SumCheckedUintWindows(nil, x, []int{0, 2, 3}))
	// Output: [{0 true} {2 false}]
}

func ExampleMinWindows() {
	fmt.Println(quiver.MinWindows(nil, []int{5, 3, 9, 1}, []int{0, 2, 4}))
	// Output: [3 1]
}

func ExampleMaxWindows() {
	fmt.Println(quiver.MaxWindows(nil, []int{5, 3, 9, 1}, []int{0, 2, 4}))
	// Output: [5 9]
}

func ExampleMinMaxWindows() {
	lo, hi := quiver.MinMaxWindows(nil, nil, []float64{5, 3, 9, 1}, []int{0, 2, 4})
	fmt.Println(lo, hi)
	// Output: [3 1] [5 9]
}

func ExampleSummarizeWindows() {
	s := quiver.SummarizeWindows(nil, []float64{5, 3, 9, 1}, []int{0, 3, 4}, quiver.Valid([]byte{0b1011}, 0))
	fmt.Printf("%+v\n", s)
	// Output: [{Min:3 Max:5 Count:2 Nulls:1} {Min:1 Max:1 Count:1 Nulls:0}]
}

func ExampleCountValidWindows() {
	fmt.Println(quiver.CountValidWindows(nil, 6, []int{0, 3, 6}, quiver.Valid([]byte{0b101110}, 0)))
	// Output: [2 2]
}

// MergeMapped merges the state of a partition that numbered its groups
// itself: its group j is group remap[j] here (as a key index's merge
// returns it).
func ExampleGroupSumState_MergeMapped() {
	var here, there quiver.GroupSumState[float64]
	here.Grow(3)
	here.Add([]float64{1, 2}, []uint32{0, 2}) // groups: a, b, c
	there.Grow(2)
	there.Add([]float64{10, 20, 30}, []uint32{0, 1, 1}) // its groups: c, a
	here.MergeMapped(&there, []uint32{2, 0})
	fmt.Println(here.Sums(nil))
	// Output:
	// [51 0 12]
}

// The cheapest grouped minimum: one value per group. An empty group gives
// Min's identity, a group with a NaN the canonical NaN, and a lone +Inf
// is its group's minimum.
func ExampleGroupMinState() {
	var s quiver.GroupMinState[float64]
	s.Grow(4)
	s.Add([]float64{3, math.Inf(1), -1, math.NaN(), 2}, []uint32{0, 1, 0, 3, 3})
	fmt.Println(s.Mins(nil))
	fmt.Println(s.Min(2) == math.MaxFloat64)
	// Output:
	// [-1 +Inf 1.7976931348623157e+308 NaN]
	// true
}

func ExampleGroupMaxState() {
	var s quiver.GroupMaxState[int32]
	s.Grow(3)
	s.Add([]int32{3, 9, -1, 4}, []uint32{0, 0, 2, 2})
	fmt.Println(s.Maxs(nil), s.Max(2))
	// Output: [9 -2147483648 4] 4
}

// Two consecutive pieces of a column, reduced on their own and merged in
// input order: the result of one Add over the whole column.
func ExampleGroupMinState_Merge() {
	var a, b quiver.GroupMinState[float64]
	a.Grow(2)
	a.Add([]float64{0, 5}, []uint32{0, 1})
	b.Grow(2)
	b.Add([]float64{math.Copysign(0, -1), 4}, []uint32{0, 1})
	a.Merge(&b)
	fmt.Println(a.Mins(nil), math.Signbit(a.Min(0)))
	// Output: [0 4] false
}

// A partition that numbered its groups itself (its group 0 is the
// state's group 2, its group 1 the state's group 0).
func ExampleGroupMaxState_MergeMapped() {
	var s, part quiver.GroupMaxState[int64]
	s.Grow(3)
	s.Add([]int64{1, 2, 3}, []uint32{0, 1, 2})
	part.Grow(2)
	part.Add([]int64{10, 20}, []uint32{0, 1})
	s.MergeMapped(&part, []uint32{2, 0})
	fmt.Println(s.Maxs(nil))
	// Output: [20 2 10]
}

func ExampleGroupMinState_AddParallel() {
	x := make([]int64, 100000)
	ids := make([]uint32, len(x))
	for i := range x {
		x[i], ids[i] = int64(i), uint32(i%7)
	}
	var s quiver.GroupMinState[int64]
	s.Grow(7)
	s.AddParallel(x, ids, 4)
	fmt.Println(s.Mins(nil))
	// Output: [0 1 2 3 4 5 6]
}

func ExampleGroupMaxState_Reset() {
	var s quiver.GroupMaxState[float32]
	s.Grow(2)
	s.Add([]float32{1, 2}, []uint32{0, 1})
	s.Reset()
	fmt.Println(s.Groups(), s.Maxs(nil))
	// Output: 2 [-3.4028235e+38 -3.4028235e+38]
}
