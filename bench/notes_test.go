package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	arrowmath "github.com/apache/arrow-go/v18/arrow/math"
	"github.com/viterin/vek"
	"gonum.org/v1/gonum/floats"

	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/bench/internal/ledger"
)

// peerFuncs are an alternative's float64 entry points, on which the claims
// of its notes are checked. nil means it has no such function.
type peerFuncs struct {
	sum       func(x []float64) float64
	maskedSum func(x []float64, bm []byte) float64
	min, max  func(x []float64) float64
}

var peerFuncsOf = map[string]peerFuncs{
	ledger.Loop: {
		sum:       loopSumFloat[float64],
		maskedSum: loopSumFloatMasked[float64],
		min:       func(x []float64) float64 { return loopMin(x, nil, 0) },
		max:       func(x []float64) float64 { return loopMax(x, nil, 0) },
	},
	"gonum": {sum: floats.Sum, min: floats.Min, max: floats.Max},
	"vek":   {sum: vek.Sum, min: vek.Min, max: vek.Max},
	"arrow": {
		sum:       func(x []float64) float64 { return arrowmath.Float64.Sum(arrowFloat64(x, nil)) },
		maskedSum: func(x []float64, bm []byte) float64 { return arrowmath.Float64.Sum(arrowFloat64(x, bm)) },
	},
	"slices": {min: slices.Min[[]float64], max: slices.Max[[]float64]},
}

// TestPeerNotes checks, against the alternatives themselves, every claim
// that the ledger's notes make about them on this machine: it collects the
// notes of every implementation in every configuration the benchmarks run
// and checks each claim with the check of that name. A claim without a
// check fails, so a new note cannot go unchecked; a peer upgrade that
// changes a behaviour fails here instead of leaving a wrong footnote.
func TestPeerNotes(t *testing.T) {
	m := thisMachine()
	type key struct{ impl, claim string }
	claims := map[key]string{} // -> a configuration that carries it
	// A claim is checked on the peer's function of its kind (sum, or min
	// and max), so it must only be made about an operation of that kind.
	// The SumReproducible suites are not in allSuites (their result is not
	// the strict reference's), but their notes are printed too.
	for _, s := range slices.Concat(allSuites(), reproSuites) {
		for _, nulls := range nullPcts {
			for _, impl := range append([]string{ledger.Loop}, ledger.Peers...) {
				cfg := ledger.Config{Op: s.op, Type: s.typ, N: 4096, Nulls: nulls}
				if !s.runs(impl, nulls) {
					continue
				}
				for _, c := range strings.Split(ledger.NoteFor(impl, cfg, m).Text, "; ") {
					if c == "" {
						continue
					}
					claims[key{impl, c}] = cfg.String()
					if kind, op := claimKinds[strings.TrimSuffix(c, ", the scalar order")], opKind(s.op); kind != "" && kind != op {
						t.Errorf("%s: the note of %s claims %q, about a %s, on a %s", cfg, impl, c, kind, op)
					}
				}
			}
		}
	}
	if len(claims) == 0 {
		t.Fatal("no notes collected")
	}
	for k, where := range claims {
		t.Run(k.impl+"/"+k.claim, func(t *testing.T) {
			f, ok := peerFuncsOf[k.impl]
			if !ok {
				t.Fatalf("no functions of %s to check %q (%s)", k.impl, k.claim, where)
			}
			check, ok := claimChecks[strings.TrimSuffix(k.claim, ", the scalar order")]
			if !ok {
				t.Fatalf("no check for the claim %q of %s (%s)", k.claim, k.impl, where)
			}
			check(t, f)
		})
	}
}

// claimKinds says what kind of operation each claim is about: the
// function of peerFuncs its check calls.
var claimKinds = map[string]string{
	ledger.ClaimStrictFold:     "sum",
	ledger.ClaimStrictPortable: "sum",
	ledger.ClaimReassociates:   "sum",
	ledger.ClaimAlignment:      "sum",
	ledger.ClaimBitLoop:        "", // any masked loop; checked on the sum's
	ledger.ClaimIgnoresNulls:   "sum",
	ledger.ClaimFirstNaN:       "min or max",
	ledger.ClaimSkipsNaN:       "min or max",
	ledger.ClaimDropsNaN:       "min or max",
	ledger.ClaimEmptyPanics:    "min or max",
	ledger.ClaimNonCanonical:   "min or max",
	ledger.ClaimNegZeroFirst:   "min or max",
	ledger.ClaimTwoPasses:      "min or max",
}

// opKind is the kind of a benchmarked operation, in claimKinds' terms.
func opKind(op string) string {
	switch op {
	case "Min", "Max", "MinMax", "Summary":
		return "min or max"
	}
	return "sum"
}

// orderSensitive is a float64 input whose sum depends on the order of the
// additions, and its strict left fold.
func orderSensitive() ([]float64, float64) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 4096)
	for i := range x {
		x[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(60)-30)
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return x, s
}

var (
	payloadNaN   = math.NaN() // 0x7FF8000000000001 in Go: not the canonical NaN
	canonicalNaN = math.Float64frombits(0x7FF8000000000000)
)

// claimChecks holds one check per claim; f has the peer's functions.
var claimChecks = map[string]func(t *testing.T, f peerFuncs){
	ledger.ClaimStrictFold:     checkStrict,
	ledger.ClaimStrictPortable: checkStrict,
	ledger.ClaimReassociates: func(t *testing.T, f peerFuncs) {
		x, strict := orderSensitive()
		if got := f.sum(x); got == strict {
			t.Errorf("sum %v equals the strict left fold on an order-sensitive input", got)
		}
	},
	ledger.ClaimAlignment: func(t *testing.T, f peerFuncs) {
		x, strict := orderSensitive()
		if got := f.sum(x); got == strict {
			t.Errorf("sum %v equals the strict left fold on an order-sensitive input", got)
		}
		shifted := x[1:1025] // 8 bytes past a 16-byte-aligned start
		if f.sum(shifted) == f.sum(slices.Clone(shifted)) {
			t.Errorf("the same values at two alignments sum to the same result")
		}
	},
	ledger.ClaimBitLoop: func(t *testing.T, f peerFuncs) {
		x, _ := orderSensitive()
		bm := make([]byte, len(x)/8)
		for i := range bm {
			bm[i] = byte(i*37 + 11)
		}
		want := withBackend(t, ledger.Strict, func() res { return res{math.Float64bits(quiver.Sum(x, quiver.Valid(bm, 0)))} })
		if got := f.maskedSum(x, bm); math.Float64bits(got) != want[0] {
			t.Errorf("masked loop %v, strict masked sum %v", got, math.Float64frombits(want[0]))
		}
	},
	ledger.ClaimIgnoresNulls: func(t *testing.T, f peerFuncs) {
		// Element 1 is null and holds 100: a validity-aware sum is 5.
		if got := f.maskedSum([]float64{1, 100, 4}, []byte{0b101}); got != 105 {
			t.Errorf("sum with a null = %v, want 105 (the null's value added)", got)
		}
		if got := quiver.Sum([]float64{1, 100, 4}, quiver.Valid([]byte{0b101}, 0)); got != 5 {
			t.Errorf("quiver's masked sum = %v, want 5: the contrast the note draws is gone", got)
		}
	},
	ledger.ClaimFirstNaN: func(t *testing.T, f peerFuncs) {
		for _, fn := range []func([]float64) float64{f.min, f.max} {
			if !math.IsNaN(fn([]float64{payloadNaN, 1, 2})) {
				t.Errorf("a NaN in first place was not kept")
			}
			if math.IsNaN(fn([]float64{1, payloadNaN, 2})) {
				t.Errorf("a NaN in second place was kept")
			}
		}
	},
	ledger.ClaimSkipsNaN: func(t *testing.T, f peerFuncs) {
		if got := f.min([]float64{payloadNaN, 2, 1}); got != 1 {
			t.Errorf("min with a NaN = %v, want 1", got)
		}
		if got := f.max([]float64{1, payloadNaN, 2}); got != 2 {
			t.Errorf("max with a NaN = %v, want 2", got)
		}
	},
	ledger.ClaimDropsNaN: func(t *testing.T, f peerFuncs) {
		x, _ := orderSensitive()
		y := slices.Clone(x[:64])
		y[1] = payloadNaN
		if math.IsNaN(f.min(y)) || math.IsNaN(f.max(y)) {
			t.Errorf("the NaN at index 1 of 64 was kept")
		}
		if !math.IsNaN(quiver.Min(y)) {
			t.Errorf("quiver.Min dropped the NaN: the contrast the note draws is gone")
		}
	},
	ledger.ClaimEmptyPanics: func(t *testing.T, f peerFuncs) {
		for _, fn := range []func([]float64) float64{f.min, f.max} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("no panic on an empty input")
					}
				}()
				fn(nil)
			}()
		}
	},
	ledger.ClaimNonCanonical: func(t *testing.T, f peerFuncs) {
		for _, got := range []float64{f.min([]float64{payloadNaN, 1}), f.min([]float64{1, payloadNaN}), f.max([]float64{1, payloadNaN})} {
			if !math.IsNaN(got) || math.Float64bits(got) == math.Float64bits(canonicalNaN) {
				t.Errorf("got %#x, want a NaN other than the canonical one", math.Float64bits(got))
			}
		}
	},
	ledger.ClaimNegZeroFirst: func(t *testing.T, f peerFuncs) {
		negZero := math.Copysign(0, -1)
		if got := f.min([]float64{0, negZero}); !math.Signbit(got) {
			t.Errorf("min(+0, -0) = +0")
		}
		if got := quiver.Min([]float64{0, negZero}); math.Signbit(got) {
			t.Errorf("quiver.Min(+0, -0) = -0: the contrast the note draws is gone")
		}
	},
	// The benchmark itself calls Min and then Max (twoPass); there is
	// nothing of the peer's to check.
	ledger.ClaimTwoPasses: func(t *testing.T, f peerFuncs) {
		if f.min == nil || f.max == nil {
			t.Errorf("no Min and Max to call in two passes")
		}
	},
}

// checkStrict requires the sum to be the strict left fold, bit for bit.
func checkStrict(t *testing.T, f peerFuncs) {
	x, strict := orderSensitive()
	if got := f.sum(x); got != strict {
		t.Errorf("sum %v, the strict left fold is %v", got, strict)
	}
	got := withBackend(t, ledger.Strict, func() res { return res{math.Float64bits(quiver.Sum(x))} })
	if math.Float64frombits(got[0]) != strict {
		t.Errorf("quiver's scalar sum is not the strict left fold: the comparison the note draws is gone")
	}
}
