package quiver

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/oracle"
)

// Golden encodings (ADR-107): testdata/encoding holds an encoding of every
// state type, written by `go test -run TestEncodingGolden -update` from
// the deterministic generator. The test runs in the normal suite on every
// port (amd64, arm64, 386, s390x, js/wasm in scripts/test.sh), where it
// checks that the golden bytes decode to the results of the same history
// fed locally, that every backend of the port encodes that history to the
// golden bytes, and that a decoded state merged with a local one gives
// what one state over all the rows gives. A float SumState's bytes depend
// on its backend's layout, so it has one file per layout (sum_<type>_a<A>w<W>):
// the layout's backend, where the port has it, must encode the golden
// bytes, and every port must decode every layout to the ADR-013 sum of
// the data in that layout and continue it as UnmarshalBinary says.

var updateGolden = flag.Bool("update", false, "rewrite the golden encodings in testdata/encoding")

const goldenDir = "testdata/encoding"

// goldenSeed is the generator seed of a golden case: its name's bytes.
func goldenSeed(name string) uint64 {
	var s uint64
	for _, c := range []byte(name) {
		s = s*131 + uint64(c)
	}
	return s
}

func goldenFile(t *testing.T, name string, enc []byte) []byte {
	t.Helper()
	path := filepath.Join(goldenDir, name+".bin")
	if *updateGolden {
		if err := os.WriteFile(path, enc, 0o644); err != nil {
			t.Fatal(err)
		}
		return enc
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate with go test -run TestEncodingGolden -update)", err)
	}
	return b
}

func TestEncodingGolden(t *testing.T) {
	prev := ActiveBackend().Name
	defer SetBackend(prev)
	for _, c := range encCases {
		if strings.HasPrefix(c.name, "sum_") {
			continue
		}
		for _, specials := range []bool{false, true} {
			name := c.name
			if specials {
				name += "_specials"
			}
			t.Run(name, func(t *testing.T) { goldenCase(t, c, name, specials) })
		}
	}
	t.Run("sum_float32", func(t *testing.T) { goldenSum[float32](t) })
	t.Run("sum_float64", func(t *testing.T) { goldenSum[float64](t) })
}

// goldenCase checks the golden file of a state type other than SumState:
// the history of seed name, with or without special values.
func goldenCase(t *testing.T, c encCase, name string, specials bool) {
	seed := goldenSeed(name)
	want := encFed(c, seed, 4, specials)
	golden := goldenFile(t, name, marshal(t, want))
	// The grouped float sum propagates NaN payloads as the hardware does
	// (x86 and s390x differ), so with NaN inputs its content is not
	// port-independent: the golden bytes must still decode and encode
	// again unchanged, bit for bit.
	dec := c.new()
	if err := dec.UnmarshalBinary(golden); err != nil {
		t.Fatal(err)
	}
	if enc := marshal(t, dec); !bytes.Equal(enc, golden) {
		t.Fatalf("the golden state encodes again as\n%x\nwant\n%x", enc, golden)
	}
	if specials && strings.HasPrefix(name, "groupsum_") {
		return
	}
	for _, b := range Backends() {
		if !b.Available {
			continue
		}
		if err := SetBackend(b.Name); err != nil {
			t.Fatal(err)
		}
		if enc := marshal(t, encFed(c, seed, 4, specials)); !bytes.Equal(enc, golden) {
			t.Errorf("backend %s encodes\n%x\nwant the golden\n%x", b.Name, enc, golden)
		}
		got := c.new()
		if err := got.UnmarshalBinary(golden); err != nil {
			t.Fatalf("backend %s: %v", b.Name, err)
		}
		if g, w := got.results(), want.results(); g != w {
			t.Errorf("backend %s: the golden state gives\n%s\nwant\n%s", b.Name, g, w)
		}
		if c.name == "groupsum_float32" || c.name == "groupsum_float64" {
			continue // its Merge is the fold of the pieces' sums, not of all rows
		}
		// Merged with a local state: one state over all the rows.
		one := encFed(c, seed, 4, specials)
		g2 := &encGen{s: seed + 1, specials: specials}
		local := c.new()
		for range 3 {
			one.feed(&encGen{s: g2.s, specials: specials})
			local.feed(g2)
		}
		got.merge(local)
		if g, w := got.results(), one.results(); g != w {
			t.Errorf("backend %s: golden merged with a local state gives\n%s\nwant one state over all rows\n%s", b.Name, g, w)
		}
	}
}

// goldenSumData is the data of the SumState goldens: dense batches (no
// Mask, so one run), the last one leaving a partial block.
func goldenSumData[T constraints.Float](name string) [][]T {
	g := &encGen{s: goldenSeed(name), dense: true}
	out := [][]T{}
	for _, n := range []int{1, 37, 300, 64, 5, 93} {
		out = append(out, encValues[T](g, n))
	}
	return out
}

func layoutName(p oracle.Policy) string { return fmt.Sprintf("a%dw%d", p.A, p.W) }

// goldenSum checks the SumState goldens of T, one per layout.
func goldenSum[T constraints.Float](t *testing.T) {
	name := "sum_" + fmt.Sprintf("%T", T(0))
	data := goldenSumData[T](name)
	var all []T
	for _, x := range data {
		all = append(all, x...)
	}
	more := encValues[T](&encGen{s: 99, dense: true}, 301)
	prev := ActiveBackend().Name
	defer SetBackend(prev)
	local := map[oracle.Policy]string{} // layouts of this port's available backends
	for _, b := range Backends() {
		if !b.Available {
			continue
		}
		p := floatPolicy[T](backendNamed(b.Name))
		local[p] = b.Name
		if err := SetBackend(b.Name); err != nil {
			t.Fatal(err)
		}
		var s SumState[T]
		for _, x := range data {
			s.Add(x)
		}
		enc := marshal(t, &eSum[T]{s})
		file := name + "_" + layoutName(p)
		if *updateGolden {
			goldenFile(t, file, enc)
		} else if _, err := os.Stat(filepath.Join(goldenDir, file+".bin")); err != nil {
			t.Errorf("backend %s: no golden file %s.bin for its layout", b.Name, file)
		} else if golden := goldenFile(t, file, nil); !bytes.Equal(enc, golden) {
			t.Errorf("backend %s encodes\n%x\nwant the golden\n%x", b.Name, enc, golden)
		}
	}
	files, _ := filepath.Glob(filepath.Join(goldenDir, name+"_a*w*.bin"))
	if len(files) < 2 {
		t.Fatalf("golden files of %s: %v, want at least the scalar and one SIMD layout", name, files)
	}
	for _, f := range files {
		var p oracle.Policy
		if _, err := fmt.Sscanf(strings.TrimPrefix(filepath.Base(f), name+"_"), "a%dw%d.bin", &p.A, &p.W); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		golden, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range Backends() {
			if !b.Available {
				continue
			}
			SetBackend(b.Name)
			checkSumLayout(t, fmt.Sprintf("%s on %s", filepath.Base(f), b.Name), golden, all, more, p, local)
		}
	}
}

// backendNamed returns the registered backend of that name.
func backendNamed(name string) *backend {
	for _, b := range registry {
		if b.name == name {
			return b
		}
	}
	panic("no backend " + name)
}

// checkSumLayout decodes enc, a SumState[T] of one run over x in layout
// p, on the active backend, and checks the decision of ADR-107: the sum is
// x's ADR-013 sum in layout p; if a backend of layout p is available (in
// local) the run continues in that layout, else later batches start a
// new run on the active backend after the folded carry; merged after a
// local state, the sum is the local sum plus x's sum.
func checkSumLayout[T constraints.Float](t *testing.T, what string, enc []byte, x, more []T, p oracle.Policy, local map[oracle.Policy]string) {
	t.Helper()
	var s SumState[T]
	if err := s.UnmarshalBinary(enc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	want := oracle.Sum(x, nil, 0, p)
	if got := s.Sum(); math.Float64bits(float64(got)) != math.Float64bits(float64(want)) {
		t.Fatalf("%s: decoded Sum %v, want %v, the sum in layout %v", what, got, want, p)
	}
	act := floatPolicy[T](active.Load())
	z := more[:97]
	var pre SumState[T]
	pre.Add(z)
	pre.Merge(&s)
	if got, w := pre.Sum(), oracle.Sum(z, nil, 0, act)+want; got != w && !(got != got && w != w) {
		t.Errorf("%s: merged after a local state: %v, want %v", what, got, w)
	}
	s.Add(more)
	var w T
	if _, ok := local[p]; ok || act == p {
		w = oracle.Sum(append(append([]T{}, x...), more...), nil, 0, p)
	} else {
		w = want + oracle.Sum(more, nil, 0, act)
	}
	if got := s.Sum(); math.Float64bits(float64(got)) != math.Float64bits(float64(w)) {
		t.Errorf("%s: after a further Add: %v, want %v (layout %v available here: %v)", what, got, w, p, local[p] != "")
	}
}

// laneEncoding builds by hand, as ADR-107 describes the format, the
// encoding of a SumState[T] that ran x in layout p: ADR-013 step 1 into
// the lanes, the tail pending.
func laneEncoding[T constraints.Float](x []T, p oracle.Policy) []byte {
	blk := p.Block()
	full := len(x) - len(x)%blk
	lanes := make([]T, blk)
	for b := 0; b < full; b += blk {
		for i := range blk {
			lanes[i] += x[b+i]
		}
	}
	enc := []byte{'Q', 'V', 1, 1, elemCode[T](), sumRun, byte(p.A), byte(p.W), byte(len(x) - full)}
	for _, v := range append(lanes, x[full:]...) {
		enc = appendValue(enc, v)
	}
	return enc
}

// TestSumStateAcrossLayouts: states of layouts this build has and of
// layouts it has not (hand-built) decode, on every backend, to their sum
// and continue as ADR-107 decides; a state encoded on one backend and
// decoded where its layout is gone is folded, and where it is present
// continues bit for bit.
func TestSumStateAcrossLayouts(t *testing.T) {
	t.Run("float32", func(t *testing.T) { sumAcrossLayouts[float32](t) })
	t.Run("float64", func(t *testing.T) { sumAcrossLayouts[float64](t) })
}

func sumAcrossLayouts[T constraints.Float](t *testing.T) {
	local := map[oracle.Policy]string{}
	for _, b := range Backends() {
		if b.Available {
			local[floatPolicy[T](backendNamed(b.Name))] = b.Name
		}
	}
	g := &encGen{s: 7, dense: true}
	more := encValues[T](g, 203)
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		for _, p := range []oracle.Policy{{A: 1, W: 1}, {A: 2, W: 1}, {A: 2, W: 3}, {A: 4, W: 2}, {A: 4, W: 4}, {A: 4, W: 8}, {A: 4, W: 16}, {A: 8, W: 8}, {A: 1, W: 64}, {A: 64, W: 1}} {
			for _, n := range []int{0, 1, p.Block() - 1, 5*p.Block() + p.Block()/2, 1000} {
				x := encValues[T](g, n)
				checkSumLayout(t, fmt.Sprintf("layout %v, %d elements", p, n), laneEncoding(x, p), x, more, p, local)
			}
		}
	})
	// Encoded on each SIMD backend, decoded where only the scalar layout
	// is offered: folded, same sum, then the left fold of the pieces.
	prev := ActiveBackend().Name
	defer SetBackend(prev)
	for p, name := range local {
		if p.Block() == 1 {
			continue
		}
		SetBackend(name)
		x := encValues[T](g, 1001)
		var s SumState[T]
		s.Add(x[:400])
		s.Add(x[400:])
		enc := marshal(t, &eSum[T]{s})
		SetBackend("scalar")
		decodeBackends = func() []*backend { return []*backend{scalarBackend} }
		var d SumState[T]
		err := d.UnmarshalBinary(enc)
		decodeBackends = func() []*backend { return registry }
		if err != nil {
			t.Fatal(err)
		}
		if d.Sum() != s.Sum() || d.b != nil || !d.carried {
			t.Fatalf("%s state folded on scalar: Sum %v (run %v), want %v as a carry", name, d.Sum(), d.b != nil, s.Sum())
		}
		d.Add(more)
		if got, w := d.Sum(), s.Sum()+oracle.Sum(more, nil, 0, oracle.Policy{A: 1, W: 1}); got != w {
			t.Errorf("%s state folded on scalar, then Add: %v, want %v", name, got, w)
		}
		// The scalar backend active, the layout's backend still offered:
		// the run continues on it, bit for bit.
		var r SumState[T]
		if err := r.UnmarshalBinary(enc); err != nil {
			t.Fatal(err)
		}
		r.Add(more)
		s.Add(more)
		if r.Sum() != s.Sum() || r.b == nil || r.b.name != name {
			t.Errorf("%s state decoded with scalar active: %v after Add, want %v, continuing on %s", name, r.Sum(), s.Sum(), name)
		}
	}
}
