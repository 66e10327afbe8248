package quiver

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// TestNoEscape checks that local arrays passed to the reductions stay on
// the stack: reduceLocals (a copy of testdata/noescape's) calls every
// exported reduction, every state's Add and SumReproducible on slices of
// local arrays, with local bitmaps and selections, on every backend, and
// must not allocate.
func TestNoEscape(t *testing.T) {
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("instrumented builds allocate")
	}
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		if a := testing.AllocsPerRun(20, func() { sinkNoEscape = reduceLocals() }); a != 0 {
			t.Errorf("reduceLocals allocates %v times per call, want 0", a)
		}
	})
}

var sinkNoEscape float64

// TestNoEscapeCompiler builds testdata/noescape with -gcflags=-m and
// fails on any "moved to heap" the compiler reports for it: a kernel
// reached through a function value, or assembly without //go:noescape,
// makes the compiler move the caller's arrays to the heap.
func TestNoEscapeCompiler(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "ios" || runtime.GOOS == "android" {
		t.Skip("no go command")
	}
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gocmd); err != nil {
		if gocmd, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	args := []string{"build", "-o", os.DevNull, "-gcflags=-m"}
	if puregoBuild {
		args = append(args, "-tags=purego")
	}
	cmd := exec.Command(gocmd, append(args, "./testdata/noescape")...)
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m ./testdata/noescape: %v\n%s", err, out)
	}
	moved := regexp.MustCompile(`moved to heap: \w+`)
	if !strings.Contains(string(out), "reduceLocals") && !strings.Contains(string(out), "main.go") {
		t.Fatalf("no compiler diagnostics for testdata/noescape:\n%s", out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if moved.MatchString(line) {
			t.Errorf("%s", line)
		}
	}
}

// TestHotHelpersInline builds testdata/noescape with -gcflags=-m=2 and
// checks that the helpers every dense call goes through inline for a
// float and an integer type: a helper one node over the inliner's budget
// becomes a call in every Min, Max, MinMax and Summarize (denseShort, the
// helper before denseCut, at cost 94 cost their kernel paths 5-10% on an
// AMD EPYC, family 26 model 2), and the short float Min and Max keep their
// chains in their own body. The inliner's costs are those of amd64 and
// arm64, where the kernels run; on 32-bit ports the same helper costs more
// (denseShort 137 on linux/arm), and nothing there was measured.
func TestHotHelpersInline(t *testing.T) {
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" || runtime.GOOS == "ios" || runtime.GOOS == "android" {
		t.Skip("no go command")
	}
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("inlining costs checked on amd64 and arm64 only")
	}
	if testing.CoverMode() != "" || raceEnabled {
		t.Skip("instrumented builds inline differently")
	}
	gocmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gocmd); err != nil {
		if gocmd, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	cmd := exec.Command(gocmd, "build", "-o", os.DevNull, "-gcflags=-m=2", "./testdata/noescape")
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2 ./testdata/noescape: %v\n%s", err, out)
	}
	for _, name := range []string{
		"quiver.denseCut[go.shape.float64]", "quiver.denseCut[go.shape.int64]",
		"kernel.ChainMin[go.shape.float64]", "kernel.ChainMin[go.shape.int64]", "kernel.ChainMax[go.shape.float32]",
	} {
		if !strings.Contains(string(out), "can inline "+name+" ") {
			re := regexp.MustCompile(`cannot inline ` + regexp.QuoteMeta(name) + `[^\n]*`)
			t.Errorf("%s does not inline: %s", name, re.FindString(string(out)))
		}
	}
}

//go:noinline
func reduceLocals() float64 {
	var f64 [300]float64
	var f32 [300]float32
	var i64 [300]int64
	var i8 [300]int8
	var u32 [300]uint32
	var u64 [300]uint64
	var bm [40]byte
	var sel [16]uint32
	for i := range f64 {
		f64[i], f32[i], i64[i], i8[i], u32[i], u64[i] = float64(i), float32(i), int64(i), int8(i), uint32(i), uint64(i)
	}
	for i := range bm {
		bm[i] = 0xa5
	}
	for i := range sel {
		sel[i] = uint32(5*i) % 8
	}
	var r float64
	for _, n := range []int{8, 64, 300} {
		for _, m := range []Mask{{}, Valid(bm[:], 3), Select(sel[:]), Valid(bm[:], 1).Select(sel[:])} {
			r += Sum(f64[:n], m) + float64(Sum(f32[:n], m))
			r += float64(SumInt(i64[:n], m) + SumInt(i8[:n], m))
			r += float64(SumUint(u32[:n], m) + SumUint(u64[:n], m))
			r += float64(SumChecked(i64[:n], m).Sum + SumChecked(i8[:n], m).Sum)
			r += float64(SumCheckedUint(u32[:n], m).Sum + SumCheckedUint(u64[:n], m).Sum)
			r += Min(f64[:n], m) + float64(Max(f32[:n], m)) + float64(Min(i8[:n], m)) + float64(Max(u64[:n], m))
			lo, hi := MinMax(i64[:n], m)
			r += float64(lo + hi)
			r += Summarize(f64[:n], m).Min + float64(Summarize(u32[:n], m).Max)
			r += float64(CountValid(n, m))
			r += SumReproducible(f64[:n], m) + float64(SumReproducible(f32[:n], m))

			var s64 SumState[float64]
			var s32 SumState[float32]
			s64.Add(f64[:n], m)
			s32.Add(f32[:n], m)
			var si IntSumState[int64]
			var si8 IntSumState[int8]
			si.Add(i64[:n], m)
			si8.Add(i8[:n], m)
			var su UintSumState[uint32]
			su.Add(u32[:n], m)
			var ss SummaryState[float64]
			var ssi SummaryState[int64]
			ss.Add(f64[:n], m)
			ssi.Add(i64[:n], m)
			var sc CountState
			sc.Add(n, m)
			var sr SumReproducibleState[float64]
			var sr32 SumReproducibleState[float32]
			sr.Add(f64[:n], m)
			sr32.Add(f32[:n], m)
			r += s64.Sum() + float64(s32.Sum()) + float64(si.Sum()+si8.Sum()) + float64(su.Sum()) +
				ss.Min() + float64(ssi.Max()) + float64(sc.Count()) + sr.Sum() + float64(sr32.Sum())
		}
	}
	return r
}

// TestMaskFitsInRegisters pins Mask at four words, which the compiler
// keeps in registers. A larger Mask (64 bytes, its slices whole) was built
// in a temporary and copied into each variadic call's argument array with
// loads the CPU could not forward from the stores before them, 6-7 ns a
// masked call (bench/maskcost_test.go). On 32-bit systems the bitmap's
// room is an int64, so there it is five words.
func TestMaskFitsInRegisters(t *testing.T) {
	word := unsafe.Sizeof(uintptr(0))
	want := 4 * word
	if word == 4 {
		want = 5 * word
	}
	if got := unsafe.Sizeof(Mask{}); got > want {
		t.Errorf("Mask is %d bytes, want at most %d", got, want)
	}
	if n := reflect.TypeOf(Mask{}).NumField(); n > 4 {
		t.Errorf("Mask has %d fields, want at most 4 (the compiler's limit for a struct in registers)", n)
	}
}
