package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arrowmath "github.com/apache/arrow-go/v18/arrow/math"
	"github.com/viterin/vek"
	"github.com/viterin/vek/vek32"
	"gonum.org/v1/gonum/floats"

	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/bench/internal/ledger"
)

// TestPeerNotes checks, against the peers themselves, every claim the
// ledger's notes make about them (ledger.NoteFor), so that a peer upgrade
// that changes a behaviour fails here instead of leaving a wrong footnote
// next to a number.
func TestPeerNotes(t *testing.T) {
	note := func(impl, op, typ string, nulls int) string {
		return ledger.NoteFor(impl, ledger.Config{Op: op, Type: typ, N: 4096, Nulls: nulls}).Text
	}
	canonical := math.Float64frombits(0x7FF8000000000000)
	payloadNaN := math.NaN() // 0x7FF8000000000001 in Go
	negZero := math.Copysign(0, -1)

	// A float input whose sum depends on the order of the additions.
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 4096)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(60)-30)
	}
	strict := 0.0
	for _, v := range x {
		strict += v
	}

	t.Run("loop", func(t *testing.T) {
		withBackend(t, ledger.Strict, func() res {
			if got := quiver.Sum(x); got != loopSumFloat(x) {
				t.Errorf("%q: the loop's sum %v is not the scalar backend's %v", note("loop", "Sum", "float64", 0), loopSumFloat(x), got)
			}
			return res{}
		})
		if !math.IsNaN(loopMin([]float64{payloadNaN, 1}, nil, 0)) || loopMin([]float64{1, payloadNaN}, nil, 0) != 1 {
			t.Errorf("%q does not hold", note("loop", "Min", "float64", 0))
		}
	})

	t.Run("gonum", func(t *testing.T) {
		if floats.Sum(x) == strict {
			t.Errorf("%q: floats.Sum equals the strict fold on an order-sensitive input", note("gonum", "Sum", "float64", 0))
		}
		// Alignment: the same values from an 8-byte-shifted start.
		shifted, aligned := x[1:1025], slices.Clone(x[1:1025])
		if floats.Sum(shifted) == floats.Sum(aligned) {
			t.Errorf("%q: floats.Sum gave the same result at both alignments", note("gonum", "Sum", "float64", 0))
		}
		if got := floats.Min([]float64{payloadNaN, 2, 1}); got != 1 {
			t.Errorf("%q: floats.Min with a NaN = %v, want 1", note("gonum", "Min", "float64", 0), got)
		}
		if got := floats.Max([]float64{1, payloadNaN, 2}); got != 2 {
			t.Errorf("%q: floats.Max with a NaN = %v, want 2", note("gonum", "Max", "float64", 0), got)
		}
		mustPanic(t, note("gonum", "Min", "float64", 0), func() { floats.Min(nil) })
		mustPanic(t, note("gonum", "Max", "float64", 0), func() { floats.Max(nil) })
	})

	t.Run("vek", func(t *testing.T) {
		if !vek.Info().Acceleration {
			t.Skip("vek runs its portable Go code on this CPU; the notes describe its AVX2 path")
		}
		if vek.Sum(x) == strict {
			t.Errorf("%q: vek.Sum equals the strict fold on an order-sensitive input", note("vek", "Sum", "float64", 0))
		}
		x32 := make([]float32, len(x))
		for i, v := range x {
			x32[i] = float32(v)
		}
		var strict32 float32
		for _, v := range x32 {
			strict32 += v
		}
		if vek32.Sum(x32) == strict32 {
			t.Errorf("%q: vek32.Sum equals the strict fold", note("vek", "Sum", "float32", 0))
		}
		// A NaN early in a long input is dropped by the vector min/max.
		y := slices.Clone(x[:64])
		y[1] = payloadNaN
		if math.IsNaN(vek.Min(y)) || math.IsNaN(vek.Max(y)) {
			t.Errorf("%q: vek kept the NaN", note("vek", "Min", "float64", 0))
		}
		if !math.IsNaN(quiver.Min(y)) {
			t.Errorf("quiver.Min dropped a NaN: the contrast the note draws is gone")
		}
		mustPanic(t, note("vek", "Min", "float64", 0), func() { vek.Min(nil) })
		mustPanic(t, note("vek", "Max", "float32", 0), func() { vek32.Max(nil) })
	})

	t.Run("arrow", func(t *testing.T) {
		// Element 1 is null and holds 100: a validity-aware sum is 5.
		bm := []byte{0b101}
		if got := arrowmath.Float64.Sum(arrowFloat64([]float64{1, 100, 4}, bm)); got != 105 {
			t.Errorf("%q: Arrow's float64 sum with a null = %v, want 105", note("arrow", "Sum", "float64", 10), got)
		}
		if got := arrowmath.Int64.Sum(arrowInt64([]int64{1, 100, 4}, bm)); got != 105 {
			t.Errorf("%q: Arrow's int64 sum with a null = %v, want 105", note("arrow", "Sum", "int64", 10), got)
		}
		if quiver.Sum([]float64{1, 100, 4}, quiver.Valid(bm, 0)) != 5 {
			t.Errorf("quiver's masked sum is not 5")
		}
		if arrowmath.Float64.Sum(arrowFloat64(x, nil)) == strict {
			t.Errorf("%q: Arrow's sum equals the strict fold on an order-sensitive input", note("arrow", "Sum", "float64", 0))
		}
	})

	t.Run("slices", func(t *testing.T) {
		n := note("slices", "Min", "float64", 0)
		for _, got := range []float64{slices.Min([]float64{payloadNaN, 1}), slices.Min([]float64{1, payloadNaN}), slices.Max([]float64{1, payloadNaN})} {
			if !math.IsNaN(got) || math.Float64bits(got) == math.Float64bits(canonical) {
				t.Errorf("%q: got %#x, want a NaN other than the canonical one", n, math.Float64bits(got))
			}
		}
		if got := slices.Min([]float64{0, negZero}); !math.Signbit(got) {
			t.Errorf("%q: slices.Min(+0, -0) = +0", n)
		}
		if got := quiver.Min([]float64{0, negZero}); math.Signbit(got) {
			t.Errorf("quiver.Min(+0, -0) = -0: the contrast the note draws is gone")
		}
		mustPanic(t, n, func() { _ = slices.Min([]float64(nil)) })
		mustPanic(t, note("slices", "Max", "int32", 0), func() { _ = slices.Max([]int32(nil)) })
	})
}

// mustPanic fails unless f panics; claim is the note being checked.
func mustPanic(t *testing.T, claim string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%q: no panic on an empty input", claim)
		}
	}()
	f()
}
