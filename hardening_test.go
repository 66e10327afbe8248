package quiver

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/ref"
)

// Inputs outside the contract. Every entry point, on every backend, must
// answer them with a panic whose message starts with "quiver: " and names
// the numbers, before any kernel runs: never a value, never a runtime
// error, never a fault. The offsets and lengths here sit where int
// arithmetic overflows (near MaxInt, and where off+n or off+n+7 wraps),
// which an in-range sweep never reaches.

// quiverPanic runs f and returns its panic message, failing the test if f
// returns normally or panics with anything but a "quiver: " string.
func quiverPanic(t *testing.T, what string, f func()) (msg string) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		s, ok := r.(string)
		switch {
		case r == nil:
			t.Errorf("%s: returned normally, want a quiver: panic", what)
		case !ok || !strings.HasPrefix(s, "quiver: "):
			t.Errorf("%s: panicked with %v (%T), want a quiver: message", what, r, r)
		}
		msg = s
	}()
	f()
	return ""
}

// hostileOffsets are bitmap offsets that are valid ints but cannot be
// covered by any small bitmap, chosen where offset arithmetic wraps.
func hostileOffsets(n int) []int {
	return []int{
		math.MaxInt, math.MaxInt - 1, math.MaxInt - 3, math.MaxInt - 7,
		math.MaxInt - n, math.MaxInt - n + 1, math.MaxInt - n - 7,
		math.MaxInt &^ 7, math.MaxInt/8 + 1, math.MaxInt / 2,
		1 << (strconv.IntSize - 4), 1<<(strconv.IntSize-4) - 1,
	}
}

// opsOf lists every reduction over x of type T, each as a function of the
// mask, so that one sweep covers the whole API.
func opsOf[T Number](x []T) map[string]func(Mask) {
	ops := map[string]func(Mask){
		"Min":        func(m Mask) { Min(x, m) },
		"Max":        func(m Mask) { Max(x, m) },
		"MinMax":     func(m Mask) { MinMax(x, m) },
		"Summarize":  func(m Mask) { Summarize(x, m) },
		"CountValid": func(m Mask) { CountValid(len(x), m) },
	}
	sumOps[T](ops, x)
	return ops
}

// sumOps adds the sums that apply to T.
func sumOps[T Number](ops map[string]func(Mask), x []T) {
	switch any(x).(type) {
	case []float32:
		ops["Sum"] = func(m Mask) { Sum(any(x).([]float32), m) }
	case []float64:
		ops["Sum"] = func(m Mask) { Sum(any(x).([]float64), m) }
	case []int8:
		signedOps(ops, any(x).([]int8))
	case []int16:
		signedOps(ops, any(x).([]int16))
	case []int32:
		signedOps(ops, any(x).([]int32))
	case []int64:
		signedOps(ops, any(x).([]int64))
	case []uint8:
		unsignedOps(ops, any(x).([]uint8))
	case []uint16:
		unsignedOps(ops, any(x).([]uint16))
	case []uint32:
		unsignedOps(ops, any(x).([]uint32))
	case []uint64:
		unsignedOps(ops, any(x).([]uint64))
	}
}

func signedOps[T constraints.Signed](ops map[string]func(Mask), x []T) {
	ops["SumInt"] = func(m Mask) { SumInt(x, m) }
	ops["SumChecked"] = func(m Mask) { SumChecked(x, m) }
}

func unsignedOps[T constraints.Unsigned](ops map[string]func(Mask), x []T) {
	ops["SumUint"] = func(m Mask) { SumUint(x, m) }
	ops["SumCheckedUint"] = func(m Mask) { SumCheckedUint(x, m) }
}

// ones returns a bitmap of k bytes, every bit set.
func ones(k int) []byte {
	b := make([]byte, k)
	for i := range b {
		b[i] = 0xFF
	}
	return b
}

func TestOverflowSweep(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float32", overflowSweep[float32])
		t.Run("float64", overflowSweep[float64])
		t.Run("int8", overflowSweep[int8])
		t.Run("int16", overflowSweep[int16])
		t.Run("int32", overflowSweep[int32])
		t.Run("int64", overflowSweep[int64])
		t.Run("uint8", overflowSweep[uint8])
		t.Run("uint16", overflowSweep[uint16])
		t.Run("uint32", overflowSweep[uint32])
		t.Run("uint64", overflowSweep[uint64])
		t.Run("CountValid", overflowCountValid)
	})
}

func overflowSweep[T Number](t *testing.T) {
	for _, n := range []int{1, 3, 8, 40, 64, 129} {
		x := make([]T, n)
		for i := range x {
			x[i] = T(i + 1)
		}
		for name, op := range opsOf(x) {
			// Hostile offsets with bitmaps that look plausible: as long as
			// n needs, and the 8 bytes a wrapped offset would pick.
			for _, off := range hostileOffsets(n) {
				for _, k := range []int{2, 8, (n + 7) / 8, (n+7)/8 + 1, 64} {
					what := fmt.Sprintf("%s(n=%d, Valid(%d bytes, off=%d))", name, n, k, off)
					msg := quiverPanic(t, what, func() { op(Valid(ones(k), off)) })
					if msg != "" && !strings.Contains(msg, strconv.Itoa(off)) {
						t.Errorf("%s: message %q does not name the offset", what, msg)
					}
					what += ".Select([0])"
					quiverPanic(t, what, func() { op(Valid(ones(k), off).Select([]uint32{0})) })
				}
			}
			// A bitmap one byte short at every offset within two words.
			for off := range 128 {
				need := (off + n + 7) / 8
				what := fmt.Sprintf("%s(n=%d, Valid(%d bytes, off=%d))", name, n, need-1, off)
				msg := quiverPanic(t, what, func() { op(Valid(ones(need-1), off)) })
				// need-1 bytes hold 8*(need-1) bits, of which those from
				// off on are the room; an offset beyond them is past the end.
				want := fmt.Sprintf("quiver: validity bitmap offset %d is past the end of the bitmap, for %d elements", off, n)
				if room := 8*(need-1) - off; room >= 0 {
					want = fmt.Sprintf("quiver: validity bitmap has %d bits from its offset to its end, need %d, one per element", room, n)
				}
				if msg != "" && msg != want {
					t.Errorf("%s: panic %q, want %q", what, msg, want)
				}
				quiverPanic(t, what+".Select([0])", func() { op(Valid(ones(need-1), off).Select([]uint32{0})) })
			}
			// Selection indices out of range, with and without a bitmap.
			for _, s := range []uint32{uint32(n), uint32(n) + 1, math.MaxInt32, math.MaxUint32} {
				quiverPanic(t, fmt.Sprintf("%s(n=%d, Select([%d]))", name, n, s), func() { op(Select([]uint32{0, s})) })
				quiverPanic(t, fmt.Sprintf("%s(n=%d, Valid.Select([%d]))", name, n, s),
					func() { op(Valid(ones(64), 0).Select([]uint32{s, 0})) })
			}
		}
	}
}

// overflowCountValid covers CountValid's caller-supplied n, which a slice
// length never bounds.
func overflowCountValid(t *testing.T) {
	for _, n := range []int{math.MaxInt, math.MaxInt - 1, math.MaxInt - 3, math.MaxInt - 6, math.MaxInt - 7,
		math.MaxInt - 8, math.MaxInt / 2, math.MaxInt/8 + 1, 1 << 40 & math.MaxInt, 17, 64} {
		for _, off := range append([]int{0, 1, 3, 7, 8, 63}, hostileOffsets(1)...) {
			for _, k := range []int{0, 2, 8, 64} {
				if inContract(k, off, n) { // not this test's business
					continue
				}
				what := fmt.Sprintf("CountValid(%d, Valid(%d bytes, off=%d))", n, k, off)
				quiverPanic(t, what, func() { CountValid(n, Valid(ones(k), off)) })
				quiverPanic(t, what+".Select([0])", func() { CountValid(n, Valid(ones(k), off).Select([]uint32{0})) })
			}
		}
	}
	// Without a bitmap a huge n is in contract: n valid elements, or the
	// selected ones.
	if got := CountValid(math.MaxInt); got != math.MaxInt {
		t.Errorf("CountValid(MaxInt) = %d", got)
	}
	if got := CountValid(math.MaxInt, Valid(nil, math.MaxInt)); got != math.MaxInt {
		t.Errorf("CountValid(MaxInt, Valid(nil, MaxInt)) = %d", got)
	}
	top := uint32(min(uint64(math.MaxUint32), uint64(math.MaxInt-1))) // the largest index below MaxInt
	if got := CountValid(math.MaxInt, Select([]uint32{0, top, 7})); got != 3 {
		t.Errorf("CountValid(MaxInt, Select(3 entries)) = %d, want 3", got)
	}
}

// TestMaskRules pins the rules that ADR-101 and ADR-102 write down for the
// shapes of a Mask.
func TestMaskRules(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	// A negative offset panics where the Mask is built, bitmap or not.
	mustPanic(t, "quiver: Valid: bitmap offset -3 is negative", func() { Valid(nil, -3) })
	mustPanic(t, "quiver: Valid: bitmap offset -1 is negative", func() { Valid([]byte{0xFF}, -1) })
	mustPanic(t, fmt.Sprintf("quiver: Valid: bitmap offset %d is negative", math.MinInt), func() { Valid(nil, math.MinInt) })
	// A Mask holds at most one selection: a second Select panics rather
	// than silently replacing the first.
	mustPanic(t, "quiver: Mask.Select: the mask already has a selection of 2 indices", func() {
		Valid(ones(1), 0).Select([]uint32{0, 1}).Select([]uint32{2})
	})
	mustPanic(t, "quiver: Mask.Select: the mask already has a selection of 0 indices", func() {
		Select(nil).Select([]uint32{2})
	})
	// With no elements no bit is read, so any bitmap, even an empty one,
	// covers them at any offset, as a nil bitmap does.
	for _, off := range []int{0, 5, 8, 1 << 20, math.MaxInt} {
		for _, bm := range [][]byte{nil, {}, {0}} {
			if got := Sum([]float64{}, Valid(bm, off)); got != 0 {
				t.Errorf("Sum([], Valid(%v, %d)) = %v, want 0", bm, off, got)
			}
			if got := CountValid(0, Valid(bm, off)); got != 0 {
				t.Errorf("CountValid(0, Valid(%v, %d)) = %d, want 0", bm, off, got)
			}
			if s := Summarize([]int64{}, Valid(bm, off).Select(nil)); s.Count != 0 || s.Nulls != 0 {
				t.Errorf("Summarize([], Valid(%v, %d).Select(nil)) = %+v", bm, off, s)
			}
		}
	}
	// The last element may sit on the last bit an int can address.
	if got := CountValid(1, Valid(ones(1), 7)); got != 1 {
		t.Errorf("CountValid(1, Valid(1 byte, 7)) = %d, want 1", got)
	}
	if got := Sum(x, Valid(ones(1), 4)); got != 10 {
		t.Errorf("Sum(x, Valid(1 byte, 4)) = %v, want 10", got)
	}
}

// FuzzMaskExtremes decodes an offset and a CountValid length anywhere in
// int's range (not a small offset mod 64), and checks every backend: in
// contract, the reference's answer; outside it, a quiver: panic.
func FuzzMaskExtremes(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, []byte{0xFF, 0xFF}, int64(math.MaxInt64-3), int64(5), []byte{})
	f.Add([]byte{1, 2, 3}, []byte{0xFF, 0xFF}, int64(-3), int64(math.MaxInt64), []byte{})
	f.Add([]byte{9, 8, 7, 6}, []byte{0xA5}, int64(4), int64(4), []byte{3, 0, 1})
	f.Add([]byte{}, []byte{}, int64(5), int64(0), []byte{})
	f.Add([]byte{1}, []byte{0x80}, int64(7), int64(1), []byte{0})
	f.Fuzz(func(t *testing.T, data, bits []byte, off64, n64 int64, selRaw []byte) {
		off, n := int(off64), int(n64)
		if int64(off) != off64 || int64(n) != n64 {
			return // does not fit this platform's int
		}
		x := make([]int64, len(data))
		for i, d := range data {
			x[i] = int64(int8(d)) << 40
		}
		var sel []uint32
		for i := 0; i+1 < len(selRaw); i += 2 {
			sel = append(sel, uint32(selRaw[i])|uint32(selRaw[i+1])<<8)
		}
		useSel := len(selRaw)%2 == 1
		for _, b := range availableBackends() {
			if err := SetBackend(b.name); err != nil {
				t.Fatal(err)
			}
			fuzzExtremes(t, b.name, x, bits, off, n, sel, useSel)
		}
		SetBackend(availableBackends()[0].name)
	})
}

// inContract reports whether a bitmap of k bytes covers n elements from
// bit off, by exact arithmetic.
func inContract(k, off, n int) bool {
	if off < 0 || n < 0 {
		return false
	}
	if n == 0 {
		return true
	}
	end := new(big.Int).Add(big.NewInt(int64(off)), big.NewInt(int64(n)))
	return end.Cmp(new(big.Int).Mul(big.NewInt(int64(k)), big.NewInt(8))) <= 0
}

func fuzzExtremes(t *testing.T, backend string, x []int64, bits []byte, off, n int, sel []uint32, useSel bool) {
	mask := func() Mask {
		m := Valid(bits, off)
		if useSel {
			m = m.Select(sel)
		}
		return m
	}
	selOK := func(n int) bool {
		for _, s := range sel {
			if !useSel {
				break
			}
			if uint64(s) >= uint64(n) {
				return false
			}
		}
		return true
	}
	what := func(op string, n int) string {
		return fmt.Sprintf("%s: %s(n=%d, Valid(%d bytes, %d), sel=%v %v)", backend, op, n, len(bits), off, useSel, sel)
	}
	if off < 0 {
		quiverPanic(t, what("Valid", n), func() { mask() })
		return
	}
	rm := ref.Mask{Bits: bits, Off: off, Sel: sel, HasSel: useSel}
	if inContract(len(bits), off, len(x)) && selOK(len(x)) {
		if got, want := SumInt(x, mask()), ref.SumInt[int64, int64](x, rm); got != want {
			t.Fatalf("%s = %d, reference %d", what("SumInt", len(x)), got, want)
		}
		gs := SumChecked(x, mask())
		if ws, wo := ref.SumCheckedSigned(x, rm); gs.Sum != ws || gs.Overflowed != wo {
			t.Fatalf("%s = %+v, reference (%d, %v)", what("SumChecked", len(x)), gs, ws, wo)
		}
		s := Summarize(x, mask())
		if lo, hi, c, nl := ref.Summary(x, rm); s.Min != lo || s.Max != hi || s.Count != c || s.Nulls != nl {
			t.Fatalf("%s = %+v, reference (%d, %d, %d, %d)", what("Summarize", len(x)), s, lo, hi, c, nl)
		}
	} else {
		quiverPanic(t, what("SumInt", len(x)), func() { SumInt(x, mask()) })
		quiverPanic(t, what("SumChecked", len(x)), func() { SumChecked(x, mask()) })
		quiverPanic(t, what("Summarize", len(x)), func() { Summarize(x, mask()) })
		quiverPanic(t, what("Min", len(x)), func() { Min(x, mask()) })
	}
	switch {
	case n < 0:
		quiverPanic(t, what("CountValid", n), func() { CountValid(n, mask()) })
	case (bits == nil || inContract(len(bits), off, n)) && selOK(n):
		want := n
		if useSel || bits != nil {
			want = ref.CountValid(n, rm)
		}
		if got := CountValid(n, mask()); got != want {
			t.Fatalf("%s = %d, reference %d", what("CountValid", n), got, want)
		}
	default:
		quiverPanic(t, what("CountValid", n), func() { CountValid(n, mask()) })
	}
}

// TestSelectionIndexEveryPosition puts one index out of range at every
// position of selections long enough to enter each loop's unrolled body,
// each gather kernel's steps and their tails, with and without a bitmap,
// in ascending and in random order (the gathers take only some of these):
// every operation must panic with the message naming that position. The
// selection loops check their indices themselves, unrolled, so a check
// left out of one lane shows only at some positions.
func TestSelectionIndexEveryPosition(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("float32", selectionIndexEveryPosition[float32])
		t.Run("float64", selectionIndexEveryPosition[float64])
		t.Run("int8", selectionIndexEveryPosition[int8])
		t.Run("int32", selectionIndexEveryPosition[int32])
		t.Run("int64", selectionIndexEveryPosition[int64])
		t.Run("uint8", selectionIndexEveryPosition[uint8])
		t.Run("uint64", selectionIndexEveryPosition[uint64])
	})
}

// TestSelectionIndexFrequentNulls puts a bad index, far past the bitmap,
// into long selections over a bitmap that nulls a third of their entries, where
// the integer sums sample the first 64 entries' bits to choose a loop
// without a branch on the bit: inside that sample and after it. Every
// operation must give the quiver: panic, not an index out of range of the
// bitmap.
func TestSelectionIndexFrequentNulls(t *testing.T) {
	forEachBackend(t, func(t *testing.T, _ BackendInfo) {
		t.Run("int64", selectionIndexFrequentNulls[int64])
		t.Run("uint8", selectionIndexFrequentNulls[uint8])
		t.Run("float64", selectionIndexFrequentNulls[float64])
	})
}

func selectionIndexFrequentNulls[T Number](t *testing.T) {
	const n, length, bad = 1000, 300, 1 << 30
	x := make([]T, n)
	for i := range x {
		x[i] = T(i % 100)
	}
	bits := make([]byte, (n+7)/8)
	for i := range n {
		if i%9 != 0 { // a third of the selected entries, multiples of 3
			bits[i/8] |= 1 << (i % 8)
		}
	}
	for _, p := range []int{0, 1, 31, 63, 64, length - 1} {
		sel := make([]uint32, length)
		for i := range sel {
			sel[i] = uint32(i * 3 % n)
		}
		sel[p] = bad
		want := fmt.Sprintf("quiver: selection index %d at position %d is out of range for %d elements", bad, p, n)
		for name, op := range opsOf(x) {
			if name == "CountValid" {
				continue
			}
			what := fmt.Sprintf("%s(%d entries, bad at %d)", name, length, p)
			if msg := quiverPanic(t, what, func() { op(Valid(bits, 0).Select(sel)) }); msg != "" && msg != want {
				t.Fatalf("%s: panic %q, want %q", what, msg, want)
			}
		}
	}
}

func selectionIndexEveryPosition[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	const n = 1000
	x := make([]T, n)
	for i := range x {
		x[i] = T(i % 100)
	}
	bits := ones((n + 7) / 8)
	for _, length := range []int{1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 100} {
		sorted := make([]uint32, length)
		for i := range sorted {
			sorted[i] = uint32(i * (n / length))
		}
		shuffled := append([]uint32(nil), sorted...)
		r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, base := range [][]uint32{sorted, shuffled} {
			for p := range length {
				sel := append([]uint32(nil), base...)
				sel[p] = n + uint32(p)
				want := fmt.Sprintf("quiver: selection index %d at position %d is out of range for %d elements", n+p, p, n)
				for name, op := range opsOf(x) {
					if name == "CountValid" {
						continue // n is its own argument; its selections are checked the same way
					}
					for _, m := range []Mask{Select(sel), Valid(bits, 0).Select(sel)} {
						what := fmt.Sprintf("%s(n=%d, %d entries, bad at %d, bitmap %v)", name, n, length, p, m.bits != nil)
						if msg := quiverPanic(t, what, func() { op(m) }); msg != "" && msg != want {
							t.Fatalf("%s: panic %q, want %q", what, msg, want)
						}
					}
				}
			}
		}
	}
}
