package quiver

import (
	"encoding/binary"
	"fmt"

	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
	"github.com/quiverlabs/quiver/internal/oracle"
)

// Encoding of the one-column states (ADR-107). Each state has
// MarshalBinary, AppendBinary and UnmarshalBinary (encoding.BinaryMarshaler,
// encoding.BinaryAppender and encoding.BinaryUnmarshaler); the format is
// the header of encoding.go and the body described at each method.

// SumState body flags.
const (
	sumCarried = 1 << 0 // a carry follows
	sumRun     = 1 << 1 // a run follows: its layout, lanes and pending block
)

// AppendBinary appends the encoding of the state to dst and returns the
// extended buffer; it allocates only to grow dst. The body is a flags
// byte (bit 0: a carry follows, bit 1: a run follows), the carry if any,
// and, for a run, the ADR-013 layout of the backend it runs on (A and W,
// one byte each), the number of pending elements (one byte), the A×W
// lane accumulators and the pending elements: 4 or 8 bytes per value,
// IEEE bits, little-endian. See docs/adr/107 for what decoding it on
// another layout means.
func (s *SumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	w := elemSize[T]()
	var flags byte
	size := 1
	if s.carried {
		flags |= sumCarried
		size += w
	}
	var p oracle.Policy
	if s.b != nil {
		flags |= sumRun
		p = floatPolicy[T](s.b)
		size += 3 + (p.Block()+s.npend)*w
	}
	dst = appendHeader(dst, encSum, elemCode[T](), size)
	dst = append(dst, flags)
	if s.carried {
		dst = appendValue(dst, s.carry)
	}
	if s.b != nil {
		dst = append(dst, byte(p.A), byte(p.W), byte(s.npend))
		for _, v := range s.lanes[:p.Block()] {
			dst = appendValue(dst, v)
		}
		for _, v := range s.pend[:s.npend] {
			dst = appendValue(dst, v)
		}
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [SumState.AppendBinary] appends it.
func (s *SumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data by
// [SumState.AppendBinary], on this or any other machine. A run whose
// layout (A, W) is that of the active backend, or else of another
// available backend, continues on that backend, so the decoded state
// behaves exactly as the encoded one. A run of a layout that no
// available backend has is folded in its layout's ADR-013 order into the
// carry, as if the run had been merged: the sum is unchanged, and later
// batches start a new run, so the result is the left fold of the pieces'
// sums (ADR-104). On error the state is unchanged.
func (s *SumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encSum, elemCode[T]())
	flags := d.flags(sumCarried | sumRun)
	var t SumState[T]
	if flags&sumCarried != 0 {
		t.carry, t.carried = value[T](d, "the carry"), true
	}
	var p oracle.Policy
	npend := 0
	if flags&sumRun != 0 {
		p.A, p.W, npend = int(d.u8("the layout")), int(d.u8("the layout")), int(d.u8("the pending count"))
		switch {
		case d.err != nil:
		case p.A == 0 || p.A&(p.A-1) != 0 || p.W == 0:
			d.fail("layout A=%d, W=%d: A must be a power of two and W at least 1", p.A, p.W)
		case p.Block() > maxBlock:
			d.fail("layout A=%d, W=%d: a block of %d is more than %d", p.A, p.W, p.Block(), maxBlock)
		case npend >= p.Block():
			d.fail("%d pending elements for a block of %d", npend, p.Block())
		}
		if lanes := d.take(p.Block()*elemSize[T](), "the lanes"); lanes != nil {
			for i := range p.Block() {
				t.lanes[i] = valueAt[T](lanes[i*elemSize[T]():])
			}
		}
		if pend := d.take(npend*elemSize[T](), "the pending block"); pend != nil {
			for i := range npend {
				t.pend[i] = valueAt[T](pend[i*elemSize[T]():])
			}
		}
	}
	if err := d.end(); err != nil {
		return err
	}
	if flags&sumRun != 0 {
		if b := layoutBackend[T](p); b != nil {
			t.b, t.npend = b, npend
		} else {
			// Fold the run as runSum does, in the encoded layout's order.
			v := kernel.FoldLanes(t.lanes[:p.Block()], p)
			for _, e := range t.pend[:npend] {
				v += e
			}
			if t.carried {
				v = t.carry + v
			}
			t = SumState[T]{carry: v, carried: true}
		}
	}
	*s = t
	return nil
}

// decodeBackends lists the backends a decoded SumState run may continue
// on (a variable so that tests can take layouts away).
var decodeBackends = func() []*backend { return registry }

// layoutBackend returns the active backend if its layout for T is p, else
// the first available backend whose layout is, else nil.
func layoutBackend[T constraints.Float](p oracle.Policy) *backend {
	if a := active.Load(); floatPolicy[T](a) == p {
		return a
	}
	for _, b := range decodeBackends() {
		if b.available && floatPolicy[T](b) == p {
			return b
		}
	}
	return nil
}

// The reproducible body (one state, or one group of a grouped state): a
// flags byte, the number N of magnitude digits (one byte), and if N > 0
// the index of the lowest digit (one byte) and N digits of 5 bytes.
const (
	reproNaN = 1 << iota
	reproPosInf
	reproNegInf
	reproNonNegZero
	reproAny
	reproNeg
	reproFlags = 1<<iota - 1
)

// reproMinBody is the size of the shortest reproducible body.
const reproMinBody = 2

func reproSize(c *kernel.ReproCanon) int {
	if c.N == 0 {
		return reproMinBody
	}
	return 3 + 5*c.N
}

func appendRepro(dst []byte, c *kernel.ReproCanon) []byte {
	var f byte
	for i, b := range [...]bool{c.NaN, c.PosInf, c.NegInf, c.NonNegZero, c.Any, c.Neg} {
		if b {
			f |= 1 << i
		}
	}
	dst = append(dst, f, byte(c.N))
	if c.N == 0 {
		return dst
	}
	dst = append(dst, byte(c.Bot))
	for _, m := range c.Mag[:c.N] {
		dst = append(dst, byte(m), byte(m>>8), byte(m>>16), byte(m>>24), byte(m>>32))
	}
	return dst
}

// decodeRepro reads a reproducible body into c and checks it; g is the
// group it belongs to, or -1, for the errors.
func decodeRepro(d *decoder, c *kernel.ReproCanon, g int) {
	if d.err == nil && len(d.b) < reproMinBody {
		d.fail("the input ends inside %s", groupWhat(g))
	}
	f := d.u8("a sum's flags")
	if f&^reproFlags != 0 {
		d.fail("unknown flags %#02x in %s", f&^reproFlags, groupWhat(g))
	}
	c.NaN, c.PosInf, c.NegInf = f&reproNaN != 0, f&reproPosInf != 0, f&reproNegInf != 0
	c.NonNegZero, c.Any, c.Neg = f&reproNonNegZero != 0, f&reproAny != 0, f&reproNeg != 0
	c.N, c.Bot = int(d.u8("a digit count")), 0
	if c.N > 0 {
		c.Bot = int(d.u8("a lowest digit index"))
	}
	if c.N > kernel.ReproDigitLimit && d.err == nil {
		d.fail("%d digits in %s, at most %d", c.N, groupWhat(g), kernel.ReproDigitLimit)
	}
	if d.err == nil && 5*c.N > len(d.b) {
		d.fail("the input ends inside the digits of %s", groupWhat(g))
	}
	p := d.take(5*c.N, "the digits")
	if d.err != nil {
		return
	}
	for i := range c.N {
		q := p[5*i:]
		c.Mag[i] = uint64(q[0]) | uint64(q[1])<<8 | uint64(q[2])<<16 | uint64(q[3])<<24 | uint64(q[4])<<32
	}
	if msg := c.Check(); msg != "" {
		d.fail("%s: %s", groupWhat(g), msg)
	}
}

// groupWhat names group g's sum, or the sum for g < 0, in an error.
func groupWhat(g int) string {
	if g < 0 {
		return "the sum"
	}
	return fmt.Sprintf("group %d's sum", g)
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the exact sum in canonical form, only the
// digits in use: a flags byte (bit 0 NaN, 1 +Inf, 2 -Inf, 3 a value other
// than -0.0, 4 any value, 5 the finite sum is negative), the digit count
// N, and for N > 0 the lowest digit's index and N magnitude digits of 40
// bits in 5 bytes each, digit i worth 2^(40(lowest+i)-1074). The encoding
// depends only on the multiset of values fed, not on the backend, the
// batches or the merges.
func (s *SumReproducibleState[T]) AppendBinary(dst []byte) ([]byte, error) {
	c := s.acc.Canon()
	dst = appendHeader(dst, encSumReproducible, elemCode[T](), reproSize(&c))
	return appendRepro(dst, &c), nil
}

// MarshalBinary returns the encoding of the state, as
// [SumReproducibleState.AppendBinary] appends it.
func (s *SumReproducibleState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. The
// decoded state holds the same exact sum, so its Sum, and any Add or
// Merge after it, give the bits they would have given in the process
// that encoded it, on every backend and platform. On error the state is
// unchanged.
func (s *SumReproducibleState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encSumReproducible, elemCode[T]())
	var c kernel.ReproCanon
	decodeRepro(d, &c, -1)
	if err := d.end(); err != nil {
		return err
	}
	s.acc = c.Acc()
	return nil
}

// appendInt128 appends a as its low word then its high word.
func appendInt128(dst []byte, a num.Int128) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, a.Lo)
	return binary.LittleEndian.AppendUint64(dst, uint64(a.Hi))
}

func int128At(p []byte) num.Int128 {
	return num.Int128{Lo: binary.LittleEndian.Uint64(p), Hi: int64(binary.LittleEndian.Uint64(p[8:]))}
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the exact 128-bit sum, two's complement:
// its low 8 bytes, then its high 8 bytes.
func (s *IntSumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendInt128(appendHeader(dst, encIntSum, elemCode[T](), 16), s.sum), nil
}

// MarshalBinary returns the encoding of the state, as
// [IntSumState.AppendBinary] appends it.
func (s *IntSumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *IntSumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encIntSum, elemCode[T]())
	p := d.take(16, "the sum")
	if err := d.end(); err != nil {
		return err
	}
	s.sum = int128At(p)
	return nil
}

// AppendBinary appends the encoding of the state to dst, as
// [IntSumState.AppendBinary] does.
func (s *UintSumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendInt128(appendHeader(dst, encUintSum, elemCode[T](), 16), s.sum), nil
}

// MarshalBinary returns the encoding of the state, as
// [UintSumState.AppendBinary] appends it.
func (s *UintSumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data; a
// negative sum is an error. On error the state is unchanged.
func (s *UintSumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encUintSum, elemCode[T]())
	p := d.take(16, "the sum")
	if p != nil && int128At(p).Hi < 0 {
		d.fail("a negative sum")
	}
	if err := d.end(); err != nil {
		return err
	}
	s.sum = int128At(p)
	return nil
}

// SummaryState body flags.
const (
	summaryHave = 1 << 0 // the extremes follow
	summaryNaN  = 1 << 1 // a NaN took part
)

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is a flags byte (bit 0: the extremes follow,
// bit 1: a NaN took part), the participating count and the null count (8
// bytes each), and the minimum and maximum of the non-NaN values if any
// (the element's width each; IEEE bits for floats, so the sign of a zero
// extreme is kept).
func (s *SummaryState[T]) AppendBinary(dst []byte) ([]byte, error) {
	var flags byte
	size := 17
	if s.have {
		flags |= summaryHave
		size += 2 * elemSize[T]()
	}
	if s.nan {
		flags |= summaryNaN
	}
	dst = appendHeader(dst, encSummary, elemCode[T](), size)
	dst = append(dst, flags)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(s.count))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(s.nulls))
	if s.have {
		dst = appendValue(appendValue(dst, s.lo), s.hi)
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [SummaryState.AppendBinary] appends it.
func (s *SummaryState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *SummaryState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encSummary, elemCode[T]())
	flags := d.flags(summaryHave | summaryNaN)
	var t SummaryState[T]
	t.have, t.nan = flags&summaryHave != 0, flags&summaryNaN != 0
	t.count, t.nulls = d.nonNeg("the count"), d.nonNeg("the null count")
	if t.have {
		t.lo, t.hi = value[T](d, "the minimum"), value[T](d, "the maximum")
	}
	checkSummaryFields(d, t.count, t.have, t.nan, t.lo, t.hi, -1)
	if err := d.end(); err != nil {
		return err
	}
	*s = t
	return nil
}

// checkSummaryFields checks the fields of a summary (of group g if g >= 0).
func checkSummaryFields[T Number](d *decoder, count int, have, nan bool, lo, hi T, gi int) {
	if d.err != nil {
		return
	}
	g := ""
	if gi >= 0 && ((have || nan) && count == 0 || nan && !num.IsFloat[T]() || have && (lo != lo || hi != hi || lo > hi)) {
		g = fmt.Sprintf("group %d: ", gi) // formatted only on the error path
	}
	switch {
	case d.err != nil:
	case (have || nan) && count == 0:
		d.fail("%sextremes or a NaN with a count of 0", g)
	case nan && !num.IsFloat[T]():
		d.fail("%sa NaN flag for an integer type", g)
	case have && (lo != lo || hi != hi):
		d.fail("%sa NaN extreme", g)
	case have && lo > hi:
		d.fail("%sa minimum above the maximum", g)
	}
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the count, 8 bytes.
func (s *CountState) AppendBinary(dst []byte) ([]byte, error) {
	return binary.LittleEndian.AppendUint64(appendHeader(dst, encCount, 0, 8), uint64(s.count)), nil
}

// MarshalBinary returns the encoding of the state, as
// [CountState.AppendBinary] appends it.
func (s *CountState) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *CountState) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encCount, 0)
	c := d.nonNeg("the count")
	if err := d.end(); err != nil {
		return err
	}
	s.count = c
	return nil
}
