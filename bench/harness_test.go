package bench

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"

	"github.com/quiverlabs/quiver"
	"github.com/quiverlabs/quiver/bench/internal/ledger"
)

// The matrix every operation runs over.
var (
	sizes     = []int{4096, 65536, 1 << 20}
	nullPcts  = []int{0, 10, 50} // 0 is the dense form: no bitmap at all
	quickSize = flag.Bool("quick", false, "a smoke run: n=4096 only, short inputs at n=8, selections sorted10 only, "+
		"partial states at one small input")
	shapesArg = flag.String("shapes", "large,short,sel,state", "comma-separated parts of the matrix to benchmark: "+
		"large (n > 256, no selection), short (n <= 256), sel (selection vectors) and state (partial states and the parallel reduce)")
)

// shapeKinds maps the -shapes names to the ledger's shapes.
var shapeKinds = map[string]ledger.Shape{"large": ledger.Large, "short": ledger.Short, "sel": ledger.Selection, "state": ledger.State}

// wantedShapes parses -shapes.
func wantedShapes() (map[ledger.Shape]bool, error) {
	want := map[ledger.Shape]bool{}
	for _, name := range strings.Split(*shapesArg, ",") {
		k, ok := shapeKinds[strings.TrimSpace(name)]
		if !ok {
			return nil, fmt.Errorf("-shapes: unknown part %q (want large, short, sel or state)", name)
		}
		want[k] = true
	}
	return want, nil
}

// shapeOf is the part of the matrix sh belongs to.
func shapeOf(sh shape) ledger.Shape {
	return ledger.ShapeOf(ledger.Config{N: sh.n, Sel: sh.sel})
}

// A shape is one configuration of an operation on a type: n elements,
// nulls percent of them null (0: no bitmap) and, when sel is not "", a
// selection vector of that kind (see newSelection).
type shape struct {
	n, nulls int
	sel      string
}

// mode says which part of its matrix a suite runs.
type mode int

const (
	full      mode = iota // the benchmarks
	quickMode             // the benchmarks with -quick
	testShort             // TestImplsAgree with -short
)

// A matrix lists the shapes a suite runs in a mode.
type matrix func(m mode) []shape

// grid is every combination of ns, nulls and sels.
func grid(ns, nulls []int, sels []string) []shape {
	var out []shape
	for _, n := range ns {
		for _, p := range nulls {
			for _, s := range sels {
				out = append(out, shape{n, p, s})
			}
		}
	}
	return out
}

// largeMatrix is the main matrix: sizes by nullPcts, no selection.
func largeMatrix(m mode) []shape {
	if m == full {
		return grid(sizes, nullPcts, []string{""})
	}
	return grid(sizes[:1], nullPcts, []string{""})
}

// TestMain prints the run's configuration in the benchmark format's
// "key: value" form before any result, so the raw output says on what it
// was measured and the ledger can group by machine.
func TestMain(m *testing.M) {
	flag.Parse()
	if _, err := wantedShapes(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if f := flag.Lookup("test.bench"); f != nil && f.Value.String() != "" {
		fmt.Printf("go: %s\n", runtime.Version())
		fmt.Printf("cpu-features: %s\n", cpuFeatures())
		var names []string
		for _, b := range quiver.Backends() {
			if b.Available {
				names = append(names, b.Name)
			}
		}
		fmt.Printf("quiver-backends: %s\n", strings.Join(names, " "))
		var pol []string
		for _, b := range quiver.Backends() {
			if b.Available {
				pol = append(pol, fmt.Sprintf("%s=%dx%d,%dx%d", b.Name,
					b.Float32.Accumulators, b.Float32.Lanes, b.Float64.Accumulators, b.Float64.Lanes))
			}
		}
		fmt.Printf("quiver-float-policies: %s\n", strings.Join(pol, " "))
		fmt.Printf("quiver-active: %s\n", quiver.ActiveBackend().Name)
		fmt.Printf("cpus: %d\n", runtime.NumCPU())
		if model := cpuinfoModel(); model != "" {
			fmt.Printf("cpuinfo-model: %s\n", model)
		}
		if id := cpuinfoID(); id != "" {
			fmt.Printf("cpuinfo-id: %s\n", id)
		}
	}
	os.Exit(m.Run())
}

// thisMachine is the running machine as the ledger will see it: the
// architecture and the features printed above.
func thisMachine() ledger.Machine {
	return ledger.Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, Features: cpuFeatures()}
}

// cpuinfoModel is the kernel's name for the CPU (the first "model name" of
// /proc/cpuinfo), which can differ from the brand string go test prints as
// cpu: on virtual machines; "" where there is no such file.
func cpuinfoModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// cpuinfoID is the kernel's identification of the CPU model, from the
// first processor of /proc/cpuinfo: "family 25 model 1" on x86 (the
// model name alone does not tell an AVX2-only EPYC from an AVX-512 one),
// "implementer 0x41 part 0xd0c" on arm64; "" where there is no such file.
// The ledger keeps one section per CPU model and names it with this.
func cpuinfoID() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	fields := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.TrimSpace(line) == "" && len(fields) > 0 {
			break // the end of the first processor
		}
		if k, v, ok := strings.Cut(line, ":"); ok {
			if k = strings.TrimSpace(k); fields[k] == "" {
				fields[k] = strings.TrimSpace(v)
			}
		}
	}
	switch {
	case fields["cpu family"] != "" && fields["model"] != "":
		return "family " + fields["cpu family"] + " model " + fields["model"]
	case fields["CPU implementer"] != "" && fields["CPU part"] != "":
		return "implementer " + fields["CPU implementer"] + " part " + fields["CPU part"]
	}
	return ""
}

// cpuFeatures lists the extensions that decide which quiver backend and
// which peer code paths (vek needs AVX2 and FMA) this CPU runs.
func cpuFeatures() string {
	var fs []string
	add := func(name string, ok bool) {
		if ok {
			fs = append(fs, name)
		}
	}
	switch runtime.GOARCH {
	case "amd64":
		add("avx2", cpu.X86.HasAVX2)
		add("avx512f", cpu.X86.HasAVX512F)
		add("avx512bw", cpu.X86.HasAVX512BW)
		add("avx512dq", cpu.X86.HasAVX512DQ)
		add("avx512vl", cpu.X86.HasAVX512VL)
		add("avx512vpopcntdq", cpu.X86.HasAVX512VPOPCNTDQ)
		add("bmi2", cpu.X86.HasBMI2)
		add("popcnt", cpu.X86.HasPOPCNT)
		add("fma", cpu.X86.HasFMA)
	case "arm64":
		add("asimd", cpu.ARM64.HasASIMD)
	}
	if len(fs) == 0 {
		return "none"
	}
	return strings.Join(fs, " ")
}

// number is every element type benchmarked.
type number interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~float32 | ~float64
}

// input is one configuration's data, shared by every implementation.
type input[T number] struct {
	x     []T
	bits  []byte        // nil when dense
	masks []quiver.Mask // nil when dense without a selection, else the one Mask
	n     int
	nulls int // percent
	// sel is the selection vector, nil without one; selKind its kind as
	// the benchmark name spells it.
	sel     []uint32
	selKind string
}

// newInput draws n values of T and, for nulls > 0, a validity bitmap with
// that percentage of nulls. The seed depends only on the configuration, so
// every pass and every implementation sees the same bytes. Floats have
// moderate magnitudes and random signs, so sums round but stay finite;
// there is no NaN, no zero and no infinity, so peers with other NaN and
// signed-zero rules compute the same result. Integers span their type.
func newInput[T number](n, nulls int) *input[T] {
	r := rand.New(rand.NewPCG(uint64(n), uint64(nulls)+1))
	in := &input[T]{x: make([]T, n), n: n, nulls: nulls}
	drawValues(r, in.x)
	if nulls > 0 {
		in.bits = drawBitmap(r, n, nulls)
		in.masks = []quiver.Mask{quiver.Valid(in.bits, 0)}
	}
	return in
}

// drawValues fills x with random values as newInput describes.
func drawValues[T number](r *rand.Rand, x []T) {
	for i := range x {
		if isFloat[T]() {
			for {
				f := (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-20)
				if f != 0 {
					x[i] = T(f)
					break
				}
			}
		} else {
			x[i] = T(r.Uint64())
		}
	}
}

// drawBitmap is a validity bitmap of n elements, each null with
// probability nulls percent, independently.
func drawBitmap(r *rand.Rand, n, nulls int) []byte {
	bits := make([]byte, (n+7)/8)
	for i := range n {
		if r.IntN(100) >= nulls {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return bits
}

// rotations is how many inputs a masked or short configuration's
// benchmark cycles through, one per timed call: a branch predictor learns
// the pattern of one small or fixed input (which bits are null, which
// compares change the minimum) after a few calls and then times a loop
// that branches on it as if it were branch-free. Eight bitmaps of 65536
// bits are more than any predictor holds; at the short sizes eight
// inputs of up to 128 elements still move the branchy loop's time by
// about a mispredict per call.
const rotations = 8

// variants is the inputs the benchmark of in's configuration cycles
// through: in itself and, when in has a bitmap or is short (n <=
// ShortMax), rotations-1 more of the same shape, each with a bitmap drawn
// independently at the same null percentage and, when short, values of
// its own. The selection vector and a large input's values are shared.
// Dense large inputs are not rotated: one value per element and no
// bitmap leave nothing for a predictor to learn that a real column would
// not teach it too.
func variants[T number](in *input[T]) []*input[T] {
	short := in.n <= ledger.ShortMax && in.sel == nil
	if in.bits == nil && !short {
		return []*input[T]{in}
	}
	out := []*input[T]{in}
	for k := 1; k < rotations; k++ {
		r := rand.New(rand.NewPCG(uint64(in.n)|uint64(k)<<48, uint64(in.nulls)+1))
		v := *in
		if short {
			v.x = make([]T, in.n)
			drawValues(r, v.x)
		}
		v.masks = nil
		if in.nulls > 0 {
			v.bits = drawBitmap(r, in.n, in.nulls)
			m := quiver.Valid(v.bits, 0)
			if in.sel != nil {
				m = m.Select(in.sel)
			}
			v.masks = []quiver.Mask{m}
		} else if in.sel != nil {
			v.masks = []quiver.Mask{quiver.Select(in.sel)}
		}
		out = append(out, &v)
	}
	return out
}

// valid reports whether element i is valid under the bitmap.
func (in *input[T]) valid(i int) bool {
	return in.bits == nil || in.bits[i>>3]>>(i&7)&1 != 0
}

// participating returns the indices of the elements a reduction visits,
// in its order: the selection's valid entries, or every valid element.
func (in *input[T]) participating() []int {
	var out []int
	if in.sel != nil {
		for _, i := range in.sel {
			if in.valid(int(i)) {
				out = append(out, int(i))
			}
		}
		return out
	}
	for i := range in.n {
		if in.valid(i) {
			out = append(out, i)
		}
	}
	return out
}

// newShapeInput is newInput for sh, with its selection vector: quiver is
// then called with quiver.Select(sel), or quiver.Valid(bits, 0).Select(sel)
// when there are nulls.
func newShapeInput[T number](sh shape) *input[T] {
	in := newInput[T](sh.n, sh.nulls)
	if sh.sel == "" {
		return in
	}
	in.sel, in.selKind = newSelection(sh.n, sh.sel), sh.sel
	if in.bits != nil {
		in.masks = []quiver.Mask{quiver.Valid(in.bits, 0).Select(in.sel)}
	} else {
		in.masks = []quiver.Mask{quiver.Select(in.sel)}
	}
	return in
}

// newSelection is a selection vector over n rows of the given kind:
// "sorted10" is 10% of the rows, distinct, in ascending order (what a
// vectorized filter hands on), "sorted50" half of them (any "sorted<P>"
// is P% of them), "random10" the rows of sorted10 in random order. The
// seed depends only on n and the kind, so every implementation and pass
// sees the same vector.
func newSelection(n int, kind string) []uint32 {
	pct, sorted := 0, true
	if p, ok := strings.CutPrefix(kind, "sorted"); ok {
		v, err := strconv.Atoi(p)
		if err != nil || v < 1 || v > 100 {
			panic("newSelection: unknown kind " + kind)
		}
		pct = v
	} else if kind == "random10" {
		pct, sorted = 10, false
	} else {
		panic("newSelection: unknown kind " + kind)
	}
	r := rand.New(rand.NewPCG(uint64(n), uint64(pct)))
	perm := r.Perm(n)[:max(n*pct/100, min(n, 1))] // at least one row
	sel := make([]uint32, len(perm))
	for i, p := range perm {
		sel[i] = uint32(p)
	}
	slices.Sort(sel)
	if !sorted {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		r.Shuffle(len(sel), func(i, j int) { sel[i], sel[j] = sel[j], sel[i] })
	}
	return sel
}

// res is an implementation's answer, kept as bit patterns so that it can
// be stored in a sink without allocating and compared exactly: a sum in
// v[0]; min, max and count in v[0..2].
type res [3]uint64

var sink res

// impl is one implementation of one configuration: a quiver backend (run
// after SetBackend(backend)), the plain loop or a peer.
type impl struct {
	name    string
	backend string // quiver backend to select first; "" for loop and peers
	run     func() res
}

func isFloat[T number]() bool {
	half := 0.5
	return T(half) != 0
}

// bitsOf is the exact bit pattern of v.
func bitsOf[T number](v T) uint64 {
	if isFloat[T]() {
		if unsafe.Sizeof(v) == 4 {
			return uint64(math.Float32bits(float32(v)))
		}
		return math.Float64bits(float64(v))
	}
	return uint64(int64(v))
}

// quiverImpls makes one impl per quiver backend this CPU runs, each
// running f.
func quiverImpls(f func() res) []impl {
	var out []impl
	for _, b := range quiver.Backends() {
		if b.Available {
			out = append(out, impl{name: b.Name, backend: b.Name, run: f})
		}
	}
	return out
}

// check is how an implementation's answer must compare with the strict
// reference's.
type check func(got, want res) error

// exact requires identical bits.
func exact(got, want res) error {
	if got != want {
		return fmt.Errorf("got %#x, want %#x", got, want)
	}
	return nil
}

// closeSum accepts a float sum whose distance to the reference's is within
// rel times the sum of magnitudes of the participating elements: another
// summation order rounds differently, but a wrong input or a dropped block
// is far outside that.
func closeSum[T number](in *input[T]) check {
	abs := 0.0
	for _, i := range in.participating() {
		abs += math.Abs(float64(in.x[i]))
	}
	rel := 1e-9
	if unsafe.Sizeof(in.x[0]) == 4 {
		rel = 1e-3
	}
	return func(got, want res) error {
		g, w := decodeFloat[T](got[0]), decodeFloat[T](want[0])
		if math.Abs(g-w) > rel*abs {
			return fmt.Errorf("sum %g, reference %g: off by more than %g of %g", g, w, rel, abs)
		}
		return nil
	}
}

func decodeFloat[T number](b uint64) float64 {
	var zero T
	if unsafe.Sizeof(zero) == 4 {
		return float64(math.Float32frombits(uint32(b)))
	}
	return math.Float64frombits(b)
}

// typeName is the element type's name in benchmark names.
func typeName[T number]() string {
	var zero T
	return fmt.Sprintf("%T", zero)
}

// A suite is one operation on one element type, run over its matrix by
// the benchmarks and checked by TestImplsAgree. Declaring the matrix once
// keeps what is timed and what is verified the same code.
type suite struct {
	op, typ string
	shapes  matrix
	bench   func(b *testing.B, sh shape)
	verify  func(t *testing.T, sh shape)
	alts    func(nulls int) []string // the loop and peers run at that null percentage
}

// runs reports whether the suite runs the alternative impl (the loop or a
// peer) on inputs with nulls percent nulls.
func (s suite) runs(impl string, nulls int) bool {
	return slices.Contains(s.alts(nulls), impl)
}

// builder returns, for one configuration's input, the quiver call (run on
// every available backend) and the alternatives (plain loop, peers).
type builder[T number] func(in *input[T]) (func() res, []impl)

// newSuite declares op on T over the main matrix: impls builds the
// implementations, cmp says how each must agree with the strict reference.
func newSuite[T number](op string, impls builder[T], cmp func(in *input[T]) check) suite {
	return newSuiteOver(op, largeMatrix, impls, cmp)
}

// newSuiteOver declares op on T over the shapes of m.
func newSuiteOver[T number](op string, m matrix, impls builder[T], cmp func(in *input[T]) check) suite {
	return suite{
		op:     op,
		typ:    typeName[T](),
		shapes: m,
		bench: func(b *testing.B, sh shape) {
			benchConfig(b, op, newShapeInput[T](sh), impls, cmp)
		},
		alts: func(nulls int) []string {
			_, alts := impls(newInput[T](64, nulls))
			var names []string
			for _, a := range alts {
				names = append(names, a.name)
			}
			return names
		},
		verify: func(t *testing.T, sh shape) {
			cfg := ledger.Config{Op: op, Type: typeName[T](), N: sh.n, Nulls: sh.nulls, Sel: sh.sel}
			for k, in := range variants(newShapeInput[T](sh)) {
				q, alts := impls(in)
				want := withBackend(t, ledger.Strict, q)
				cmpf := cmp(in)
				for _, im := range append(quiverImpls(q), alts...) {
					got := withBackend(t, im.backend, im.run)
					err := cmpf(got, want)
					if ledger.NoteFor(im.name, cfg, thisMachine()).Comparable {
						if err != nil {
							t.Errorf("%s/%s (input %d): %s disagrees with the strict reference: %v", cfg, im.name, k, im.name, err)
						}
					} else if err == nil && k == 0 {
						// The ledger says this one computes something
						// else; then it must, or the note (and the missing
						// best-peer mark) is wrong. (The first input is
						// the one the notes were checked on; another
						// bitmap may happen to give the same result.)
						t.Errorf("%s/%s: declared not comparable (%q) but agrees with the reference",
							cfg, im.name, ledger.NoteFor(im.name, cfg, thisMachine()).Text)
					}
				}
			}
		},
	}
}

// runSuites benchmarks suites of one operation. Suites of the same type
// (the main matrix, short inputs, selections) share one name tree,
// type=<T>/n=<N>/nulls=<P>[/sel=<S>], so that no level is run twice under
// one name (go test would rename the second "#01").
func runSuites(b *testing.B, suites []suite) {
	m := full
	if *quickSize {
		m = quickMode
	}
	want, _ := wantedShapes() // checked in TestMain
	type entry struct {
		s  suite
		sh shape
	}
	var types []string
	byType := map[string][]entry{}
	for _, s := range suites {
		if !slices.Contains(types, s.typ) {
			types = append(types, s.typ)
		}
		for _, sh := range s.shapes(m) {
			if !want[shapeOf(sh)] {
				continue
			}
			for _, e := range byType[s.typ] {
				if e.sh == sh {
					panic(fmt.Sprintf("two %s suites on %s run %+v", s.op, s.typ, sh))
				}
			}
			byType[s.typ] = append(byType[s.typ], entry{s, sh})
		}
	}
	if len(byType) == 0 {
		// Without any sub-benchmark, go test would time the function itself.
		b.Skip("no configuration of this operation in -shapes")
	}
	for _, typ := range types {
		es := byType[typ]
		if len(es) == 0 {
			continue
		}
		slices.SortStableFunc(es, func(x, y entry) int {
			if x.sh.n != y.sh.n {
				return x.sh.n - y.sh.n
			}
			if x.sh.nulls != y.sh.nulls {
				return x.sh.nulls - y.sh.nulls
			}
			return slices.Index(selKinds, x.sh.sel) - slices.Index(selKinds, y.sh.sel)
		})
		b.Run("type="+typ, func(b *testing.B) {
			for len(es) > 0 {
				n := es[0].sh.n
				end := 0
				for end < len(es) && es[end].sh.n == n {
					end++
				}
				byN := es[:end]
				es = es[end:]
				b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
					for len(byN) > 0 {
						nulls := byN[0].sh.nulls
						end := 0
						for end < len(byN) && byN[end].sh.nulls == nulls {
							end++
						}
						group := byN[:end]
						byN = byN[end:]
						b.Run(fmt.Sprintf("nulls=%d", nulls), func(b *testing.B) {
							for _, e := range group {
								if e.sh.sel == "" {
									e.s.bench(b, e.sh)
								} else {
									b.Run("sel="+e.sh.sel, func(b *testing.B) { e.s.bench(b, e.sh) })
								}
							}
						})
					}
				})
			}
		})
	}
}

// selKinds are the selection kinds, in the order they run; "" is none.
var selKinds = []string{"", "sorted10", "sorted50", "random10"}

// allSuites is the whole matrix, in ledger order.
func allSuites() []suite {
	var out []suite
	for _, ss := range [][]suite{
		sumSuites, shortSumSuites, selSumSuites, sumCheckedSuites,
		opSuites("Min", minSuites), opSuites("Max", maxSuites), opSuites("MinMax", minMaxSuites),
		summarySuites, shapeSummarySuites, countValidSuites,
	} {
		out = append(out, ss...)
	}
	return out
}

// TestImplsAgree runs every implementation of every configuration once
// and checks it against the strict reference: comparable ones must agree,
// and the ones the ledger declares different must in fact differ. -short
// checks a subset: the main matrix at its smallest size, some short sizes.
func TestImplsAgree(t *testing.T) {
	m := full
	if testing.Short() {
		m = testShort
	}
	for _, s := range allSuites() {
		for _, sh := range s.shapes(m) {
			s.verify(t, sh)
		}
	}
}

// benchConfig checks and times every implementation of one configuration.
// A masked or short configuration is timed over its variants: each timed
// call takes the next input in turn (see rotations), quiver and the
// alternatives alike, and each input's result is checked first.
func benchConfig[T number](b *testing.B, op string, in *input[T], impls builder[T], cmp func(in *input[T]) check) {
	cfg := ledger.Config{Op: op, Type: typeName[T](), N: in.n, Nulls: in.nulls, Sel: in.selKind}
	type variant struct {
		impls []impl
		want  res
		cmp   check
	}
	var vs []variant
	for _, v := range variants(in) {
		q, alts := impls(v)
		vs = append(vs, variant{append(quiverImpls(q), alts...), withBackend(b, ledger.Strict, q), cmp(v)})
	}
	for j, im := range vs[0].impls {
		runs := make([]func() res, len(vs))
		for k, v := range vs {
			if v.impls[j].name != im.name {
				b.Fatalf("input %d has implementation %s where the first has %s", k, v.impls[j].name, im.name)
			}
			runs[k] = v.impls[j].run
		}
		b.Run("impl="+im.name, func(b *testing.B) {
			if im.backend != "" {
				prev := quiver.ActiveBackend().Name
				defer quiver.SetBackend(prev)
				if err := quiver.SetBackend(im.backend); err != nil {
					b.Fatal(err)
				}
			}
			if ledger.NoteFor(im.name, cfg, thisMachine()).Comparable {
				for k, v := range vs {
					if err := v.cmp(runs[k](), v.want); err != nil {
						b.Fatalf("%s disagrees with the strict reference on input %d: %v", im.name, k, err)
					}
				}
			}
			b.SetBytes(bytesRead(op, in))
			timeRuns(b, runs)
		})
	}
}

// timeRuns is the timed loop: one call of runs[k] per iteration, k
// cycling through runs, without allocating.
func timeRuns(b *testing.B, runs []func() res) {
	if len(runs) == 1 {
		run := runs[0]
		for b.Loop() {
			sink = run()
		}
		return
	}
	k := 0
	for b.Loop() {
		sink = runs[k]()
		if k++; k == len(runs) {
			k = 0
		}
	}
}

// bytesRead is what a reduction of in reads, for the MB/s column: the
// visited elements (the selection's, when there is one), the bitmap alone
// for CountValid.
func bytesRead[T number](op string, in *input[T]) int64 {
	if op == "CountValid" {
		return int64(len(in.bits))
	}
	var zero T
	n := in.n
	if in.sel != nil {
		n = len(in.sel)
	}
	return int64(n) * int64(unsafe.Sizeof(zero))
}

// withBackend runs f on the named quiver backend, or as is for "".
func withBackend(tb testing.TB, name string, f func() res) res {
	if name == "" {
		return f()
	}
	prev := quiver.ActiveBackend().Name
	defer quiver.SetBackend(prev)
	if err := quiver.SetBackend(name); err != nil {
		tb.Fatal(err)
	}
	return f()
}
