package quiverarrow

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Keys maps the values of a key column to dense group ids: 0, 1, 2, ... in
// the order in which each distinct key first appears, across every batch
// given to it, so that the ids can index quiver's grouped states. All
// null keys form one group of their own, with the id of the first null.
//
// A Keys is made for one key type by [NewKeys] (or [NewTimeBuckets] for
// windows of a timestamp or date column) and takes batches with
// [Keys.Append]. Integer, date, time, timestamp and duration keys are
// indexed by value, string and binary keys by their bytes (kept once per
// distinct key). A dictionary-encoded column of any of these is indexed by
// its values, so that it gets the same ids as the same column decoded,
// whatever dictionary each batch carries. Two Keys built on different
// partitions of the rows combine with [Keys.Merge], which returns the
// remapping of the other's ids that the grouped states' Merge needs.
//
// A Keys is not safe for concurrent use.
type Keys struct {
	dt     arrow.DataType // the key type (the value type of dictionaries)
	isText bool           // string or binary keys (else fixed-width)
	bucket *buckets       // time buckets: the keys are window numbers
	nullID int            // the null group's id, -1 until a null key
	n      int            // groups so far

	fixed fixedTable
	vals  []uint64 // fixed keys by id (0 at the null group's id)

	text  textTable
	arena []byte // text keys' bytes, one after another in id order
	ends  []int  // arena end of each id's key (the null group's is empty)

	scratch []uint64 // a batch's fixed keys
	remap   []int32  // a dictionary batch's entry -> id, -1 before its first use
}

// buckets describes fixed-width windows: the key of a value v is
// floor((v - origin) / width), and the window's start is
// origin + key*width.
type buckets struct {
	width, origin int64
}

// NewKeys returns an empty Keys for key columns of type dt: an integer
// type, Date32, Date64, Time32, Time64, Timestamp, Duration, String,
// LargeString, Binary or LargeBinary, or a dictionary of one of them. It
// returns an error wrapping arrow.ErrNotImplemented for any other type.
func NewKeys(dt arrow.DataType) (*Keys, error) {
	if d, ok := dt.(*arrow.DictionaryType); ok {
		dt = d.ValueType
	}
	k := newKeys(dt)
	switch {
	case fixedKeyType(dt):
	case textKeyType(dt):
		k.isText = true
	default:
		return nil, fmt.Errorf("%w: quiverarrow: %s keys are not supported (integer, date, time, timestamp, duration, string and binary keys are, and dictionaries of them)",
			arrow.ErrNotImplemented, dt)
	}
	return k, nil
}

// NewTimeBuckets returns an empty Keys whose groups are windows of width
// units of a Timestamp, Date32, Date64 or Duration column of type dt
// (the unit of the type: a Timestamp in microseconds takes width 60e6 for
// minutes, a Date32 is in days), starting at origin: a value v falls in
// window floor((v - origin) / width), and [Keys.NewArray] gives each
// window's start, origin + key*width, in the column's type. It returns an
// error wrapping arrow.ErrInvalid for a width that is not positive and
// arrow.ErrNotImplemented for another type.
func NewTimeBuckets(dt arrow.DataType, width, origin int64) (*Keys, error) {
	switch dt.ID() {
	case arrow.TIMESTAMP, arrow.DATE32, arrow.DATE64, arrow.DURATION:
	default:
		return nil, fmt.Errorf("%w: quiverarrow: time buckets of %s: timestamp, date and duration columns have them",
			arrow.ErrNotImplemented, dt)
	}
	if width <= 0 {
		return nil, fmt.Errorf("%w: quiverarrow: time bucket width %d is not positive", arrow.ErrInvalid, width)
	}
	k := newKeys(dt)
	k.bucket = &buckets{width: width, origin: origin}
	return k, nil
}

// newKeys returns an empty Keys with tables of their smallest size.
func newKeys(dt arrow.DataType) *Keys {
	k := &Keys{dt: dt, nullID: -1}
	k.fixed.grow()
	k.text.grow()
	return k
}

// Len returns the number of groups so far: one more than the largest id
// given.
func (k *Keys) Len() int { return k.n }

// NullID returns the id of the group of null keys, or -1 if no key was
// null.
func (k *Keys) NullID() int { return k.nullID }

// DataType returns the type of the key column NewArray builds: the key
// type, or the value type of a dictionary key type.
func (k *Keys) DataType() arrow.DataType { return k.dt }

// Append appends to ids the group id of each row of the key column arr, in
// row order, and returns the extended slice. Keys not seen before get the
// next ids. It returns an error, adding no key and leaving ids as it was,
// if arr is not of the Keys' type or is malformed (see [Values]).
func (k *Keys) Append(ids []uint32, arr arrow.Array) ([]uint32, error) {
	data, err := check(arr, place{})
	if err != nil {
		return ids, err
	}
	if d, ok := arr.(*array.Dictionary); ok {
		return k.appendDictionary(ids, d)
	}
	if !arrow.TypeEqual(data.DataType(), k.dt) {
		return ids, fmt.Errorf("%w: quiverarrow: a %s key column for keys of type %s", arrow.ErrType, data.DataType(), k.dt)
	}
	if k.isText {
		return k.appendText(ids, arr)
	}
	return k.appendFixed(ids, arr)
}

// nextID returns the next group id.
func (k *Keys) nextID() uint32 {
	if k.n >= math.MaxUint32 {
		panic("quiverarrow: more than 2^32-1 groups")
	}
	k.n++
	return uint32(k.n - 1)
}

// nullGroup returns the null group's id, making it the next id at the
// first null key.
func (k *Keys) nullGroup() uint32 {
	if k.nullID < 0 {
		k.nullID = int(k.nextID())
		if k.isText {
			k.ends = append(k.ends, len(k.arena))
		} else {
			k.vals = append(k.vals, 0)
		}
	}
	return uint32(k.nullID)
}

// fixedID returns the id of the fixed-width key v.
func (k *Keys) fixedID(v uint64) uint32 {
	if id, ok := k.fixed.find(v); ok {
		return id
	}
	return k.addFixed(v)
}

// addFixed gives the fixed-width key v, not in the table, the next id.
func (k *Keys) addFixed(v uint64) uint32 {
	id := k.nextID()
	k.fixed.insert(v, id)
	k.vals = append(k.vals, v)
	return id
}

// textID returns the id of the text key b.
func (k *Keys) textID(b []byte) uint32 {
	h := maphash.Bytes(textSeed, b)
	if id, ok := k.text.find(h, b, k.arena, k.ends); ok {
		return id
	}
	id := k.nextID()
	k.text.insert(h, id)
	k.arena = append(k.arena, b...)
	k.ends = append(k.ends, len(k.arena))
	return id
}

var textSeed = maphash.MakeSeed()

// appendFixed appends the ids of the fixed-width key column arr.
func (k *Keys) appendFixed(ids []uint32, arr arrow.Array) ([]uint32, error) {
	switch arr.DataType().ID() {
	case arrow.INT8:
		return appendFixedOf[int8](k, ids, arr)
	case arrow.INT16:
		return appendFixedOf[int16](k, ids, arr)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return appendFixedOf[int32](k, ids, arr)
	case arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return appendFixedOf[int64](k, ids, arr)
	case arrow.UINT8:
		return appendFixedOf[uint8](k, ids, arr)
	case arrow.UINT16:
		return appendFixedOf[uint16](k, ids, arr)
	case arrow.UINT32:
		return appendFixedOf[uint32](k, ids, arr)
	case arrow.UINT64:
		return appendFixedOf[uint64](k, ids, arr)
	}
	return ids, fmt.Errorf("%w: quiverarrow: %s keys", arrow.ErrNotImplemented, arr.DataType())
}

func appendFixedOf[T keyInt](k *Keys, ids []uint32, arr arrow.Array) ([]uint32, error) {
	x, bits, off, err := fixedValues[T](arr)
	if err != nil {
		return ids, err
	}
	var windows []uint64
	if k.bucket != nil {
		// Every value checked before any key is added.
		if windows, err = bucketKeys(k, x, bits, off); err != nil {
			return ids, err
		}
	}
	start := len(ids)
	ids = slices.Grow(ids, len(x))[:start+len(x)]
	out := ids[start:]
	for i, v := range x {
		if bits != nil && bits[(off+i)>>3]&(1<<((off+i)&7)) == 0 {
			out[i] = k.nullGroup()
			continue
		}
		key := uint64(int64(v))
		if windows != nil {
			key = windows[i]
		}
		if id, ok := k.fixed.find(key); ok {
			out[i] = id
			continue
		}
		out[i] = k.addFixed(key)
	}
	return ids, nil
}

// fixedKeys returns the keys of the fixed-width column arr (a
// dictionary's values) as 64-bit patterns, sign-extended or window
// numbers for buckets, with the column's validity bitmap and its offset.
func (k *Keys) fixedKeys(arr arrow.Array) ([]uint64, []byte, int, error) {
	switch arr.DataType().ID() {
	case arrow.INT8:
		return fixedKeysOf[int8](k, arr)
	case arrow.INT16:
		return fixedKeysOf[int16](k, arr)
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		return fixedKeysOf[int32](k, arr)
	case arrow.INT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return fixedKeysOf[int64](k, arr)
	case arrow.UINT8:
		return fixedKeysOf[uint8](k, arr)
	case arrow.UINT16:
		return fixedKeysOf[uint16](k, arr)
	case arrow.UINT32:
		return fixedKeysOf[uint32](k, arr)
	case arrow.UINT64:
		return fixedKeysOf[uint64](k, arr)
	}
	return nil, nil, 0, fmt.Errorf("%w: quiverarrow: %s keys", arrow.ErrNotImplemented, arr.DataType())
}

func fixedKeysOf[T keyInt](k *Keys, arr arrow.Array) ([]uint64, []byte, int, error) {
	x, bits, off, err := fixedValues[T](arr)
	if err != nil {
		return nil, nil, 0, err
	}
	if k.bucket != nil {
		keys, err := bucketKeys(k, x, bits, off)
		return keys, bits, off, err
	}
	keys := make([]uint64, len(x))
	for i, v := range x {
		keys[i] = uint64(int64(v))
	}
	return keys, bits, off, nil
}

// bucketKeys returns the window numbers of x, in k's scratch slice, or an
// error for a valid value whose distance from the origin is not an int64.
func bucketKeys[T keyInt](k *Keys, x []T, bits []byte, off int) ([]uint64, error) {
	keys := slices.Grow(k.scratch[:0], len(x))[:len(x)]
	k.scratch = keys
	w, o := k.bucket.width, k.bucket.origin
	for i, v := range x {
		d := int64(v) - o
		overflow := (o > 0 && d > int64(v)) || (o < 0 && d < int64(v))
		if overflow && (bits == nil || bits[(off+i)>>3]&(1<<((off+i)&7)) != 0) {
			return nil, invalid(place{}, "value %d of row %d is too far from the time bucket origin %d", int64(v), i, o)
		}
		q := d / w
		if d%w < 0 {
			q--
		}
		keys[i] = uint64(q)
	}
	return keys, nil
}

// fixedValues is the values of a fixed-width array read as the integer
// type of its storage, whatever its Go type name (arrow.Timestamp is an
// int64), with its validity bitmap: the buffers checked by view's rules.
func fixedValues[T keyInt](arr arrow.Array) ([]T, []byte, int, error) {
	data := arr.Data()
	var z T
	b, err := valuesBuffer(data, int(unsafe.Sizeof(z)), place{})
	if err != nil {
		return nil, nil, 0, err
	}
	var x []T
	if b != nil {
		off, n := data.Offset(), data.Len()
		x = arrow.GetData[T](b)[off : off+n : off+n]
	}
	bits, boff, err := validity(data, place{})
	return x, bits, boff, err
}

// textColumn is a checked string or binary column: row i's bytes are
// body[at(i):at(i+1)].
type textColumn struct {
	body []byte
	o32  []int32 // offsets of rows 0..n, or
	o64  []int64 // for large types
}

func (c *textColumn) row(i int) []byte {
	if c.o64 != nil {
		return c.body[c.o64[i]:c.o64[i+1]]
	}
	return c.body[c.o32[i]:c.o32[i+1]]
}

// textKeys checks the string or binary column arr: its offsets buffer
// holds offset+length+1 offsets, which are in order and within its data
// buffer.
func textKeys(arr arrow.Array) (textColumn, []byte, int, error) {
	data := arr.Data()
	n, off := data.Len(), data.Offset()
	bits, boff, err := validity(data, place{})
	if err != nil || n == 0 {
		return textColumn{}, nil, 0, err
	}
	dt := data.DataType()
	bufs := data.Buffers()
	if len(bufs) < 3 {
		return textColumn{}, nil, 0, invalid(place{}, "%s key column has %d buffers, need 3", dt, len(bufs))
	}
	osize := 4
	if dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY {
		osize = 8
	}
	have := 0
	if bufs[1] != nil {
		have = bufs[1].Len()
	}
	if off+n >= math.MaxInt/osize || have < (off+n+1)*osize {
		return textColumn{}, nil, 0, invalid(place{}, "%s offsets buffer has %d bytes, need %d for %d rows at offset %d",
			dt, have, uint64(off+n+1)*uint64(osize), n, off)
	}
	var c textColumn
	if bufs[2] != nil {
		c.body = bufs[2].Bytes()
	}
	raw := bufs[1].Bytes()[off*osize : (off+n+1)*osize]
	if osize == 8 {
		c.o64 = arrow.GetData[int64](raw)
	} else {
		c.o32 = arrow.GetData[int32](raw)
	}
	at := func(i int) int64 {
		if c.o64 != nil {
			return c.o64[i]
		}
		return int64(c.o32[i])
	}
	prev := at(0)
	if prev < 0 || prev > int64(len(c.body)) {
		return textColumn{}, nil, 0, invalid(place{}, "%s offset %d of row 0 is outside its %d data bytes", dt, prev, len(c.body))
	}
	for i := 1; i <= n; i++ {
		e := at(i)
		if e < prev || e > int64(len(c.body)) {
			return textColumn{}, nil, 0, invalid(place{}, "%s offsets %d, %d of row %d are out of order or past its %d data bytes",
				dt, prev, e, i-1, len(c.body))
		}
		prev = e
	}
	return c, bits, boff, nil
}

// appendText appends the ids of the string or binary key column arr.
func (k *Keys) appendText(ids []uint32, arr arrow.Array) ([]uint32, error) {
	c, bits, off, err := textKeys(arr)
	if err != nil {
		return ids, err
	}
	for i := range arr.Len() {
		if bits != nil && bits[(off+i)>>3]&(1<<((off+i)&7)) == 0 {
			ids = append(ids, k.nullGroup())
			continue
		}
		ids = append(ids, k.textID(c.row(i)))
	}
	return ids, nil
}

// appendDictionary appends the ids of a dictionary-encoded key column:
// each dictionary entry is looked up at the first row that uses it, so
// that the ids are those of the decoded column, whatever the dictionary.
func (k *Keys) appendDictionary(ids []uint32, d *array.Dictionary) ([]uint32, error) {
	dt := d.DataType().(*arrow.DictionaryType)
	if !arrow.TypeEqual(dt.ValueType, k.dt) {
		return ids, fmt.Errorf("%w: quiverarrow: a dictionary of %s keys for keys of type %s", arrow.ErrType, dt.ValueType, k.dt)
	}
	data := d.Data()
	dict := data.Dictionary()
	if isNil(dict) {
		return ids, invalid(place{}, "dictionary key column without a dictionary")
	}
	dictArr := array.MakeFromData(dict)
	defer dictArr.Release()
	if _, err := check(dictArr, place{}); err != nil {
		return ids, err
	}
	m := dictArr.Len()
	idx, bits, off, err := dictIndices(data, dt.IndexType, m)
	if err != nil {
		return ids, err
	}
	// The dictionary's entries, checked once: their keys and nulls.
	var fixed []uint64
	var text textColumn
	var dbits []byte
	var doff int
	if k.isText {
		text, dbits, doff, err = textKeys(dictArr)
	} else {
		fixed, dbits, doff, err = k.fixedKeys(dictArr)
		fixed = append([]uint64(nil), fixed...) // k.scratch is reused below
	}
	if err != nil {
		return ids, err
	}
	if cap(k.remap) < m {
		k.remap = make([]int32, m)
	}
	remap := k.remap[:m] // entry -> id, -1 before its first use
	for j := range remap {
		remap[j] = -1
	}
	for i, e := range idx {
		if bits != nil && bits[(off+i)>>3]&(1<<((off+i)&7)) == 0 {
			ids = append(ids, k.nullGroup())
			continue
		}
		if remap[e] < 0 {
			switch {
			case dbits != nil && dbits[(doff+int(e))>>3]&(1<<((doff+int(e))&7)) == 0:
				remap[e] = int32(k.nullGroup())
			case k.isText:
				remap[e] = int32(k.textID(text.row(int(e))))
			default:
				remap[e] = int32(k.fixedID(fixed[e]))
			}
		}
		ids = append(ids, uint32(remap[e]))
	}
	return ids, nil
}

// dictIndices returns a dictionary column's indices widened to int64,
// each valid one checked to be below the dictionary's length m, and their
// bitmap.
func dictIndices(data arrow.ArrayData, it arrow.DataType, m int) ([]int64, []byte, int, error) {
	idxData := array.NewData(it, data.Len(), data.Buffers(), nil, data.NullN(), data.Offset())
	defer idxData.Release()
	idxArr := array.MakeFromData(idxData)
	defer idxArr.Release()
	var out []int64
	var bits []byte
	var off int
	var err error
	switch it.ID() {
	case arrow.INT8:
		out, bits, off, err = widen[int8](idxArr)
	case arrow.INT16:
		out, bits, off, err = widen[int16](idxArr)
	case arrow.INT32:
		out, bits, off, err = widen[int32](idxArr)
	case arrow.INT64:
		out, bits, off, err = widen[int64](idxArr)
	case arrow.UINT8:
		out, bits, off, err = widen[uint8](idxArr)
	case arrow.UINT16:
		out, bits, off, err = widen[uint16](idxArr)
	case arrow.UINT32:
		out, bits, off, err = widen[uint32](idxArr)
	default:
		return nil, nil, 0, fmt.Errorf("%w: quiverarrow: dictionary indices of type %s", arrow.ErrNotImplemented, it)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	for i, e := range out {
		if (bits == nil || bits[(off+i)>>3]&(1<<((off+i)&7)) != 0) && (e < 0 || e >= int64(m)) {
			return nil, nil, 0, invalid(place{}, "dictionary index %d of row %d is outside a dictionary of %d entries", e, i, m)
		}
	}
	return out, bits, off, nil
}

func widen[T keyInt](arr arrow.Array) ([]int64, []byte, int, error) {
	x, bits, off, err := fixedValues[T](arr)
	if err != nil {
		return nil, nil, 0, err
	}
	out := make([]int64, len(x))
	for i, v := range x {
		out[i] = int64(v)
	}
	return out, bits, off, nil
}

// Merge adds the keys of other, in other's id order, and returns remap:
// remap[j] is the id in k of other's group j, so that a grouped state
// built with other's ids merges into one built with k's. k's ids do not
// change; other is not changed. It returns an error if the two Keys are
// not of the same key type (and buckets).
func (k *Keys) Merge(other *Keys) ([]uint32, error) {
	if !arrow.TypeEqual(k.dt, other.dt) || (k.bucket == nil) != (other.bucket == nil) ||
		(k.bucket != nil && *k.bucket != *other.bucket) {
		return nil, fmt.Errorf("%w: quiverarrow: Merge of %s keys into %s keys", arrow.ErrType, other.dt, k.dt)
	}
	remap := make([]uint32, other.n)
	for j := range other.n {
		switch {
		case j == other.nullID:
			remap[j] = k.nullGroup()
		case k.isText:
			remap[j] = k.textID(keyBytes(other.arena, other.ends, j))
		default:
			remap[j] = k.fixedID(other.vals[j])
		}
	}
	return remap, nil
}

// NewArray returns the distinct keys in id order as an array of the key
// type (element i is group i's key, null for the null group); for time
// buckets, each window's start. The caller releases it.
func (k *Keys) NewArray(mem memory.Allocator) arrow.Array {
	b := array.NewBuilder(mem, k.dt)
	defer b.Release()
	b.Reserve(k.n)
	for id := range k.n {
		if id == k.nullID {
			b.AppendNull()
			continue
		}
		if k.isText {
			key := keyBytes(k.arena, k.ends, id)
			switch bb := b.(type) {
			case *array.StringBuilder:
				bb.BinaryBuilder.Append(key)
			case *array.LargeStringBuilder:
				bb.BinaryBuilder.Append(key)
			case *array.BinaryBuilder:
				bb.Append(key)
			}
			continue
		}
		v := int64(k.vals[id])
		if k.bucket != nil {
			v = k.bucket.origin + v*k.bucket.width
		}
		appendInt(b, v)
	}
	return b.NewArray()
}

// appendInt appends v to a builder of a fixed-width key type.
func appendInt(b array.Builder, v int64) {
	switch bb := b.(type) {
	case *array.Int8Builder:
		bb.Append(int8(v))
	case *array.Int16Builder:
		bb.Append(int16(v))
	case *array.Int32Builder:
		bb.Append(int32(v))
	case *array.Int64Builder:
		bb.Append(v)
	case *array.Uint8Builder:
		bb.Append(uint8(v))
	case *array.Uint16Builder:
		bb.Append(uint16(v))
	case *array.Uint32Builder:
		bb.Append(uint32(v))
	case *array.Uint64Builder:
		bb.Append(uint64(v))
	case *array.Date32Builder:
		bb.Append(arrow.Date32(v))
	case *array.Date64Builder:
		bb.Append(arrow.Date64(v))
	case *array.Time32Builder:
		bb.Append(arrow.Time32(v))
	case *array.Time64Builder:
		bb.Append(arrow.Time64(v))
	case *array.TimestampBuilder:
		bb.Append(arrow.Timestamp(v))
	case *array.DurationBuilder:
		bb.Append(arrow.Duration(v))
	}
}

// keyInt is the storage types of fixed-width keys and dictionary indices.
type keyInt interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func fixedKeyType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.DATE64, arrow.TIME32, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
		return true
	}
	return false
}

func textKeyType(dt arrow.DataType) bool {
	switch dt.ID() {
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return true
	}
	return false
}

// fixedTable is an open-addressing hash table from 64-bit keys to ids,
// with linear probing and a load factor of at most 1/4 or 1/2
// (tableFull). A Go map costs a generic hash and more memory per entry;
// this one hashes by one multiplication (Fibonacci hashing: the top bits
// of key×2^64/φ). textTable keeps the hashes of byte strings in one.
type fixedTable struct {
	slots []slot
	shift uint // 64 - log2(len(slots))
	count int
}

type slot struct {
	key  uint64 // the key, or a text key's hash
	id1  uint32 // id+1; 0 marks an empty slot
	_pad uint32
}

// home is the first slot to probe for key.
func (t *fixedTable) home(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15) >> t.shift }

// find returns the id of key. It is small enough to be inlined into
// the loops that call it.
func (t *fixedTable) find(key uint64) (uint32, bool) {
	mask := uint64(len(t.slots) - 1) // the table is never empty (newKeys)
	for i := t.home(key); ; i = (i + 1) & mask {
		s := &t.slots[i&mask]
		if s.key == key && s.id1 != 0 {
			return s.id1 - 1, true
		}
		if s.id1 == 0 {
			return 0, false
		}
	}
}

// insert adds key, which is not in the table (or is a text hash that may
// be), with id.
func (t *fixedTable) insert(key uint64, id uint32) {
	if tableFull(t.count+1, len(t.slots)) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	i := t.home(key)
	for t.slots[i].id1 != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = slot{key: key, id1: id + 1}
	t.count++
}

func (t *fixedTable) grow() {
	old := t.slots
	size := max(2*len(old), 64)
	t.slots = make([]slot, size)
	t.shift = uint(64 - bits.Len(uint(size-1)))
	t.count = 0
	for _, s := range old {
		if s.id1 != 0 {
			t.insert(s.key, s.id1-1)
		}
	}
}

// tableFull reports whether a table of slots slots is too full for
// count keys: above 1/4 while it fits in 1 MiB (a second probe is a
// mispredicted branch, and at 1/4 it is rare: 1.17 probes a hit against
// 1.5 at 1/2), above 1/2 beyond, where cache misses cost more than
// probes and the memory counts.
func tableFull(count, slots int) bool {
	if slots <= 1<<16 {
		return 4*count > slots
	}
	return 2*count > slots
}

// keyBytes is the text key of group id, kept in arena up to ends[id].
func keyBytes(arena []byte, ends []int, id int) []byte {
	lo := 0
	if id > 0 {
		lo = ends[id-1]
	}
	return arena[lo:ends[id]]
}

// textTable is fixedTable over the hashes of byte-string keys: a hit on
// the hash compares the bytes kept in the Keys' arena, and probing goes
// on past a collision.
type textTable struct{ fixedTable }

func (t *textTable) find(h uint64, b, arena []byte, ends []int) (uint32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := t.home(h); ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.id1 == 0 {
			return 0, false
		}
		if s.key == h && bytes.Equal(keyBytes(arena, ends, int(s.id1-1)), b) {
			return s.id1 - 1, true
		}
	}
}
