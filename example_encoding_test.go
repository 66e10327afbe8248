package quiver_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/quiverlabs/quiver"
)

// Partial aggregation across processes: four goroutines stand for four
// nodes, each reducing its shard of a column and sending its states as
// bytes; the coordinator decodes the states as they arrive, in any order,
// and merges them. The reproducible float sum and the exact integer sum
// are the bits and the total of one call over the whole column.
func Example_partialAggregation() {
	const rows, nodes = 100_000, 4
	prices := make([]float64, rows)
	units := make([]int64, rows)
	for i := range rows {
		prices[i] = float64(i%977)*0.01 + math.Ldexp(float64(i%13-6), 30)
		units[i] = int64(i%101-50) * (1 << 56) // the total leaves int64 on the way
	}

	type message struct{ price, units []byte }
	out := make(chan message, nodes)
	var wg sync.WaitGroup
	for n := range nodes {
		wg.Add(1)
		go func() { // a node: reduce the shard, encode the states, send the bytes
			defer wg.Done()
			lo, hi := n*rows/nodes, (n+1)*rows/nodes
			var p quiver.SumReproducibleState[float64]
			var u quiver.IntSumState[int64]
			p.Add(prices[lo:hi])
			u.Add(units[lo:hi])
			pb, err := p.MarshalBinary()
			if err != nil {
				panic(err)
			}
			ub, err := u.MarshalBinary()
			if err != nil {
				panic(err)
			}
			out <- message{pb, ub}
		}()
	}
	wg.Wait()
	close(out)

	var msgs []message
	for m := range out {
		msgs = append(msgs, m)
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(msgs), func(i, j int) { msgs[i], msgs[j] = msgs[j], msgs[i] })

	var price quiver.SumReproducibleState[float64]
	var total quiver.IntSumState[int64]
	for _, m := range msgs { // the coordinator: decode and merge
		var p quiver.SumReproducibleState[float64]
		var u quiver.IntSumState[int64]
		if err := p.UnmarshalBinary(m.price); err != nil {
			panic(err)
		}
		if err := u.UnmarshalBinary(m.units); err != nil {
			panic(err)
		}
		price.Merge(&p)
		total.Merge(&u)
	}

	one := quiver.SumReproducible(prices)
	fmt.Printf("merged:   %#016x\n", math.Float64bits(price.Sum()))
	fmt.Printf("one call: %#016x\n", math.Float64bits(one))
	var all quiver.IntSumState[int64]
	all.Add(units)
	fmt.Println("exact units merged:  ", total.Exact())
	fmt.Println("exact units one call:", all.Exact())
	fmt.Println("overflows int64:", total.Checked().Overflowed)
	// Output:
	// merged:   0xc211ffe2480e851a
	// one call: 0xc211ffe2480e851a
	// exact units merged:   -32786205287257210880
	// exact units one call: -32786205287257210880
	// overflows int64: true
}

// A float SumState travels with its accumulator layout: decoded where the
// layout's backend runs, it continues bit for bit; elsewhere its run is
// folded into the carry in the layout's order (ADR-107), and the sum is
// the same.
func ExampleSumState_MarshalBinary() {
	x := make([]float64, 1000)
	for i := range x {
		x[i] = 1 / float64(i+1)
	}
	var s quiver.SumState[float64]
	s.Add(x)
	b, err := s.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var d quiver.SumState[float64]
	if err := d.UnmarshalBinary(b); err != nil {
		panic(err)
	}
	fmt.Println(d.Sum() == s.Sum())
	// Output: true
}

// Decoding checks the bytes: a state of another type, a truncated
// encoding or a count the input cannot hold is an error, and the state
// is left as it was.
func ExampleGroupCountState_UnmarshalBinary() {
	var c quiver.GroupCountState
	c.Grow(3)
	c.Add([]uint32{0, 2, 2, 1, 2})
	b, _ := c.MarshalBinary()

	var d quiver.GroupCountState
	fmt.Println(d.UnmarshalBinary(b), d.Counts(nil))
	fmt.Println(d.UnmarshalBinary(b[:len(b)-1]))
	var s quiver.SummaryState[int32]
	fmt.Println(s.UnmarshalBinary(b))
	// Output:
	// <nil> [1 1 3]
	// quiver: decoding GroupCountState: group count 3 needs at least 8 bytes per group, 23 bytes are left
	// quiver: decoding SummaryState[int32]: the encoding holds a GroupCountState
}

// AppendBinary writes a state after the bytes already in a buffer, without
// allocating when the buffer has room: here a record of several states.
func ExampleGroupIntSumState_AppendBinary() {
	var sums quiver.GroupIntSumState[int32]
	sums.Grow(2)
	sums.Add([]int32{5, -7, 11}, []uint32{0, 1, 0})
	var n quiver.CountState
	n.Add(3)
	buf := make([]byte, 0, 256)
	buf, _ = sums.AppendBinary(buf)
	cut := len(buf)
	buf, _ = n.AppendBinary(buf)

	var s quiver.GroupIntSumState[int32]
	var c quiver.CountState
	fmt.Println(s.UnmarshalBinary(buf[:cut]), c.UnmarshalBinary(buf[cut:]))
	fmt.Println(s.Sums(nil), c.Count())
	// Output:
	// <nil> <nil>
	// [16 -7] 3
}

// A reproducible sum's encoding keeps only the digits in use; decoded on
// any machine and merged in any order, it gives one call's bits.
func ExampleSumReproducibleState_MarshalBinary() {
	var a, b quiver.SumReproducibleState[float64]
	a.Add([]float64{1e16, 1})
	b.Add([]float64{-1e16, 0.5})
	enc, err := b.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var back quiver.SumReproducibleState[float64]
	if err := back.UnmarshalBinary(enc); err != nil {
		panic(err)
	}
	a.Merge(&back)
	fmt.Println(a.Sum(), quiver.SumReproducible([]float64{1e16, 1, -1e16, 0.5}))
	// Output:
	// 1.5 1.5
}

// Decoding checks its input: a summary of another element type, or bytes
// cut short, is an error and leaves the receiver as it was.
func ExampleSummaryState_UnmarshalBinary() {
	var s quiver.SummaryState[int32]
	s.Add([]int32{4, -2, 9})
	enc, _ := s.MarshalBinary()

	var wrong quiver.SummaryState[float64]
	fmt.Println(wrong.UnmarshalBinary(enc) != nil)
	var got quiver.SummaryState[int32]
	fmt.Println(got.UnmarshalBinary(enc[:len(enc)-1]) != nil, got.Summary().Count)
	fmt.Printf("%v %+v\n", got.UnmarshalBinary(enc), got.Summary())
	// Output:
	// true
	// true 0
	// <nil> {Min:-2 Max:9 Count:3 Nulls:0}
}

// AppendBinary writes into a buffer of the caller's, without an
// allocation when it has room: several states in one record.
func ExampleCountState_AppendBinary() {
	var valid quiver.CountState
	valid.Add(10, quiver.Valid([]byte{0xff, 0x01}, 0))
	var total quiver.UintSumState[uint16]
	total.Add([]uint16{65535, 65535})
	buf := make([]byte, 0, 64)
	buf, _ = valid.AppendBinary(buf)
	n := len(buf)
	buf, _ = total.AppendBinary(buf)

	var v quiver.CountState
	var u quiver.UintSumState[uint16]
	fmt.Println(v.UnmarshalBinary(buf[:n]), v.Count())
	fmt.Println(u.UnmarshalBinary(buf[n:]), u.Sum())
	// Output:
	// <nil> 9
	// <nil> 131070
}

// An exact integer sum travels as its 128 bits: a total that left int64
// on the way is still exact after a round trip.
func ExampleIntSumState_UnmarshalBinary() {
	var s quiver.IntSumState[int64]
	s.Add([]int64{math.MaxInt64, math.MaxInt64, -5})
	enc, _ := s.MarshalBinary()
	var back quiver.IntSumState[int64]
	fmt.Println(back.UnmarshalBinary(enc), back.Exact(), back.Checked().Overflowed)
	// Output:
	// <nil> 18446744073709551609 true
}

// A grouped summary encodes its groups; decoded elsewhere it merges with
// the states of the other partitions group by group.
func ExampleGroupSummaryState_MarshalBinary() {
	var a, b quiver.GroupSummaryState[float64]
	a.Grow(2)
	b.Grow(2)
	a.Add([]float64{3, -1, 8}, []uint32{0, 1, 0})
	b.Add([]float64{10, -7}, []uint32{1, 1}, quiver.Valid([]byte{0b01}, 0))
	enc, err := b.MarshalBinary()
	if err != nil {
		panic(err)
	}
	var back quiver.GroupSummaryState[float64]
	if err := back.UnmarshalBinary(enc); err != nil {
		panic(err)
	}
	a.Merge(&back)
	fmt.Printf("%+v\n%+v\n", a.Summary(0), a.Summary(1))
	// Output:
	// {Min:3 Max:8 Count:2 Nulls:0}
	// {Min:-1 Max:10 Count:2 Nulls:1}
}

// A min-only state sent between processes: the empty group stays empty
// (a later +Inf is its minimum), the NaN group stays NaN.
func ExampleGroupMinState_MarshalBinary() {
	var a quiver.GroupMinState[float64]
	a.Grow(3)
	a.Add([]float64{2, math.NaN()}, []uint32{0, 2})
	b, _ := a.MarshalBinary()
	var back quiver.GroupMinState[float64]
	if err := back.UnmarshalBinary(b); err != nil {
		fmt.Println(err)
	}
	back.Add([]float64{math.Inf(1), math.Inf(1)}, []uint32{0, 1})
	fmt.Println(len(b), back.Mins(nil))
	// Output: 24 [2 +Inf NaN]
}

func ExampleGroupMaxState_AppendBinary() {
	var s quiver.GroupMaxState[int16]
	s.Grow(2)
	s.Add([]int16{7}, []uint32{1})
	b, _ := s.AppendBinary([]byte("prefix:"))
	var back quiver.GroupMaxState[int16]
	fmt.Println(back.UnmarshalBinary(b[7:]), back.Maxs(nil))
	// Output: <nil> [-32768 7]
}
