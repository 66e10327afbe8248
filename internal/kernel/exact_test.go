package kernel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Tests of the exact accumulator alone: its rounding and its digit
// normalisation, against math/big.

// TestRoundDigits checks the final rounding against math/big on sums
// built digit by digit: every digit position, both signs, carries between
// digits, ties, and results near the overflow and subnormal limits.
func TestRoundDigits(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 105))
	for trial := range 20000 {
		var d [reproDigits]int64
		exact := new(big.Float).SetPrec(4000)
		top := r.IntN(reproDigits - 1)
		if trial%4 == 0 {
			top = r.IntN(4) // subnormal and tiny sums
		} else if trial%4 == 1 {
			top = 52 + r.IntN(2) // near overflow
		}
		for i := max(0, top-r.IntN(5)); i <= top; i++ {
			v := r.Int64N(1<<41) - 1<<40
			switch r.IntN(4) {
			case 0:
				v = 0
			case 1:
				v = 1 << (r.IntN(40))
			}
			d[i] = v
			term := new(big.Float).SetPrec(4000).SetInt64(v)
			term.SetMantExp(term, reproDigitBits*i-1074)
			exact.Add(exact, term)
		}
		w64, _ := exact.Float64()
		w32, _ := exact.Float32()
		// roundDigits gives +0 for a zero result; the sign rule is Sum's.
		if w64 == 0 {
			w64 = 0
		}
		if w32 == 0 {
			w32 = 0
		}
		a := ReproAcc{digits: d, top: reproDigits, low: 1}
		if trial%2 == 0 {
			a.top = int32(top + 1)
			for a.low < a.top && d[a.low-1] == 0 {
				a.low++
			}
		}
		if got := roundDigits(&a, 53, -1074, 1023); got != math.Float64bits(w64) {
			t.Fatalf("digits %v: float64 %#x, want %#x (%v)", d, got, math.Float64bits(w64), w64)
		}
		if got := roundDigits(&a, 24, -149, 127); uint32(got) != math.Float32bits(w32) {
			t.Fatalf("digits %v: float32 %#x, want %#x (%v)", d, got, math.Float32bits(w32), w32)
		}
	}
}

// TestReproDigitsSettle: the digits are normalised before so many
// deposits could overflow one, at the largest deposit there is.
func TestReproDigitsSettle(t *testing.T) {
	if testing.Short() {
		t.Skip("16M deposits")
	}
	v := math.Float64frombits(0x7FEFFFFFFFFFFFFF) // every significand bit, all three digits full
	var a ReproAcc
	const n = 1 << 24
	for range n {
		a.addOne(v)
		a.settle()
	}
	want := new(big.Float).SetPrec(2000).SetFloat64(v)
	want.Mul(want, new(big.Float).SetInt64(n))
	a.normalize()
	d := a.digits
	got := new(big.Float).SetPrec(4000)
	for i := len(d) - 1; i >= 0; i-- {
		term := new(big.Float).SetPrec(4000).SetInt64(d[i])
		got.Add(got, term.SetMantExp(term, reproDigitBits*i-1074))
	}
	if got.Cmp(want) != 0 {
		t.Errorf("digits hold %v, want %v", got, want)
	}
}
