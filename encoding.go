package quiver

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"unsafe"

	"github.com/quiverlabs/quiver/internal/num"
)

// The binary encoding of the partial states (ADR-107). Every encoding is
// a 5-byte header followed by the state's body, all multi-byte fields
// little-endian:
//
//	0  'Q', 'V'   magic
//	2  version    1
//	3  kind       which state (encKind)
//	4  element    the element type: 0 for the count states, else 1 + its
//	              kind (int8 1 ... uint64 8, float32 9, float64 10)
//
// The bodies are in the files that encode each state (encoding_states.go,
// encoding_group.go). Decoding checks every field before it changes the
// receiver and before it allocates more than the input justifies, and
// returns an error that starts with "quiver: " and names the state, the
// field and what is wrong.

const (
	encVersion   = 1
	encHeaderLen = 5
)

// encKind names a state in the header.
type encKind uint8

const (
	encSum               encKind = 1
	encSumReproducible   encKind = 2
	encIntSum            encKind = 3
	encUintSum           encKind = 4
	encSummary           encKind = 5
	encCount             encKind = 6
	encGroupSum          encKind = 17
	encGroupReproducible encKind = 18
	encGroupIntSum       encKind = 19
	encGroupUintSum      encKind = 20
	encGroupSummary      encKind = 21
	encGroupCount        encKind = 22
	encGroupMin          encKind = 23
	encGroupMax          encKind = 24
)

var encKindNames = map[encKind]string{
	encSum: "SumState", encSumReproducible: "SumReproducibleState",
	encIntSum: "IntSumState", encUintSum: "UintSumState",
	encSummary: "SummaryState", encCount: "CountState",
	encGroupSum: "GroupSumState", encGroupReproducible: "GroupSumReproducibleState",
	encGroupIntSum: "GroupIntSumState", encGroupUintSum: "GroupUintSumState",
	encGroupSummary: "GroupSummaryState", encGroupCount: "GroupCountState",
	encGroupMin: "GroupMinState", encGroupMax: "GroupMaxState",
}

// encMaxGroups is the largest group count a grouped state holds (Grow's
// bound).
const encMaxGroups = 1 << 32

// elemCode is the header's element code of T.
func elemCode[T Number]() uint8 { return 1 + uint8(num.KindOf[T]()) }

// encName is the name of a state of kind k with element code e, as the
// errors print it: "SumState[float64]", "CountState".
func encName(k encKind, e uint8) string {
	n, ok := encKindNames[k]
	if !ok {
		n = fmt.Sprintf("state kind %d", k)
	}
	switch {
	case e == 0:
		return n
	case e <= uint8(num.Float64)+1:
		return n + "[" + num.Kind(e-1).String() + "]"
	}
	return fmt.Sprintf("%s[element type %d]", n, e)
}

// appendHeader grows dst by size bytes of room and appends the header.
func appendHeader(dst []byte, k encKind, e uint8, size int) []byte {
	dst = slices.Grow(dst, encHeaderLen+size)
	return append(dst, 'Q', 'V', encVersion, byte(k), e)
}

// decoder reads an encoding of a state; the first error sticks and every
// later read returns zeros.
type decoder struct {
	b    []byte
	name string
	err  error
}

// newDecoder checks the header of b for a state of kind k with element
// code e and returns a decoder positioned at the body.
func newDecoder(b []byte, k encKind, e uint8) *decoder {
	d := &decoder{b: b, name: encName(k, e)}
	switch {
	case len(b) < encHeaderLen:
		d.fail("%d bytes are too short for the %d-byte header", len(b), encHeaderLen)
	case b[0] != 'Q' || b[1] != 'V':
		d.fail("the bytes do not start with the magic \"QV\" (got %#02x %#02x)", b[0], b[1])
	case b[2] != encVersion:
		d.fail("encoding version %d, this quiver reads version %d", b[2], encVersion)
	case encKind(b[3]) != k || b[4] != e:
		d.fail("the encoding holds a %s", encName(encKind(b[3]), b[4]))
	default:
		d.b = b[encHeaderLen:]
	}
	return d
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("quiver: decoding %s: "+format, append([]any{d.name}, args...)...)
		d.b = nil
	}
}

// take returns the next n bytes, or nil after recording that the input
// ends inside what.
func (d *decoder) take(n int, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n < 0 || n > len(d.b) {
		d.fail("the input ends inside %s (%d bytes needed, %d left)", what, n, len(d.b))
		return nil
	}
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) u8(what string) uint8 {
	if p := d.take(1, what); p != nil {
		return p[0]
	}
	return 0
}

func (d *decoder) u64(what string) uint64 {
	if p := d.take(8, what); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// nonNeg reads a uint64 field that must fit in a non-negative int on this
// platform.
func (d *decoder) nonNeg(what string) int {
	v := d.u64(what)
	if v > math.MaxInt {
		d.fail("%s %d does not fit in an int on this platform", what, v)
		return 0
	}
	return int(v)
}

// groups reads a group count and checks, before anything is allocated,
// that it is within Grow's bound and that the rest of the input can hold
// that many groups of at least per bytes each.
func (d *decoder) groups(per int) int {
	v := d.u64("the group count")
	if d.err != nil {
		return 0
	}
	if v > encMaxGroups {
		d.fail("group count %d is above 2^32", v)
		return 0
	}
	if v > uint64(len(d.b)/per) {
		d.fail("group count %d needs at least %d bytes per group, %d bytes are left", v, per, len(d.b))
		return 0
	}
	return int(v)
}

// flags reads a flags byte whose bits outside allowed must be zero.
func (d *decoder) flags(allowed uint8) uint8 {
	f := d.u8("the flags")
	if f&^allowed != 0 {
		d.fail("unknown flags %#02x", f&^allowed)
		return 0
	}
	return f
}

// end checks that the whole input was read, and returns the error.
func (d *decoder) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail("%d bytes after the end of the state", len(d.b))
	}
	return d.err
}

// elemSize is the encoded size of a value of T: its size in memory (the
// element code names the machine type, so int is 8 bytes on 64-bit ports
// and 4 on 32-bit ones).
func elemSize[T Number]() int {
	var zero T
	return int(unsafe.Sizeof(zero))
}

// appendValue appends v's little-endian bits (IEEE bits for floats, NaN
// payloads and the sign of zero included).
func appendValue[T Number](dst []byte, v T) []byte {
	switch num.KindOf[T]() {
	case num.Float32:
		return binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(v)))
	case num.Float64:
		return binary.LittleEndian.AppendUint64(dst, math.Float64bits(float64(v)))
	case num.Int8, num.Uint8:
		return append(dst, byte(v))
	case num.Int16, num.Uint16:
		return binary.LittleEndian.AppendUint16(dst, uint16(v))
	case num.Int32, num.Uint32:
		return binary.LittleEndian.AppendUint32(dst, uint32(v))
	}
	return binary.LittleEndian.AppendUint64(dst, uint64(v))
}

// value reads a value of T written by appendValue.
func value[T Number](d *decoder, what string) T {
	p := d.take(elemSize[T](), what)
	if p == nil {
		return 0
	}
	return valueAt[T](p)
}

// valueAt decodes the value of T at the start of p (long enough).
func valueAt[T Number](p []byte) T {
	switch num.KindOf[T]() {
	case num.Float32:
		f := math.Float32frombits(binary.LittleEndian.Uint32(p))
		return T(f)
	case num.Float64:
		return T(math.Float64frombits(binary.LittleEndian.Uint64(p)))
	case num.Int8:
		return T(int8(p[0]))
	case num.Uint8:
		return T(p[0])
	case num.Int16:
		return T(int16(binary.LittleEndian.Uint16(p)))
	case num.Uint16:
		return T(binary.LittleEndian.Uint16(p))
	case num.Int32:
		return T(int32(binary.LittleEndian.Uint32(p)))
	case num.Uint32:
		return T(binary.LittleEndian.Uint32(p))
	case num.Int64:
		return T(int64(binary.LittleEndian.Uint64(p)))
	}
	return T(binary.LittleEndian.Uint64(p))
}
