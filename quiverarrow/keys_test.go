package quiverarrow

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// refKeys is the reference for Keys: a Go map from each key's ValueStr
// (unique per value for every key type, decoded for dictionaries) to its
// id in order of first appearance, with the null group's id.
type refKeys struct {
	ids    map[string]uint32
	nullID int
	n      int
}

func newRefKeys() *refKeys { return &refKeys{ids: map[string]uint32{}, nullID: -1} }

func (r *refKeys) id(a arrow.Array, i int) uint32 {
	if a.IsNull(i) {
		if r.nullID < 0 {
			r.nullID = r.n
			r.n++
		}
		return uint32(r.nullID)
	}
	s := keyString(a, i)
	if d, ok := a.(*array.Dictionary); ok && d.Dictionary().IsNull(d.GetValueIndex(i)) {
		return r.id(array.MakeArrayOfNull(memory.DefaultAllocator, arrow.Null, 1), 0)
	}
	id, ok := r.ids[s]
	if !ok {
		id = uint32(r.n)
		r.ids[s] = id
		r.n++
	}
	return id
}

// keyString is a string unique to the key of row i of a: its ValueStr,
// but for types whose ValueStr drops a part of the value (a Date64 prints
// its day).
func keyString(a arrow.Array, i int) string {
	switch a := a.(type) {
	case *array.Date64:
		return fmt.Sprint(int64(a.Value(i)))
	case *array.Dictionary:
		return keyString(a.Dictionary(), a.GetValueIndex(i))
	}
	return a.ValueStr(i)
}

// keyColumn builds a key column of type dt with n+off rows drawn from
// distinct values, nulls with probability pNull, sliced at off.
func keyColumn(r *rand.Rand, dt arrow.DataType, n, off, distinct int, pNull float64) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	for range n + off {
		if r.Float64() < pNull {
			b.AppendNull()
			continue
		}
		v := int64(r.IntN(distinct)) - int64(distinct/2)
		switch bb := b.(type) {
		case *array.StringBuilder:
			bb.Append(fmt.Sprintf("k%d", v))
		case *array.LargeStringBuilder:
			bb.Append(fmt.Sprintf("k%d", v))
		case *array.BinaryBuilder:
			bb.Append([]byte{byte(v), byte(v >> 8), 0})
		case *array.Uint8Builder, *array.Uint16Builder, *array.Uint32Builder, *array.Uint64Builder:
			appendInt(b, v+int64(distinct))
		default:
			appendInt(b, v)
		}
	}
	a := b.NewArray()
	defer a.Release()
	return array.NewSlice(a, int64(off), int64(off+n))
}

var keyTypes = []arrow.DataType{
	arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
	arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
	arrow.FixedWidthTypes.Date32, arrow.FixedWidthTypes.Date64, arrow.FixedWidthTypes.Time32s, arrow.FixedWidthTypes.Time64us,
	arrow.FixedWidthTypes.Timestamp_us, arrow.FixedWidthTypes.Duration_ms,
	arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary,
}

// checkKeys appends every batch to a Keys and a reference, and compares
// the ids, the group count, the null group and the key array.
func checkKeys(t *testing.T, name string, dt arrow.DataType, batches []arrow.Array) *Keys {
	t.Helper()
	k, err := NewKeys(dt)
	if err != nil {
		t.Fatalf("%s: NewKeys: %v", name, err)
	}
	ref := newRefKeys()
	var ids []uint32
	for bi, a := range batches {
		before := len(ids)
		ids, err = k.Append(ids, a)
		if err != nil {
			t.Fatalf("%s: batch %d: Append: %v", name, bi, err)
		}
		if len(ids)-before != a.Len() {
			t.Fatalf("%s: batch %d: %d ids for %d rows", name, bi, len(ids)-before, a.Len())
		}
		for i := range a.Len() {
			if want := ref.id(a, i); ids[before+i] != want {
				t.Fatalf("%s: batch %d row %d (%s): id %d, want %d", name, bi, i, a.ValueStr(i), ids[before+i], want)
			}
		}
	}
	if k.Len() != ref.n || k.NullID() != ref.nullID {
		t.Fatalf("%s: Len %d, NullID %d; want %d, %d", name, k.Len(), k.NullID(), ref.n, ref.nullID)
	}
	keys := k.NewArray(memory.DefaultAllocator)
	defer keys.Release()
	if keys.Len() != ref.n {
		t.Fatalf("%s: NewArray has %d keys, want %d", name, keys.Len(), ref.n)
	}
	for s, id := range ref.ids {
		if got := keyString(keys, int(id)); got != s {
			t.Fatalf("%s: key of group %d is %s, want %s", name, id, got, s)
		}
	}
	if ref.nullID >= 0 && !keys.IsNull(ref.nullID) {
		t.Fatalf("%s: the null group's key is not null", name)
	}
	return k
}

// TestKeys checks every key type against the reference: several batches
// at every offset mod 8, with and without nulls, empty batches, few and
// many distinct keys.
func TestKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	for _, dt := range keyTypes {
		for _, distinct := range []int{1, 7, 100, 5000} {
			for _, pNull := range []float64{0, 0.1, 1} {
				var batches []arrow.Array
				for off := range 8 {
					batches = append(batches, keyColumn(r, dt, []int{0, 1, 64, 333}[off%4], off, distinct, pNull))
				}
				checkKeys(t, fmt.Sprintf("%s distinct=%d pNull=%v", dt, distinct, pNull), dt, batches)
			}
		}
	}
}

// dictionaryOf encodes a as a dictionary array whose dictionary lists
// its distinct values in a shuffled order, with unused entries and a null
// entry.
func dictionaryOf(t *testing.T, r *rand.Rand, a arrow.Array) arrow.Array {
	t.Helper()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int16, ValueType: a.DataType()}
	b := array.NewDictionaryBuilder(memory.DefaultAllocator, dt)
	defer b.Release()
	// Unused entries first, so that dictionaries differ between batches.
	extra := keyColumn(r, a.DataType(), 5, 0, 1000000, 0)
	defer extra.Release()
	if err := b.AppendArray(extra); err != nil {
		t.Fatal(err)
	}
	b.ResetFull()
	if err := b.AppendArray(a); err != nil {
		t.Fatal(err)
	}
	return b.NewArray()
}

// TestKeysDictionary checks dictionary-encoded keys, batches with
// different dictionaries, mixed with plain batches: the ids are those of
// the decoded columns.
func TestKeysDictionary(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint8} {
		var batches []arrow.Array
		for off := range 6 {
			a := keyColumn(r, dt, 200, off, 30, 0.1)
			if off%3 != 2 {
				batches = append(batches, dictionaryOf(t, r, a))
			} else {
				batches = append(batches, a)
			}
		}
		checkKeys(t, "dictionary of "+dt.String(), dt, batches)
	}
}

// TestKeysMerge builds Keys on partitions of the rows and merges them in
// every order: remapped ids equal those of the merged Keys for the
// partition's keys, and the merged Keys hold every key once.
func TestKeysMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 3))
	for _, dt := range []arrow.DataType{arrow.BinaryTypes.String, arrow.PrimitiveTypes.Int32} {
		parts := []arrow.Array{keyColumn(r, dt, 300, 1, 50, 0.05), keyColumn(r, dt, 200, 3, 80, 0), keyColumn(r, dt, 0, 0, 5, 0)}
		for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 0, 2}} {
			var all *Keys
			for _, p := range order {
				k, _ := NewKeys(dt)
				ids, err := k.Append(nil, parts[p])
				if err != nil {
					t.Fatal(err)
				}
				if all == nil {
					all, _ = NewKeys(dt)
				}
				remap, err := all.Merge(k)
				if err != nil {
					t.Fatal(err)
				}
				again, _ := all.Append(nil, parts[p]) // ids in the merged Keys, adding nothing
				for i, id := range ids {
					if remap[id] != again[i] {
						t.Fatalf("%s order %v part %d row %d: remapped id %d, merged Keys say %d", dt, order, p, i, remap[id], again[i])
					}
				}
			}
			checkKeys(t, "all parts", dt, parts) // the reference's count
			ref := newRefKeys()
			for _, p := range parts {
				for i := range p.Len() {
					ref.id(p, i)
				}
			}
			if all.Len() != ref.n {
				t.Fatalf("%s order %v: merged Keys have %d groups, want %d", dt, order, all.Len(), ref.n)
			}
		}
	}
}

// TestTimeBuckets checks windows of a timestamp column, negative values
// and an origin included: each row's window is floor((v-origin)/width).
func TestTimeBuckets(t *testing.T) {
	vals := []int64{-7, -6, -1, 0, 4, 5, 6, 59, 60, 61, -60}
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Second})
	for _, v := range vals {
		b.Append(arrow.Timestamp(v))
	}
	b.AppendNull()
	a := b.NewArray()
	k, err := NewTimeBuckets(a.DataType(), 10, 5)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := k.Append(nil, a)
	if err != nil {
		t.Fatal(err)
	}
	starts := k.NewArray(memory.DefaultAllocator).(*array.Timestamp)
	for i, v := range vals {
		q := (v - 5) / 10
		if (v-5)%10 < 0 {
			q--
		}
		if got, want := int64(starts.Value(int(ids[i]))), 5+q*10; got != want {
			t.Errorf("row %d (%d): window start %d, want %d", i, v, got, want)
		}
	}
	if !starts.IsNull(int(ids[len(vals)])) {
		t.Errorf("the null timestamp's window is not the null group")
	}
	if _, err := NewTimeBuckets(a.DataType(), 0, 0); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("width 0: %v", err)
	}
	if _, err := NewTimeBuckets(arrow.PrimitiveTypes.Int64, 10, 0); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("int64 buckets: %v", err)
	}
	far, _ := NewTimeBuckets(a.DataType(), 10, 1<<62)
	b.Append(arrow.Timestamp(-1<<62 - 1))
	if _, err := far.Append(nil, b.NewArray()); !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "too far") {
		t.Errorf("a value 2^63 from the origin: %v", err)
	}
}

// TestKeysErrors checks unsupported types, the wrong key type, and
// malformed key columns: errors, and no ids added.
func TestKeysErrors(t *testing.T) {
	if _, err := NewKeys(arrow.PrimitiveTypes.Float64); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("float64 keys: %v", err)
	}
	k, _ := NewKeys(arrow.BinaryTypes.String)
	if _, err := k.Append(nil, float64Array([]float64{1})); !errors.Is(err, arrow.ErrType) {
		t.Errorf("float64 column for string keys: %v", err)
	}
	// Offsets out of order and past the data.
	bad := array.MakeFromData(array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 5, 2})), memory.NewBufferBytes([]byte("abcde"))}, nil, 0, 0))
	ids, err := k.Append([]uint32{9}, bad)
	if !errors.Is(err, arrow.ErrInvalid) || len(ids) != 1 || k.Len() != 0 {
		t.Errorf("offsets out of order: %v, ids %v, %d groups", err, ids, k.Len())
	}
	// A dictionary index outside the dictionary.
	dict := keyColumn(rand.New(rand.NewPCG(1, 1)), arrow.BinaryTypes.String, 3, 0, 3, 0)
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	idx := array.NewData(dt, 2, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{1, 7})}, nil, 0, 0)
	idx.SetDictionary(dict.Data())
	if _, err := k.Append(nil, array.MakeFromData(idx)); !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "dictionary index 7") {
		t.Errorf("dictionary index 7 of 3 entries: %v", err)
	}
	// A short fixed-width key buffer.
	ik, _ := NewKeys(arrow.PrimitiveTypes.Int64)
	short := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Int64, 4, []*memory.Buffer{nil,
		spare(arrow.Int64Traits.CastToBytes([]int64{1, 2, 3, 4}), 16)}, nil, 0, 0))
	if _, err := ik.Append(nil, short); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("a 16-byte buffer for 4 int64 keys: %v", err)
	}
	if ik.Len() != 0 || k.Len() != 0 {
		t.Errorf("failed Appends added groups: %d, %d", ik.Len(), k.Len())
	}
}
