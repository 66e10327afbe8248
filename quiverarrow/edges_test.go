package quiverarrow

// Edge cases of the contract that no other test pinned: each fails if
// the check or rule it names is dropped or moved by one.

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// NoPanic runs f and fails the test if it panics.
func noPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("%s panicked: %v", name, p)
		}
	}()
	f()
}

// A value whose distance from a negative origin overflows int64.
func TestEdgeBucketNegativeOriginOverflow(t *testing.T) {
	dt := &arrow.TimestampType{Unit: arrow.Second}
	k, err := NewTimeBuckets(dt, 10, -10)
	if err != nil {
		t.Fatal(err)
	}
	b := array.NewTimestampBuilder(memory.DefaultAllocator, dt)
	b.Append(arrow.Timestamp(math.MaxInt64))
	ids, err := k.Append(nil, b.NewArray())
	if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "too far") {
		t.Errorf("MaxInt64 with origin -10: err %v, ids %v, %d groups", err, ids, k.Len())
	}
}

// Wrapped is an array whose Data is d: arrow-go's constructors do not
// check it (an Array implemented outside arrow-go, or one whose buffers
// changed).
type wrapped struct {
	arrow.Array
	d arrow.ArrayData
}

func (w wrapped) Data() arrow.ArrayData { return w.d }

// A string key column whose offsets buffer holds off+n offsets, one
// short.
func TestEdgeTextOffsetsOneShort(t *testing.T) {
	k, _ := NewKeys(arrow.BinaryTypes.String)
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues([]string{"a", "b"}, nil)
	good := sb.NewArray()
	d := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes([]int32{0, 1})), memory.NewBufferBytes([]byte("ab"))}, nil, 0, 0)
	var err error
	noPanic(t, "Append", func() { _, err = k.Append(nil, wrapped{good, d}) })
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("offsets buffer of 2 offsets for 2 rows: %v", err)
	}
}

// A dictionary whose entry is null: the rows using it are null keys.
func TestEdgeDictionaryNullEntry(t *testing.T) {
	vb := array.NewInt64Builder(memory.DefaultAllocator)
	vb.AppendValues([]int64{10, 0, 30}, []bool{true, false, true})
	dict := vb.NewArray()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int64}
	idx := array.NewData(dt, 3, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{0, 1, 2})}, nil, 0, 0)
	idx.SetDictionary(dict.Data())
	k, _ := NewKeys(dt)
	ids, err := k.Append(nil, array.MakeFromData(idx))
	if err != nil {
		t.Fatal(err)
	}
	if k.NullID() != 1 || ids[1] != 1 {
		t.Errorf("null dictionary entry: ids %v, NullID %d, want NullID 1", ids, k.NullID())
	}
	if keys := k.NewArray(memory.DefaultAllocator); !keys.IsNull(1) {
		t.Errorf("keys %v: group 1 is not null", keys)
	}
}

// A dictionary index equal to the dictionary's length.
func TestEdgeDictionaryIndexAtLength(t *testing.T) {
	vb := array.NewInt64Builder(memory.DefaultAllocator)
	vb.AppendValues([]int64{10, 20, 30}, nil)
	dict := vb.NewArray()
	dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.PrimitiveTypes.Int64}
	idx := array.NewData(dt, 2, []*memory.Buffer{nil, memory.NewBufferBytes([]byte{1, 3})}, nil, 0, 0)
	idx.SetDictionary(dict.Data())
	k, _ := NewKeys(dt)
	var err error
	noPanic(t, "Append", func() { _, err = k.Append(nil, array.MakeFromData(idx)) })
	if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "dictionary index 3") {
		t.Errorf("dictionary index 3 of 3 entries: %v", err)
	}
}

// Merge of time buckets of another width.
func TestEdgeMergeBucketsOfAnotherWidth(t *testing.T) {
	dt := &arrow.TimestampType{Unit: arrow.Second}
	a, _ := NewTimeBuckets(dt, 10, 0)
	b, _ := NewTimeBuckets(dt, 20, 0)
	if _, err := a.Merge(b); !errors.Is(err, arrow.ErrType) {
		t.Errorf("Merge of width-20 buckets into width-10 ones: %v", err)
	}
	c, _ := NewTimeBuckets(dt, 10, 5)
	if _, err := a.Merge(c); !errors.Is(err, arrow.ErrType) {
		t.Errorf("Merge of buckets at origin 5 into origin 0: %v", err)
	}
}

var edgeSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "x", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func edgeBatch(keys []string, keyValid []bool, x []float64, xValid []bool, n []int64) arrow.RecordBatch {
	kb := array.NewStringBuilder(memory.DefaultAllocator)
	kb.AppendValues(keys, keyValid)
	xb := array.NewFloat64Builder(memory.DefaultAllocator)
	xb.AppendValues(x, xValid)
	nb := array.NewInt64Builder(memory.DefaultAllocator)
	nb.AppendValues(n, nil)
	return array.NewRecordBatch(edgeSchema, []arrow.Array{kb.NewArray(), xb.NewArray(), nb.NewArray()}, int64(len(keys)))
}

// A malformed value column: an error, and no key added.
func TestEdgeGroupByMalformedValueColumn(t *testing.T) {
	g, err := NewGroupBy(edgeSchema, "k", []string{"x"}, AggAll)
	if err != nil {
		t.Fatal(err)
	}
	kb := array.NewStringBuilder(memory.DefaultAllocator)
	kb.AppendValues([]string{"a", "b", "c", "d"}, nil)
	// 4 rows, a 16-byte values buffer (over 32 bytes of memory).
	x := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 4, []*memory.Buffer{nil,
		spare(arrow.Float64Traits.CastToBytes([]float64{1, 2, 3, 4}), 16)}, nil, 0, 0))
	nb := array.NewInt64Builder(memory.DefaultAllocator)
	nb.AppendValues([]int64{1, 2, 3, 4}, nil)
	rec := array.NewRecordBatch(edgeSchema, []arrow.Array{kb.NewArray(), x, nb.NewArray()}, 4)
	noPanic(t, "Add", func() { err = g.Add(rec) })
	if !errors.Is(err, arrow.ErrInvalid) || g.Keys().Len() != 0 {
		t.Errorf("short values buffer: %v, %d groups", err, g.Keys().Len())
	}
}

// Merge of a GroupBy over other value columns.
func TestEdgeGroupByMergeOtherColumns(t *testing.T) {
	g, _ := NewGroupBy(edgeSchema, "k", []string{"x", "n"}, AggAll)
	fewer, _ := NewGroupBy(edgeSchema, "k", []string{"x"}, AggAll)
	swapped, _ := NewGroupBy(edgeSchema, "k", []string{"n", "x"}, AggAll)
	rec := edgeBatch([]string{"a"}, nil, []float64{1}, nil, []int64{1})
	for _, h := range []*GroupBy{g, fewer, swapped} {
		if err := h.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
	for name, o := range map[string]*GroupBy{"fewer": fewer, "swapped": swapped} {
		var err error
		noPanic(t, name, func() { err = g.Merge(o) })
		if !errors.Is(err, arrow.ErrType) {
			t.Errorf("Merge of a GroupBy of %s columns: %v", name, err)
		}
	}
}

// The key column is nullable when the null group is group 0.
func TestEdgeGroupByNullFirstKey(t *testing.T) {
	g, _ := NewGroupBy(edgeSchema, "k", []string{"x"}, AggCount)
	if err := g.Add(edgeBatch([]string{"", "a"}, []bool{false, true}, []float64{1, 2}, nil, []int64{1, 2})); err != nil {
		t.Fatal(err)
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	if f := out.Schema().Field(0); !f.Nullable || out.Column(0).NullN() != 1 {
		t.Errorf("key field %v with %d nulls: want nullable", f, out.Column(0).NullN())
	}
}

// The overflow error of a GroupBy by a string key column names the
// overflowing group's key (group 1: TestGroupByErrors overflows group 0,
// so it cannot tell that key from the first). NewRecordBatch released
// the key array before it formatted the error with its ValueStr, and
// panicked on the released string array.
func TestEdgeOverflowStringKey(t *testing.T) {
	g, _ := NewGroupBy(edgeSchema, "k", []string{"n"}, AggSum)
	rec := edgeBatch([]string{"a", "b", "b"}, nil, []float64{0, 0, 0}, nil, []int64{1, math.MaxInt64, math.MaxInt64})
	if err := g.Add(rec); err != nil {
		t.Fatal(err)
	}
	var err error
	noPanic(t, "NewRecordBatch", func() { _, err = g.NewRecordBatch(memory.DefaultAllocator) })
	if !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "group 1 (key b)") {
		t.Errorf("overflow of group b: %v", err)
	}
}

// A min column's null count is that of the groups without a value.
func TestEdgeGroupByMinNullCount(t *testing.T) {
	g, _ := NewGroupBy(edgeSchema, "k", []string{"x"}, AggMin)
	rec := edgeBatch([]string{"a", "a", "b"}, nil, []float64{1, 2, 5}, []bool{true, true, false}, []int64{0, 0, 0})
	if err := g.Add(rec); err != nil {
		t.Fatal(err)
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	mins := out.Column(1)
	if mins.NullN() != 1 || !mins.IsNull(1) || mins.IsNull(0) {
		t.Errorf("x_min %v: NullN %d, want [1 (null)] with 1 null", mins, mins.NullN())
	}
}

// A month-interval column has a sum.
func TestEdgeGroupByMonthIntervalSum(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64},
		{Name: "m", Type: arrow.FixedWidthTypes.MonthInterval},
	}, nil)
	g, err := NewGroupBy(s, "k", []string{"m"}, AggSum)
	if err != nil {
		t.Fatal(err)
	}
	kb := array.NewInt64Builder(memory.DefaultAllocator)
	kb.AppendValues([]int64{1, 1, 2}, nil)
	mb := array.NewMonthIntervalBuilder(memory.DefaultAllocator)
	mb.AppendValues([]arrow.MonthInterval{3, 4, 5}, nil)
	if err := g.Add(array.NewRecordBatch(s, []arrow.Array{kb.NewArray(), mb.NewArray()}, 3)); err != nil {
		t.Fatal(err)
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	if out.NumCols() != 2 || out.ColumnName(1) != "m_sum" {
		t.Fatalf("columns %v: want k, m_sum", out.Schema())
	}
	if got := out.Column(1).(*array.Int64).Int64Values(); got[0] != 7 || got[1] != 5 {
		t.Errorf("m_sum %v, want [7 5]", got)
	}
}

// Values of a sliced array with nulls: the Mask at the slice's offset.
func TestEdgeValuesSlicedMask(t *testing.T) {
	full := float64Array([]float64{1, 2, 4, 8, 16, 32, 64, 128, 256}, 1, 4)
	arr := array.NewSlice(full, 1, 9)
	x, m, err := Values[float64](arr)
	if err != nil {
		t.Fatal(err)
	}
	// rows 2, 4, 8, 16, 32, 64, 128, 256 with 2 and 16 null.
	if got, want := quiver.Sum(x, m), 4.0+8+32+64+128+256; got != want {
		t.Errorf("Sum(Values(slice)) = %v, want %v", got, want)
	}
}

// An unknown null count and no bitmap: every row valid.
func TestEdgeUnknownNullCountNoBitmap(t *testing.T) {
	arr := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 3, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Float64Traits.CastToBytes([]float64{1, 2, 3}))}, nil, array.UnknownNullCount, 0))
	if s, err := Sum[float64](arr); err != nil || s != 6 {
		t.Errorf("Sum = %v, %v; want 6, nil", s, err)
	}
}

// An empty array at offset 16 with an unknown null count and a
// 1-byte bitmap.
func TestEdgeEmptyAtOffsetUnknownNulls(t *testing.T) {
	arr := array.MakeFromData(array.NewData(arrow.PrimitiveTypes.Float64, 0, []*memory.Buffer{
		memory.NewBufferBytes([]byte{0xff}),
		memory.NewBufferBytes(arrow.Float64Traits.CastToBytes(make([]float64, 16)))}, nil, array.UnknownNullCount, 16))
	if s, err := Sum[float64](arr); err != nil || s != 0 {
		t.Errorf("Sum = %v, %v; want 0, nil", s, err)
	}
}

// Aggregates.String outside an Example.
func TestEdgeAggregatesString(t *testing.T) {
	if got := (AggSum | AggMax).String(); got != "sum|max" {
		t.Errorf("(AggSum|AggMax).String() = %q, want sum|max", got)
	}
}
