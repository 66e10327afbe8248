package quiver

import (
	"encoding/binary"
	"math"

	"github.com/quiverlabs/quiver/internal/kernel"
	"github.com/quiverlabs/quiver/internal/num"
)

// Encoding of the grouped states (ADR-107). Every body starts with the
// group count (8 bytes, at most 2^32) followed by the groups in order.
// Decoding checks the count against the bytes that follow before it
// allocates anything, so a count the input cannot hold is an error, not
// an allocation.

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and each group's sum
// (IEEE bits, 4 or 8 bytes).
func (s *GroupSumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	dst = appendHeader(dst, encGroupSum, elemCode[T](), 8+len(s.sums)*elemSize[T]())
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(s.sums)))
	for _, v := range s.sums {
		dst = appendValue(dst, v)
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupSumState.AppendBinary] appends it.
func (s *GroupSumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data: the
// same group count and sums, so the same results and the same folds on
// later Adds and Merges, on every platform. On error the state is
// unchanged.
func (s *GroupSumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupSum, elemCode[T]())
	n := d.groups(elemSize[T]())
	p := d.take(n*elemSize[T](), "the sums")
	if err := d.end(); err != nil {
		return err
	}
	var t GroupSumState[T]
	t.Grow(n)
	for g := range t.sums {
		t.sums[g] = valueAt[T](p[g*elemSize[T]():])
	}
	*s = t
	return nil
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and each group's exact
// sum as [GroupSumReproducibleState] bodies (see
// [SumReproducibleState.AppendBinary]), 2 bytes for an empty group.
func (s *GroupSumReproducibleState[T]) AppendBinary(dst []byte) ([]byte, error) {
	size := 8
	for g := range s.acc {
		c := s.acc[g].acc.Canon()
		size += reproSize(&c)
	}
	dst = appendHeader(dst, encGroupReproducible, elemCode[T](), size)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(s.acc)))
	for g := range s.acc {
		c := s.acc[g].acc.Canon()
		dst = appendRepro(dst, &c)
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupSumReproducibleState.AppendBinary] appends it.
func (s *GroupSumReproducibleState[T]) MarshalBinary() ([]byte, error) {
	return s.AppendBinary(nil)
}

// UnmarshalBinary replaces the state with the one encoded in data. Each
// group holds the same exact sum, so its results and later Adds and
// Merges give the same bits everywhere. The input is checked whole
// before the groups (about 460 bytes each, as Grow allocates them) are
// allocated. On error the state is unchanged.
func (s *GroupSumReproducibleState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupReproducible, elemCode[T]())
	n := d.groups(reproMinBody)
	body := d.b
	var c kernel.ReproCanon
	for g := 0; g < n && d.err == nil; g++ {
		decodeRepro(d, &c, g)
	}
	if err := d.end(); err != nil {
		return err
	}
	var t GroupSumReproducibleState[T]
	t.Grow(n)
	d = &decoder{b: body}
	for g := range n {
		decodeRepro(d, &c, g)
		t.acc[g].acc = c.Acc()
	}
	*s = t
	return nil
}

// appendExact appends the group count and the exact sum of every group.
func appendExact(dst []byte, e *groupExact) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(e.ex)))
	for g := range e.ex {
		dst = appendInt128(dst, e.at(g))
	}
	return dst
}

// decodeExact reads what appendExact wrote into a new groupExact; a
// negative sum is an error when unsigned.
func decodeExact(d *decoder, op string, unsigned bool) (e groupExact) {
	n := d.groups(16)
	p := d.take(16*n, "the sums")
	if d.err != nil {
		return e
	}
	if unsigned {
		for g := range n {
			if int128At(p[16*g:]).Hi < 0 {
				d.fail("group %d: a negative sum", g)
				return e
			}
		}
	}
	if d.end() != nil {
		return e
	}
	e.grow(op, n)
	e.exSet = true
	for g := range n {
		e.ex[g] = int128At(p[16*g:])
	}
	return e
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and each group's exact
// 128-bit sum, low 8 bytes then high 8 bytes, as [IntSumState] writes it.
func (s *GroupIntSumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendExact(appendHeader(dst, encGroupIntSum, elemCode[T](), 8+16*len(s.e.ex)), &s.e), nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupIntSumState.AppendBinary] appends it.
func (s *GroupIntSumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *GroupIntSumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupIntSum, elemCode[T]())
	e := decodeExact(d, "GroupIntSumState.UnmarshalBinary", false)
	if d.err != nil {
		return d.err
	}
	s.e = e
	return nil
}

// AppendBinary appends the encoding of the state to dst, as
// [GroupIntSumState.AppendBinary] does.
func (s *GroupUintSumState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendExact(appendHeader(dst, encGroupUintSum, elemCode[T](), 8+16*len(s.e.ex)), &s.e), nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupUintSumState.AppendBinary] appends it.
func (s *GroupUintSumState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data; a
// negative sum is an error. On error the state is unchanged.
func (s *GroupUintSumState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupUintSum, elemCode[T]())
	e := decodeExact(d, "GroupUintSumState.UnmarshalBinary", true)
	if d.err != nil {
		return d.err
	}
	s.e = e
	return nil
}

// GroupSummaryState cell flags.
const (
	cellValues = 1 << 0 // count > 0: the extremes follow
	cellNaN    = 1 << 1 // a NaN took part
)

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and per group a flags
// byte (bit 0: the group has participating rows and its extremes follow,
// bit 1: a NaN took part), the participating and null counts (8 bytes
// each) and, for bit 0, the minimum and maximum of the group's non-NaN
// values (+Inf and -Inf for floats if every value was NaN).
func (s *GroupSummaryState[T]) AppendBinary(dst []byte) ([]byte, error) {
	size := 8
	for g := range s.cells {
		size += 17
		if s.cells[g].Count > 0 {
			size += 2 * elemSize[T]()
		}
	}
	dst = appendHeader(dst, encGroupSummary, elemCode[T](), size)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(s.cells)))
	for g := range s.cells {
		c := &s.cells[g]
		var f byte
		if c.Count > 0 {
			f |= cellValues
		}
		if c.NaN {
			f |= cellNaN
		}
		dst = append(dst, f)
		dst = binary.LittleEndian.AppendUint64(dst, uint64(c.Count))
		dst = binary.LittleEndian.AppendUint64(dst, uint64(c.Nulls))
		if c.Count > 0 {
			dst = appendValue(appendValue(dst, c.Lo), c.Hi)
		}
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupSummaryState.AppendBinary] appends it.
func (s *GroupSummaryState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *GroupSummaryState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupSummary, elemCode[T]())
	n := d.groups(17)
	var t GroupSummaryState[T]
	if d.err == nil {
		t.Grow(n) // at most 2 bytes per byte of input: a cell is at most 32 bytes, its encoding at least 17
	}
	for g := 0; g < n && d.err == nil; g++ {
		c := &t.cells[g]
		f := d.u8("a group's flags")
		if f&^(cellValues|cellNaN) != 0 {
			d.fail("group %d: unknown flags %#02x", g, f&^(cellValues|cellNaN))
		}
		c.NaN = f&cellNaN != 0
		c.Count, c.Nulls = d.nonNeg("a group's count"), d.nonNeg("a group's null count")
		if (f&cellValues != 0) != (c.Count > 0) && d.err == nil {
			d.fail("group %d: the values flag disagrees with the count %d", g, c.Count)
		}
		if c.Count > 0 {
			c.Lo, c.Hi = value[T](d, "a group's minimum"), value[T](d, "a group's maximum")
		}
		// A group of NaNs alone keeps the empty extremes, minimum above
		// maximum; otherwise the extremes are those of a summary.
		if !(c.NaN && c.Lo > c.Hi) {
			checkSummaryFields(d, c.Count, c.Count > 0, c.NaN, c.Lo, c.Hi, g)
		} else if !num.IsFloat[T]() {
			d.fail("group %d: a NaN flag for an integer type", g)
		}
	}
	if err := d.end(); err != nil {
		return err
	}
	*s = t
	return nil
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and each group's count
// (8 bytes).
func (s *GroupCountState) AppendBinary(dst []byte) ([]byte, error) {
	dst = appendHeader(dst, encGroupCount, 0, 8+8*len(s.count))
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(s.count)))
	for _, c := range s.count {
		dst = binary.LittleEndian.AppendUint64(dst, uint64(c))
	}
	return dst, nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupCountState.AppendBinary] appends it.
func (s *GroupCountState) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data. On
// error the state is unchanged.
func (s *GroupCountState) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupCount, 0)
	n := d.groups(8)
	if d.err != nil {
		return d.err
	}
	p := d.take(8*n, "the counts")
	if err := d.end(); err != nil {
		return err
	}
	for g := range n {
		if v := binary.LittleEndian.Uint64(p[8*g:]); v > math.MaxInt {
			d.fail("group %d's count %d does not fit in an int on this platform", g, v)
			return d.err
		}
	}
	var t GroupCountState
	t.Grow(n)
	for g := range n {
		t.count[g] = int(binary.LittleEndian.Uint64(p[8*g:]))
	}
	*s = t
	return nil
}

// GroupMinState and GroupMaxState entry flags (float types).
const (
	extEmpty = 0 // the group saw no participating row
	extValue = 1 // the group's extreme follows
	extNaN   = 2 // a participating NaN was seen
)

// appendExtremes appends the group count and the groups of a min-only or
// max-only table: for integer types each group's entry (the identity for
// a group that saw nothing, which the state cannot tell from a group that
// saw only the identity, and needs not); for float types a flag byte per
// group (0: empty, 1: the extreme follows, 2: a NaN was seen) and the
// extreme for flag 1. The empty mark itself is never written.
func appendExtremes[T Number](dst []byte, k encKind, acc []T) []byte {
	size := 8 + len(acc)*elemSize[T]()
	if num.IsFloat[T]() {
		size = 8
		for _, a := range acc {
			size++
			if a == a {
				size += elemSize[T]()
			}
		}
	}
	dst = appendHeader(dst, k, elemCode[T](), size)
	dst = binary.LittleEndian.AppendUint64(dst, uint64(len(acc)))
	for _, a := range acc {
		switch {
		case !num.IsFloat[T]():
			dst = appendValue(dst, a)
		case a == a:
			dst = appendValue(append(dst, extValue), a)
		case kernel.GroupIsEmpty(a):
			dst = append(dst, extEmpty)
		default:
			dst = append(dst, extNaN)
		}
	}
	return dst
}

// decodeExtremes reads what appendExtremes wrote into a new table whose
// empty groups hold fresh; nil on error.
func decodeExtremes[T Number](d *decoder, fresh T) []T {
	per := elemSize[T]()
	if num.IsFloat[T]() {
		per = 1
	}
	n := d.groups(per)
	body := d.b
	if num.IsFloat[T]() {
		// Check the whole input before allocating the table.
		for g := 0; g < n && d.err == nil; g++ {
			switch f := d.u8("a group's flag"); f {
			case extEmpty, extNaN:
			case extValue:
				if v := value[T](d, "a group's extreme"); v != v {
					d.fail("group %d: a NaN extreme under flag 1 (a NaN is flag 2)", g)
				}
			default:
				if d.err == nil {
					d.fail("group %d: unknown flag %#02x", g, f)
				}
			}
		}
	} else {
		d.take(n*per, "the extremes")
	}
	if d.end() != nil {
		return nil
	}
	acc := groupGrow([]T(nil), n, fresh)
	d = &decoder{b: body}
	for g := range acc {
		if !num.IsFloat[T]() {
			acc[g] = value[T](d, "")
			continue
		}
		switch d.u8("") {
		case extValue:
			acc[g] = value[T](d, "")
		case extNaN:
			acc[g] = num.NaN[T]()
		}
	}
	return acc
}

// AppendBinary appends the encoding of the state to dst; it allocates
// only to grow dst. The body is the group count and, for integer types,
// each group's minimum (the largest value of T for an empty group); for
// float types, per group a flag byte (0: no participating row, 1: the
// minimum follows, 2: a NaN took part) and the minimum for flag 1.
func (s *GroupMinState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendExtremes(dst, encGroupMin, s.acc), nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupMinState.AppendBinary] appends it.
func (s *GroupMinState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data: the
// same results, and the same results after later Adds and Merges, on
// every platform. On error the state is unchanged.
func (s *GroupMinState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupMin, elemCode[T]())
	acc := decodeExtremes(d, groupMinFresh[T]())
	if d.err != nil {
		return d.err
	}
	*s = GroupMinState[T]{acc: acc}
	return nil
}

// AppendBinary appends the encoding of the state to dst, as
// [GroupMinState.AppendBinary] does (the lowest value of T for an empty
// integer group).
func (s *GroupMaxState[T]) AppendBinary(dst []byte) ([]byte, error) {
	return appendExtremes(dst, encGroupMax, s.acc), nil
}

// MarshalBinary returns the encoding of the state, as
// [GroupMaxState.AppendBinary] appends it.
func (s *GroupMaxState[T]) MarshalBinary() ([]byte, error) { return s.AppendBinary(nil) }

// UnmarshalBinary replaces the state with the one encoded in data, as
// [GroupMinState.UnmarshalBinary] does. On error the state is unchanged.
func (s *GroupMaxState[T]) UnmarshalBinary(data []byte) error {
	d := newDecoder(data, encGroupMax, elemCode[T]())
	acc := decodeExtremes(d, groupMaxFresh[T]())
	if d.err != nil {
		return d.err
	}
	*s = GroupMaxState[T]{acc: acc}
	return nil
}
