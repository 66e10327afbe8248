package quiver

import (
	"fmt"
	"github.com/quiverlabs/quiver/internal/kernel"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/testkit"
)

// exactSum is the specification of SumReproducible, computed with
// math/big: the exact sum of the finite values rounded once to T, with the
// rules of ADR-105 for NaN, infinities and zeros.
func exactSum[T constraints.Float](vals []T) T {
	var nan, pos, neg, nonNegZero bool
	acc := new(big.Float).SetPrec(0)
	sum := new(big.Float).SetPrec(2300) // every float64 and 2^60 of them, exactly
	for _, v := range vals {
		f := float64(v)
		switch {
		case math.IsNaN(f):
			nan = true
		case math.IsInf(f, 1):
			pos = true
		case math.IsInf(f, -1):
			neg = true
		default:
			if !(f == 0 && math.Signbit(f)) {
				nonNegZero = true
			}
			acc.SetFloat64(f)
			sum.Add(sum, acc)
		}
	}
	switch {
	case nan || pos && neg:
		return num.NaN[T]()
	case pos:
		return T(math.Inf(1))
	case neg:
		return T(math.Inf(-1))
	}
	if sum.Sign() == 0 {
		if len(vals) > 0 && !nonNegZero {
			return T(math.Copysign(0, -1))
		}
		return 0
	}
	if num.KindOf[T]() == num.Float32 {
		f, _ := sum.Float32()
		return T(f)
	}
	f, _ := sum.Float64()
	return T(f)
}

func reproSizes(short bool) []int {
	sizes := []int{0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 1000, 4095, 4096, 4097, 8192 + 33}
	if !short {
		sizes = append(sizes, 3*4096+77, 40000)
	}
	return sizes
}

func wantSame[T constraints.Float](t *testing.T, what string, got, want T) {
	t.Helper()
	if testkit.Bits(got) != testkit.Bits(want) {
		t.Errorf("%s: got %v (%#x), want %v (%#x)", what, got, testkit.Bits(got), want, testkit.Bits(want))
	}
}

// TestSumReproducibleExact checks the result against the exact sum from
// math/big, bit for bit, on every backend.
func TestSumReproducibleExact(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproExact[float64](t) })
		t.Run("float32", func(t *testing.T) { reproExact[float32](t) })
	})
}

func reproExact[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 105))
	for _, n := range reproSizes(testing.Short()) {
		for name, x := range testkit.ReproInputs[T](r, n) {
			want := exactSum(x)
			wantSame(t, fmt.Sprintf("%s n=%d", name, len(x)), SumReproducible(x), want)
		}
	}
}

// TestSumReproducibleSpecials pins the rules for NaN, infinities, zeros,
// overflow and empty input, identically on every backend, with the value
// placed at every position around the block and vector sizes.
func TestSumReproducibleSpecials(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproSpecials[float64](t) })
		t.Run("float32", func(t *testing.T) { reproSpecials[float32](t) })
	})
}

func reproSpecials[T constraints.Float](t *testing.T) {
	nz, inf := negZero[T](), posInf[T]()
	maxT := num.MaxOf[T]()
	nan := num.NaN[T]()
	payload := nanWithPayload[T]()
	var one T = 1
	cases := []struct {
		name string
		x    []T
		want T
	}{
		{"empty", nil, 0},
		{"-0", []T{nz}, nz},
		{"-0 -0", []T{nz, nz}, nz},
		{"-0 +0", []T{nz, 0}, 0},
		{"1 -1", []T{one, -one}, 0},
		{"-1 1 -0", []T{-one, one, nz}, 0},
		{"+Inf", []T{one, inf}, inf},
		{"-Inf", []T{-inf, one}, -inf},
		{"+Inf -Inf", []T{inf, -inf}, nan},
		{"NaN payload", []T{one, payload}, nan},
		{"NaN and Inf", []T{inf, payload}, nan},
		{"overflow", []T{maxT, maxT}, inf},
		{"-overflow", []T{-maxT, -maxT}, -inf},
		{"no overflow", []T{maxT, maxT, -maxT}, maxT},
		{"Inf beats overflow", []T{-maxT, -maxT, inf}, inf},
	}
	for _, c := range cases {
		wantSame(t, c.name, SumReproducible(c.x), c.want)
		wantSame(t, c.name+" (exact oracle)", exactSum(c.x), c.want)
	}
	// Each special among ordinary values at every position of blocks of
	// several lengths: the vector paths, the tails and the block edges.
	r := rand.New(rand.NewPCG(2, 105))
	lengths := []int{1, 5, 16, 33, 64, 65, 4096, 4097}
	for _, n := range lengths {
		base := testkit.Values[T](r, n, testkit.Plain)
		for _, sp := range testkit.Specials[T]() {
			positions := []int{0, n - 1, n / 2}
			if n <= 65 {
				positions = positions[:0]
				for p := range n {
					positions = append(positions, p)
				}
			}
			for _, p := range positions {
				x := append([]T(nil), base...)
				x[p] = sp
				wantSame(t, fmt.Sprintf("n=%d x[%d]=%#x", n, p, testkit.Bits(sp)), SumReproducible(x), exactSum(x))
			}
		}
	}
}

// TestSumReproducibleOrderAndSplits: a permutation, any cut into batches,
// any merge order and any worker count give the bits of one call.
func TestSumReproducibleOrderAndSplits(t *testing.T) {
	defer func(m int) { reproMinPerWorker = m }(reproMinPerWorker)
	reproMinPerWorker = 100
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproOrder[float64](t) })
		t.Run("float32", func(t *testing.T) { reproOrder[float32](t) })
	})
}

func reproOrder[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 105))
	n := 9000
	if testing.Short() {
		n = 5000
	}
	for name, x := range testkit.ReproInputs[T](r, n) {
		want := SumReproducible(x)
		wantSame(t, name+" oracle", want, exactSum(x))
		for trial := range 3 {
			p := append([]T(nil), x...)
			r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
			wantSame(t, fmt.Sprintf("%s permuted %d", name, trial), SumReproducible(p), want)

			// Random batches into random states, merged in a random tree.
			var states []*SumReproducibleState[T]
			for rest := p; len(rest) > 0; {
				k := min(len(rest), r.IntN(3000)+1)
				s := new(SumReproducibleState[T])
				if r.IntN(2) == 0 && len(states) > 0 {
					s = states[r.IntN(len(states))]
				} else {
					states = append(states, s)
				}
				s.Add(rest[:k])
				rest = rest[k:]
			}
			for len(states) > 1 {
				i, j := r.IntN(len(states)), r.IntN(len(states)-1)
				if j >= i {
					j++
				}
				states[i].Merge(states[j])
				states = append(states[:j], states[j+1:]...)
			}
			got := T(0)
			if len(states) == 1 {
				got = states[0].Sum()
			}
			wantSame(t, fmt.Sprintf("%s batches %d", name, trial), got, want)
		}
		for _, w := range []int{0, 1, 2, 3, 7} {
			var s SumReproducibleState[T]
			s.AddParallel(x, w)
			wantSame(t, fmt.Sprintf("%s AddParallel workers=%d", name, w), s.Sum(), want)
		}
	}
}

// TestSumReproducibleMasks: under a bitmap at any offset, a selection
// with duplicates, or both, the result is the exact sum of the
// participating values, on every backend, through Add and AddParallel.
func TestSumReproducibleMasks(t *testing.T) {
	defer func(m int) { reproMinPerWorker = m }(reproMinPerWorker)
	reproMinPerWorker = 64
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproMasks[float64](t) })
		t.Run("float32", func(t *testing.T) { reproMasks[float32](t) })
	})
}

func reproMasks[T constraints.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(4, 105))
	for _, n := range []int{0, 1, 9, 64, 300, 4097} {
		for name, x := range testkit.ReproInputs[T](r, n) {
			n := len(x)
			if name == "zeros" || name == "plain" {
				x = append(x[:0:0], x...)
				for i := range x {
					if r.IntN(3) == 0 {
						x[i] = nanWithPayload[T]() // hidden by the mask below where null
					}
				}
			}
			off := r.IntN(20)
			for _, frac := range []float64{0, 0.5, 1} {
				bits := testkit.Bitmap(r, n, off, frac)
				if frac == 0.5 { // the hidden NaNs must stay hidden
					for i := range x {
						if math.IsNaN(float64(x[i])) && name != "mixed" {
							p := off + i
							bits[p>>3] &^= 1 << (p & 7)
						}
					}
				}
				var sel []uint32
				if n > 0 {
					sel = testkit.Selection(r, n, r.IntN(2*n))
				}
				for _, form := range []struct {
					label  string
					m      Mask
					hasSel bool
				}{
					{"valid", Valid(bits, off), false},
					{"select", Select(sel), true},
					{"valid+select", Valid(bits, off).Select(sel), true},
				} {
					b, o := bits, off
					if form.label == "select" {
						b, o = nil, 0
					}
					want := exactSum(testkit.Participating(x, b, o, sel, form.hasSel))
					what := fmt.Sprintf("%s n=%d off=%d nulls=%v %s", name, n, off, frac, form.label)
					wantSame(t, what, SumReproducible(x, form.m), want)
					var s SumReproducibleState[T]
					s.AddParallel(x, 3, form.m)
					wantSame(t, what+" AddParallel", s.Sum(), want)
				}
			}
		}
	}
}

// TestSumReproducibleAccuracy shows what the exactness buys on an
// ill-conditioned sum where the plain loop loses every digit.
func TestSumReproducibleAccuracy(t *testing.T) {
	x := []float64{1e300, 1, -1e300, 1e-300, 3}
	var plain float64
	for _, v := range x {
		plain += v
	}
	if plain == 4 {
		t.Fatalf("the plain loop got it right: the example shows nothing")
	}
	if got := SumReproducible(x); got != 4 {
		t.Errorf("SumReproducible = %v, want 4", got)
	}
}

// TestSumReproducibleStateAPI: the zero value is empty, Reset empties,
// Sum does not change the state, Merge with itself or nil.
func TestSumReproducibleStateAPI(t *testing.T) {
	var s SumReproducibleState[float64]
	wantSame(t, "zero state", s.Sum(), 0)
	s.Add([]float64{math.Copysign(0, -1)})
	wantSame(t, "-0 state", s.Sum(), math.Copysign(0, -1))
	s.Add([]float64{1.5, 2.25})
	wantSame(t, "Sum once", s.Sum(), 3.75)
	wantSame(t, "Sum twice", s.Sum(), 3.75)
	s.Merge(&s)
	wantSame(t, "self-merge", s.Sum(), 7.5)
	s.Merge(nil)
	wantSame(t, "nil merge", s.Sum(), 7.5)
	s.Reset()
	wantSame(t, "Reset", s.Sum(), 0)
	// Merging carries the flags both ways.
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1}, []float64{math.Inf(-1)}, math.Inf(-1)},
		{[]float64{math.Inf(1)}, []float64{2}, math.Inf(1)},
		{[]float64{math.Inf(1)}, []float64{math.Inf(-1)}, math.Float64frombits(0x7FF8000000000000)},
		{[]float64{3}, []float64{math.NaN()}, math.Float64frombits(0x7FF8000000000000)},
		{[]float64{math.Copysign(0, -1)}, []float64{}, math.Copysign(0, -1)},
		{[]float64{math.Copysign(0, -1)}, []float64{0}, 0},
	} {
		for _, swap := range []bool{false, true} {
			var p, q SumReproducibleState[float64]
			p.Add(c.a)
			q.Add(c.b)
			if swap {
				p, q = q, p
			}
			p.Merge(&q)
			wantSame(t, fmt.Sprintf("merge %v %v", c.a, c.b), p.Sum(), c.want)
		}
	}
	// Many deposits: the digits are normalised before they can overflow.
	big := make([]float64, 3*kernel.ReproPendingMax/2)
	for i := range big {
		big[i] = math.Ldexp(1, 1000) * (1 + math.Ldexp(float64(i%7), -50))
		if i%2 == 1 {
			big[i] = -math.Ldexp(1, -1000) * float64(i%5)
		}
	}
	if !testing.Short() {
		for range 2 {
			s.Add(big)
		}
		var t2 SumReproducibleState[float64]
		t2.Add(append(big, big...))
		wantSame(t, "long state", s.Sum(), t2.Sum())
		wantSame(t, "long state oracle", s.Sum(), exactSum(append(big, big...)))
	}
}

// TestSumReproducibleParallelGoroutines: AddParallel leaves no goroutine
// behind.
func TestSumReproducibleParallelGoroutines(t *testing.T) {
	defer func(m int) { reproMinPerWorker = m }(reproMinPerWorker)
	reproMinPerWorker = 64
	x := make([]float64, 10000)
	before := runtime.NumGoroutine()
	var s SumReproducibleState[float64]
	for range 20 {
		s.AddParallel(x, 8)
	}
	for i := 0; runtime.NumGoroutine() > before && i < 100; i++ {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before AddParallel, %d after", before, n)
	}
}

// TestSumReproducibleNoAlloc: Add and SumReproducible allocate nothing, in
// every mask form.
func TestSumReproducibleNoAlloc(t *testing.T) {
	x := make([]float64, 5000)
	y := make([]float32, 5000)
	for i := range x {
		x[i] = float64(i) * 0.37
		y[i] = float32(i) * 0.37
	}
	bits := make([]byte, 700)
	sel := []uint32{3, 1, 4, 1, 5}
	var s SumReproducibleState[float64]
	var s32 SumReproducibleState[float32]
	for name, f := range map[string]func(){
		"Add":          func() { s.Add(x) },
		"Add float32":  func() { s32.Add(y) },
		"Add valid":    func() { s.Add(x, Valid(bits, 3)) },
		"Add select":   func() { s.Add(x, Valid(bits, 3).Select(sel)) },
		"Sum":          func() { _ = s.Sum() },
		"Merge":        func() { s.Merge(&s) },
		"Reproducible": func() { _ = SumReproducible(x) },
	} {
		if a := testing.AllocsPerRun(20, f); a != 0 {
			t.Errorf("%s: %v allocations per run", name, a)
		}
	}
}

// TestSumReproducibleContract: the same panics as Sum, before anything is
// read, and AddParallel panics on the calling goroutine.
func TestSumReproducibleContract(t *testing.T) {
	x := make([]float64, 20)
	for _, m := range [][]Mask{
		{Valid(make([]byte, 2), 5)},
		{Select([]uint32{1, 20})},
		{Valid(nil, 0), Valid(nil, 0)},
	} {
		msg := panicMessage(func() { Sum(x, m...) })
		if !strings.HasPrefix(msg, "quiver: ") {
			t.Fatalf("Sum did not panic as documented: %q", msg)
		}
		if got := panicMessage(func() { SumReproducible(x, m...) }); got != msg {
			t.Errorf("SumReproducible panics %q, Sum %q", got, msg)
		}
		var s SumReproducibleState[float64]
		if got := panicMessage(func() { s.AddParallel(x, 4, m...) }); got != msg {
			t.Errorf("AddParallel panics %q, Sum %q", got, msg)
		}
		wantSame(t, "state after a rejected Add", s.Sum(), 0)
	}
}

func panicMessage(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestSumReproducibleNamedType: named float types are accepted.
func TestSumReproducibleNamedType(t *testing.T) {
	type celsius float64
	if got := SumReproducible([]celsius{1.5, 2}); got != 3.5 {
		t.Errorf("got %v", got)
	}
}

// TestSumReproducibleMaskedZeros: under a bitmap (no selection) the
// null elements of a chunk are fed as -0.0, the identity, and a chunk
// with no valid element is skipped: the sign of a zero sum must still be
// the reference's, whatever the null slots hold, at chunk edges too.
func TestSumReproducibleMaskedZeros(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float64", func(t *testing.T) { reproMaskedZeros[float64](t) })
		t.Run("float32", func(t *testing.T) { reproMaskedZeros[float32](t) })
	})
}

func reproMaskedZeros[T constraints.Float](t *testing.T) {
	nz := negZero[T]()
	hidden := []T{nanWithPayload[T](), posInf[T](), -posInf[T](), 1, nz}
	for _, n := range []int{1, 7, 63, 64, 65, kernel.ReproChunk - 1, kernel.ReproChunk, kernel.ReproChunk + 1, 2*kernel.ReproChunk + 5} {
		for _, off := range []int{0, 3, 8} {
			// valid: the positions that are valid, each holding v.
			for _, c := range []struct {
				name  string
				valid []int
				v     T
			}{
				{"all null", nil, 0},
				{"one -0 first", []int{0}, nz},
				{"one -0 last", []int{n - 1}, nz},
				{"one +0 last", []int{n - 1}, 0},
				{"-0 first and last", []int{0, n - 1}, nz},
			} {
				x := make([]T, n)
				for i := range x {
					x[i] = hidden[i%len(hidden)]
				}
				bits := make([]byte, (off+n+7)/8)
				for _, i := range c.valid {
					x[i] = c.v
					bits[(off+i)>>3] |= 1 << ((off + i) & 7)
				}
				want := exactSum(testkit.Participating(x, bits, off, nil, false))
				what := fmt.Sprintf("%s n=%d off=%d", c.name, n, off)
				wantSame(t, what, SumReproducible(x, Valid(bits, off)), want)
				var s SumReproducibleState[T]
				s.Add(x, Valid(bits, off))
				wantSame(t, what+" state", s.Sum(), want)
			}
		}
	}
}

// TestSumReproducibleLarge checks SumReproducible on a dense input of
// 64 MB and more, where the AVX-512 backend runs other kernels (see
// reproDRAMBytes in internal/kernel), against the same values added in
// 1M-element batches of a state (kernels below that size), on every
// backend: the bits must not differ.
func TestSumReproducibleLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	r := rand.New(rand.NewPCG(13, 14))
	x := make([]float64, 8<<20+5)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(80)-40)
	}
	x[12345] = math.Ldexp(1, 300) // a spread that needs the checked folds in one block
	var batched SumReproducibleState[float64]
	for i := 0; i < len(x); i += 1 << 20 {
		batched.Add(x[i:min(i+1<<20, len(x))])
	}
	want := batched.Sum()
	forEachBackend(t, func(t *testing.T, b BackendInfo) {
		if got := SumReproducible(x); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("SumReproducible = %v (%#x), batched %v (%#x)", got, math.Float64bits(got), want, math.Float64bits(want))
		}
	})
}
