package quiverarrow

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// elem is the element types the tests build arrays of: those of
// quiver.Number that arrow-go stores (the intersection that lets a test
// pass T both to quiver and to arrow.GetBytes).
type elem interface {
	arrow.IntType | arrow.UintType | ~float32 | ~float64
}

// floatElem, signedElem and unsignedElem are the elem types each sum
// takes.
type (
	floatElem    interface{ ~float32 | ~float64 }
	signedElem   interface{ arrow.IntType }
	unsignedElem interface{ arrow.UintType }
)

// typed is the part of an arrow-go typed array the reference loops use:
// only IsValid and Value, never the buffers.
type typed[T any] interface {
	arrow.Array
	Value(int) T
}

// column is a test column: its chunks and a name for failures.
type column struct {
	name   string
	chunks []arrow.Array
}

// gen draws one value of T; junk draws a value that must never reach a
// result if it sits under a null (NaN, infinities, extremes).
type gen[T elem] struct {
	value func(r *rand.Rand) T
	junk  func(r *rand.Rand) T
}

func floatGen[T floatElem]() gen[T] {
	return gen[T]{
		// Mixed signs and magnitudes: a sum in another order has other bits.
		value: func(r *rand.Rand) T { return T(r.NormFloat64() * math.Pow(10, float64(r.IntN(12)-4))) },
		junk: func(r *rand.Rand) T {
			return []T{T(math.NaN()), T(math.Inf(1)), T(math.Inf(-1)), T(math.MaxFloat32)}[r.IntN(4)]
		},
	}
}

// intGen draws values of an integer type of the given bits, mostly small
// and sometimes extreme, so that int64 and uint64 sums overflow and come
// back.
func intGen[T signedElem | unsignedElem](bits uint, signed bool) gen[T] {
	lo, hi := int64(0), int64(-1) // bit patterns of the extremes
	if signed {
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	} else if bits < 64 {
		hi = 1<<bits - 1
	}
	return gen[T]{
		value: func(r *rand.Rand) T {
			switch r.IntN(8) {
			case 0:
				return T(lo)
			case 1:
				return T(hi)
			}
			return T(r.Int64N(2001) - 1000)
		},
		junk: func(r *rand.Rand) T {
			if r.IntN(2) == 0 {
				return T(lo)
			}
			return T(hi)
		},
	}
}

// builder is the part of an arrow-go builder of T values the tests use.
type builder[T any] interface {
	array.Builder
	Append(T)
}

// build makes an array of n rows with a builder, each row null with
// probability pNull.
func build[T elem](r *rand.Rand, dt arrow.DataType, g gen[T], n int, pNull float64) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, dt).(builder[T])
	defer b.Release()
	for range n {
		if r.Float64() < pNull {
			b.AppendNull()
		} else {
			b.Append(g.value(r))
		}
	}
	return b.NewArray()
}

// raw makes an array of n rows at offset off from its buffers with
// array.NewData: junk values under the nulls and in the off rows before
// the array, the bitmap's bits outside the rows set at random, and the
// null count given (array.UnknownNullCount or the true count). With
// bitmap false the array has no bitmap and no nulls.
func raw[T elem](r *rand.Rand, dt arrow.DataType, g gen[T], n, off int, pNull float64, bitmap bool, nulls int) arrow.Array {
	vals := make([]T, off+n+r.IntN(9))
	bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
	for i := range bits {
		bits[i] = byte(r.Uint32())
	}
	count := 0
	for i := range vals {
		vals[i] = g.junk(r)
		if i < off || i >= off+n {
			continue
		}
		if !bitmap || r.Float64() >= pNull {
			bitutil.SetBit(bits, i)
			vals[i] = g.value(r)
		} else {
			bitutil.ClearBit(bits, i)
			count++
		}
	}
	var validity *memory.Buffer
	if bitmap {
		validity = memory.NewBufferBytes(bits)
	}
	if nulls != array.UnknownNullCount {
		nulls = count
	}
	data := array.NewData(dt, n, []*memory.Buffer{validity, memory.NewBufferBytes(arrow.GetBytes(vals))}, nil, nulls, off)
	defer data.Release()
	return array.MakeFromData(data)
}

// valid gathers a column's rows with the reference loop: every value
// (junk under nulls included, as the buffers hold it), a fresh bitmap at
// offset 0 from IsValid, and the valid values in order.
func valid[T elem](t testing.TB, c column) (all []T, bits []byte, vals []T) {
	t.Helper()
	n := 0
	for _, a := range c.chunks {
		n += a.Len()
	}
	bits = make([]byte, bitutil.BytesForBits(int64(n)))
	row := 0
	for _, a := range c.chunks {
		ta, ok := a.(typed[T])
		if !ok {
			t.Fatalf("%s: %T is not an array of %T", c.name, a, *new(T))
		}
		for i := range a.Len() {
			v := ta.Value(i)
			all = append(all, v)
			if a.IsValid(i) {
				bitutil.SetBit(bits, row)
				vals = append(vals, v)
			}
			row++
		}
	}
	return all, bits, vals
}

// exact is the exact sum of vals.
func exact[T signedElem | unsignedElem](vals []T) *big.Int {
	z, v := new(big.Int), new(big.Int)
	for _, x := range vals {
		if T(0)-1 > 0 { // unsigned
			z.Add(z, v.SetUint64(uint64(x)))
		} else {
			z.Add(z, v.SetInt64(int64(x)))
		}
	}
	return z
}

// fits reports whether z is in [lo, hi].
func fits(z *big.Int, lo, hi *big.Int) bool { return z.Cmp(lo) >= 0 && z.Cmp(hi) <= 0 }

var (
	minInt64  = big.NewInt(math.MinInt64)
	maxInt64  = big.NewInt(math.MaxInt64)
	maxUint64 = new(big.Int).SetUint64(math.MaxUint64)
	zero      = new(big.Int)
)

// low64 is z modulo 2^64.
func low64(z *big.Int) uint64 {
	m := new(big.Int).And(z, maxUint64) // two's complement for negative z
	return m.Uint64()
}

// checkSummary checks Min, Max, MinMax, Summarize and CountValid of c
// against the reference loop: the count of valid rows, the nulls, and
// the extremes by strict comparisons in row order (the first of equal
// values wins), with the canonical NaN and the identities taken from
// quiver over the valid values when no plain comparison decides.
func checkSummary[T elem](t *testing.T, c column) {
	t.Helper()
	all, _, vals := valid[T](t, c)
	got, err := Summarize[T](c.chunks...)
	if err != nil {
		t.Fatalf("%s: Summarize: %v", c.name, err)
	}
	want := quiver.Summary[T]{Count: len(vals), Nulls: len(all) - len(vals)}
	nan := false
	for i, v := range vals {
		switch {
		case v != v:
			nan = true
		case i == 0:
			want.Min, want.Max = v, v
		case v < want.Min:
			want.Min = v
		case v > want.Max:
			want.Max = v
		}
	}
	if nan || len(vals) == 0 {
		// The canonical NaN and the identities are quiver's own
		// definitions: take them from quiver over the valid values.
		q := quiver.Summarize(vals)
		want.Min, want.Max = q.Min, q.Max
	}
	if !sameSummary(got, want) {
		t.Fatalf("%s: Summarize = %+v, want %+v", c.name, got, want)
	}
	lo, hi, err := MinMax[T](c.chunks...)
	if err != nil || !same(lo, want.Min) || !same(hi, want.Max) {
		t.Fatalf("%s: MinMax = %v, %v, %v; want %v, %v", c.name, lo, hi, err, want.Min, want.Max)
	}
	if m, err := Min[T](c.chunks...); err != nil || !same(m, want.Min) {
		t.Fatalf("%s: Min = %v, %v; want %v", c.name, m, err, want.Min)
	}
	if m, err := Max[T](c.chunks...); err != nil || !same(m, want.Max) {
		t.Fatalf("%s: Max = %v, %v; want %v", c.name, m, err, want.Max)
	}
	if n, err := CountValid(c.chunks...); err != nil || n != len(vals) {
		t.Fatalf("%s: CountValid = %d, %v; want %d", c.name, n, err, len(vals))
	}
	var s quiver.SummaryState[T]
	for _, a := range c.chunks {
		if err := Add(&s, a); err != nil {
			t.Fatalf("%s: Add: %v", c.name, err)
		}
	}
	if !sameSummary(s.Summary(), want) {
		t.Fatalf("%s: Add to a SummaryState = %+v, want %+v", c.name, s.Summary(), want)
	}
}

// same compares two values of T by their bits, so that -0.0 differs from
// +0.0 and a NaN equals a NaN with the same payload.
func same[T elem](a, b T) bool {
	switch any(a).(type) {
	case float32, float64:
		return floatBits(a) == floatBits(b)
	}
	return a == b
}

// floatBits is the bits of a float value of T, by its size.
func floatBits[T elem](v T) uint64 {
	if f, ok := any(v).(float32); ok {
		return uint64(math.Float32bits(f))
	}
	return math.Float64bits(float64(v))
}

func sameSummary[T elem](a, b quiver.Summary[T]) bool {
	return same(a.Min, b.Min) && same(a.Max, b.Max) && a.Count == b.Count && a.Nulls == b.Nulls
}

// checkFloatSum checks Sum of c: bit for bit quiver.Sum over the
// concatenated values with the IsValid bitmap at offset 0, however the
// column is cut, sliced or offset, and, on the scalar backend, bit for
// bit the strict left fold of the valid values in row order.
func checkFloatSum[T floatElem](t *testing.T, c column) {
	t.Helper()
	all, bits, vals := valid[T](t, c)
	want := quiver.Sum(all, quiver.Valid(bits, 0))
	got, err := Sum[T](c.chunks...)
	if err != nil || floatBits(got) != floatBits(want) {
		t.Fatalf("%s: Sum = %v (%#x), %v; want quiver.Sum over the concatenation %v (%#x)",
			c.name, got, floatBits(got), err, want, floatBits(want))
	}
	var s quiver.SumState[T]
	for _, a := range c.chunks {
		if err := Add(&s, a); err != nil {
			t.Fatal(err)
		}
	}
	if floatBits(s.Sum()) != floatBits(want) {
		t.Fatalf("%s: Add to a SumState = %v, want %v", c.name, s.Sum(), want)
	}

	// The reproducible sum: the exact sum of the valid values rounded
	// once, whatever the chunks; computed here with math/big.
	exact := new(big.Float).SetPrec(4096)
	for _, v := range vals {
		exact.Add(exact, new(big.Float).SetFloat64(float64(v)))
	}
	wantR := roundTo[T](exact)
	if got, err := SumReproducible[T](c.chunks...); err != nil || floatBits(got) != floatBits(wantR) {
		t.Fatalf("%s: SumReproducible = %v (%#x), %v; want the exact sum rounded once %v (%#x)",
			c.name, got, floatBits(got), err, wantR, floatBits(wantR))
	}
	var rs quiver.SumReproducibleState[T]
	for _, a := range c.chunks {
		if err := Add(&rs, a); err != nil {
			t.Fatal(err)
		}
	}
	if floatBits(rs.Sum()) != floatBits(wantR) {
		t.Fatalf("%s: Add to a SumReproducibleState = %v, want %v", c.name, rs.Sum(), wantR)
	}

	defer setBackend(t, "scalar")()
	strict := T(0)
	for _, v := range vals {
		strict += v
	}
	if got, err := Sum[T](c.chunks...); err != nil || floatBits(got) != floatBits(strict) {
		t.Fatalf("%s: Sum on the scalar backend = %v, %v; want the strict fold %v", c.name, got, err, strict)
	}
}

// roundTo rounds an exact sum to T, to nearest with ties to even, as
// float32 or float64 conversion of a big.Float does (zero as +0.0).
func roundTo[T floatElem](z *big.Float) T {
	var zero T
	if any(zero) == any(float32(0)) {
		f, _ := z.Float32()
		return T(f)
	}
	f, _ := z.Float64()
	return T(f)
}

// setBackend switches quiver's backend and returns the function that
// switches it back.
func setBackend(t testing.TB, name string) func() {
	t.Helper()
	was := quiver.ActiveBackend().Name
	if err := quiver.SetBackend(name); err != nil {
		t.Fatal(err)
	}
	return func() {
		if err := quiver.SetBackend(was); err != nil {
			t.Fatal(err)
		}
	}
}

// checkSignedSum checks SumInt and SumChecked of c against the exact sum
// of the valid values in math/big.
func checkSignedSum[T signedElem](t *testing.T, c column) {
	t.Helper()
	_, _, vals := valid[T](t, c)
	z := exact(vals)
	want := quiver.CheckedSum[int64]{Sum: int64(low64(z)), Overflowed: !fits(z, minInt64, maxInt64)}
	if got, err := SumChecked[T](c.chunks...); err != nil || got != want {
		t.Fatalf("%s: SumChecked = %+v, %v; want %+v (exact %v)", c.name, got, err, want, z)
	}
	if got, err := SumInt[T](c.chunks...); err != nil || got != want.Sum {
		t.Fatalf("%s: SumInt = %d, %v; want %d", c.name, got, err, want.Sum)
	}
	var s quiver.IntSumState[T]
	for _, a := range c.chunks {
		if err := Add(&s, a); err != nil {
			t.Fatal(err)
		}
	}
	if s.Exact().Cmp(z) != 0 {
		t.Fatalf("%s: Add to an IntSumState: exact %v, want %v", c.name, s.Exact(), z)
	}
}

// checkUnsignedSum is checkSignedSum for unsigned columns.
func checkUnsignedSum[T unsignedElem](t *testing.T, c column) {
	t.Helper()
	_, _, vals := valid[T](t, c)
	z := exact(vals)
	want := quiver.CheckedSum[uint64]{Sum: low64(z), Overflowed: !fits(z, zero, maxUint64)}
	if got, err := SumCheckedUint[T](c.chunks...); err != nil || got != want {
		t.Fatalf("%s: SumCheckedUint = %+v, %v; want %+v (exact %v)", c.name, got, err, want, z)
	}
	if got, err := SumUint[T](c.chunks...); err != nil || got != want.Sum {
		t.Fatalf("%s: SumUint = %d, %v; want %d", c.name, got, err, want.Sum)
	}
	var s quiver.UintSumState[T]
	for _, a := range c.chunks {
		if err := Add(&s, a); err != nil {
			t.Fatal(err)
		}
	}
	if s.Exact().Cmp(z) != 0 {
		t.Fatalf("%s: Add to a UintSumState: exact %v, want %v", c.name, s.Exact(), z)
	}
}
