package quiverarrow

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/quiverlabs/quiver"
)

// Aggregates is a set of per-group results of a value column in a
// [GroupBy]'s output, one column each, named after the value column with
// a suffix: AggSum "_sum", AggMin "_min", AggMax "_max", AggCount
// "_count", AggNulls "_nulls".
type Aggregates uint8

const (
	// AggSum is the sum of the group's valid values: float64 for float
	// columns (the strict per-group fold of quiver.GroupSumState), int64
	// for signed integer, duration and month-interval columns, uint64 for
	// unsigned ones. Other temporal columns (dates, times, timestamps)
	// have no sum. An integer sum that does not
	// fit its type is an error naming the group ([ErrOverflow]).
	AggSum Aggregates = 1 << iota
	// AggMin and AggMax are the group's smallest and largest valid value
	// in the column's type, with quiver's NaN and ±0 rules; null where
	// the group has no valid value.
	AggMin
	AggMax
	// AggCount is the number of valid values of the group (int64).
	AggCount
	// AggNulls is the number of null values of the group (int64).
	AggNulls
	// AggAll is every aggregate.
	AggAll = AggSum | AggMin | AggMax | AggCount | AggNulls
)

// ErrOverflow is the error of a grouped integer sum that does not fit
// int64 (or uint64): the exact sum is known, but an Arrow column of the
// sum's type cannot hold it. It is wrapped with the column and the group.
var ErrOverflow = errors.New("quiverarrow: integer sum overflows")

// GroupBy is a grouped summary of value columns by a key column, the
// `SELECT key, sum(x), min(x), max(x), count(x) ... GROUP BY key` of a
// query engine, built record batch by record batch: [GroupBy.Add] maps
// each batch's keys to dense group ids with a [Keys] and adds its values
// to quiver's grouped states, and [GroupBy.NewRecordBatch] returns one
// row per group, in order of first appearance of the keys:
//
//	g, err := quiverarrow.NewGroupBy(rdr.Schema(), "station", []string{"temp", "rain"}, quiverarrow.AggAll)
//	for rdr.Next() {
//		err = g.Add(rdr.RecordBatch())
//	}
//	out, err := g.NewRecordBatch(memory.DefaultAllocator) // station, temp_sum, temp_min, ...
//
// Null keys form one group of their own. A GroupBy is not safe for
// concurrent use; build one per partition of the rows and combine them
// with [GroupBy.Merge].
type GroupBy struct {
	schema *arrow.Schema
	keyCol int
	keys   *Keys
	cols   []groupCol
	aggs   Aggregates
	ids    []uint32
}

// groupCol is one value column of a GroupBy and its grouped states.
type groupCol struct {
	field arrow.Field
	index int // in the schema
	agg   groupAgg
}

// NewGroupBy returns an empty GroupBy of record batches of schema by the
// key column named key (of a type [NewKeys] takes), over the value
// columns named in values (of the types [Values] reads), with the
// aggregates aggs of each. It returns an error if a column is missing or
// of a type it cannot group or reduce.
func NewGroupBy(schema *arrow.Schema, key string, values []string, aggs Aggregates) (*GroupBy, error) {
	ki, err := fieldIndex(schema, key)
	if err != nil {
		return nil, err
	}
	keys, err := NewKeys(schema.Field(ki).Type)
	if err != nil {
		return nil, err
	}
	return newGroupBy(schema, ki, keys, values, aggs)
}

// NewGroupByWindow is [NewGroupBy] with the groups the time windows of
// the key column that [NewTimeBuckets] makes: width units of the
// column's type starting at origin. The output's key column holds each
// window's start.
func NewGroupByWindow(schema *arrow.Schema, key string, width, origin int64, values []string, aggs Aggregates) (*GroupBy, error) {
	ki, err := fieldIndex(schema, key)
	if err != nil {
		return nil, err
	}
	keys, err := NewTimeBuckets(schema.Field(ki).Type, width, origin)
	if err != nil {
		return nil, err
	}
	return newGroupBy(schema, ki, keys, values, aggs)
}

func newGroupBy(schema *arrow.Schema, ki int, keys *Keys, values []string, aggs Aggregates) (*GroupBy, error) {
	g := &GroupBy{schema: schema, keyCol: ki, keys: keys, aggs: aggs}
	for _, name := range values {
		i, err := fieldIndex(schema, name)
		if err != nil {
			return nil, err
		}
		f := schema.Field(i)
		agg, err := newGroupAgg(f.Type)
		if err != nil {
			return nil, fmt.Errorf("quiverarrow: value column %q: %w", name, err)
		}
		g.cols = append(g.cols, groupCol{field: f, index: i, agg: agg})
	}
	return g, nil
}

func fieldIndex(schema *arrow.Schema, name string) (int, error) {
	idx := schema.FieldIndices(name)
	switch len(idx) {
	case 0:
		return 0, fmt.Errorf("%w: quiverarrow: no column %q", arrow.ErrIndex, name)
	case 1:
		return idx[0], nil
	}
	return 0, fmt.Errorf("%w: quiverarrow: %d columns are named %q", arrow.ErrIndex, len(idx), name)
}

// Keys returns the GroupBy's key index: its group count and the key of
// each group.
func (g *GroupBy) Keys() *Keys { return g.keys }

// Add adds the rows of the record batch rec, whose schema must be the
// GroupBy's. It returns an error, and adds nothing, if a column is not of
// its schema's type or is malformed (see [Values]).
func (g *GroupBy) Add(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(g.schema) {
		return fmt.Errorf("%w: quiverarrow: GroupBy.Add: a record batch of another schema", arrow.ErrType)
	}
	// Every value column first, so that an error adds nothing.
	for _, c := range g.cols {
		if err := c.agg.check(rec.Column(c.index)); err != nil {
			return fmt.Errorf("quiverarrow: value column %q: %w", c.field.Name, err)
		}
	}
	ids, err := g.keys.Append(g.ids[:0], rec.Column(g.keyCol))
	if err != nil {
		return fmt.Errorf("quiverarrow: key column %q: %w", g.schema.Field(g.keyCol).Name, err)
	}
	g.ids = ids
	for _, c := range g.cols {
		c.agg.add(rec.Column(c.index), ids, g.keys.Len())
	}
	return nil
}

// Merge adds the groups of other, a GroupBy of the same schema, key and
// value columns built on another partition of the rows: its keys join
// g's (new ones after g's, in other's order) and its states are merged
// into the groups of the same keys, exactly for integer sums, counts,
// minimums and maximums, and for float sums as the left fold of the
// partitions' sums (ADR-106). other is not changed.
func (g *GroupBy) Merge(other *GroupBy) error {
	if !other.schema.Equal(g.schema) || other.keyCol != g.keyCol || len(other.cols) != len(g.cols) {
		return fmt.Errorf("%w: quiverarrow: GroupBy.Merge of a GroupBy of other columns", arrow.ErrType)
	}
	for i := range g.cols {
		if g.cols[i].index != other.cols[i].index {
			return fmt.Errorf("%w: quiverarrow: GroupBy.Merge of a GroupBy of other columns", arrow.ErrType)
		}
	}
	remap, err := g.keys.Merge(other.keys)
	if err != nil {
		return err
	}
	for i, c := range g.cols {
		c.agg.merge(other.cols[i].agg, remap, g.keys.Len())
	}
	return nil
}

// NewRecordBatch returns the grouped summary so far: one row per group,
// in group id order (first appearance of the keys), with the key column
// (named as in the input; the window start for time windows), then for
// each value column its aggregates in the order sum, min, max, count,
// nulls. The caller releases it. It returns an error wrapping
// [ErrOverflow] if an integer sum does not fit its column.
func (g *GroupBy) NewRecordBatch(mem memory.Allocator) (arrow.RecordBatch, error) {
	n := g.keys.Len()
	keyField := g.schema.Field(g.keyCol)
	keyArr := g.keys.NewArray(mem)
	fields := []arrow.Field{{Name: keyField.Name, Type: keyArr.DataType(), Nullable: g.keys.NullID() >= 0}}
	cols := []arrow.Array{keyArr}
	release := func() {
		for _, c := range cols {
			c.Release()
		}
	}
	for _, c := range g.cols {
		var err error
		fields, cols, err = c.agg.build(mem, c.field, g.aggs, n, fields, cols)
		if err != nil {
			// The key is read for the message before the columns are
			// released: a released string array has no values left.
			var ov *overflowError
			if errors.As(err, &ov) {
				err = fmt.Errorf("%w: the sum of column %q in group %d (key %s)", ErrOverflow, c.field.Name, ov.group, keyArr.ValueStr(ov.group))
			}
			release()
			return nil, err
		}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	release()
	return rec, nil
}

// overflowError is a group whose integer sum does not fit.
type overflowError struct{ group int }

func (e *overflowError) Error() string { return fmt.Sprintf("group %d", e.group) }

// groupAgg is the grouped states of one value column, of its Go type.
type groupAgg interface {
	check(arr arrow.Array) error
	add(arr arrow.Array, ids []uint32, groups int)
	merge(other groupAgg, remap []uint32, groups int)
	build(mem memory.Allocator, f arrow.Field, aggs Aggregates, n int, fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array, error)
}

func newGroupAgg(dt arrow.DataType) (groupAgg, error) {
	switch dt.ID() {
	case arrow.FLOAT32:
		return &floatAgg[float32]{}, nil
	case arrow.FLOAT64:
		return &floatAgg[float64]{}, nil
	case arrow.INT8:
		return &intAgg[int8]{hasSum: true}, nil
	case arrow.INT16:
		return &intAgg[int16]{hasSum: true}, nil
	case arrow.INT32:
		return &intAgg[int32]{hasSum: true}, nil
	case arrow.INT64:
		return &intAgg[int64]{hasSum: true}, nil
	case arrow.DURATION:
		return &intAgg[arrow.Duration]{hasSum: true}, nil
	case arrow.DATE32:
		return &intAgg[arrow.Date32]{}, nil
	case arrow.DATE64:
		return &intAgg[arrow.Date64]{}, nil
	case arrow.TIME32:
		return &intAgg[arrow.Time32]{}, nil
	case arrow.TIME64:
		return &intAgg[arrow.Time64]{}, nil
	case arrow.TIMESTAMP:
		return &intAgg[arrow.Timestamp]{}, nil
	case arrow.INTERVAL_MONTHS:
		return &intAgg[arrow.MonthInterval]{hasSum: true}, nil
	case arrow.UINT8:
		return &uintAgg[uint8]{}, nil
	case arrow.UINT16:
		return &uintAgg[uint16]{}, nil
	case arrow.UINT32:
		return &uintAgg[uint32]{}, nil
	case arrow.UINT64:
		return &uintAgg[uint64]{}, nil
	}
	return nil, typeError[float64](dt)
}

// valueElem is the Go types of value columns: those arrow-go stores and
// quiver reduces.
type valueElem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~float32 | ~float64
}

// summaryAgg is the part every value column has: the grouped summary.
type summaryAgg[T valueElem] struct {
	sm quiver.GroupSummaryState[T]
}

func (a *summaryAgg[T]) check(arr arrow.Array) error {
	_, _, _, err := view[T](arr, place{})
	return err
}

// parts returns arr's values and Mask; check has passed.
func parts[T valueElem](arr arrow.Array) ([]T, quiver.Mask) {
	x, bits, off, _ := view[T](arr, place{})
	if bits == nil {
		return x, quiver.Mask{}
	}
	return x, quiver.Valid(bits, off)
}

func (a *summaryAgg[T]) add(x []T, m quiver.Mask, ids []uint32, groups int) {
	a.sm.Grow(groups)
	a.sm.Add(x, ids, m)
}

func (a *summaryAgg[T]) merge(o *summaryAgg[T], remap []uint32, groups int) {
	a.sm.Grow(groups)
	a.sm.MergeMapped(&o.sm, remap)
}

// build appends the min, max, count and nulls columns that aggs asks for.
func (a *summaryAgg[T]) build(mem memory.Allocator, f arrow.Field, aggs Aggregates, n int, fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array) {
	a.sm.Grow(n)
	sums := a.sm.Summaries(make([]quiver.Summary[T], 0, n))
	if aggs&(AggMin|AggMax) != 0 {
		valid := make([]bool, n)
		empty := 0
		for g, s := range sums {
			valid[g] = s.Count > 0
			if s.Count == 0 {
				empty++
			}
		}
		for _, which := range []Aggregates{AggMin, AggMax} {
			if aggs&which == 0 {
				continue
			}
			vals := make([]T, n)
			for g, s := range sums {
				if s.Count > 0 {
					vals[g] = s.Min
					if which == AggMax {
						vals[g] = s.Max
					}
				}
			}
			fields = append(fields, arrow.Field{Name: f.Name + which.suffix(), Type: f.Type, Nullable: true})
			cols = append(cols, fixedArray(mem, f.Type, vals, valid, empty))
		}
	}
	for _, which := range []Aggregates{AggCount, AggNulls} {
		if aggs&which == 0 {
			continue
		}
		vals := make([]int64, n)
		for g, s := range sums {
			vals[g] = int64(s.Count)
			if which == AggNulls {
				vals[g] = int64(s.Nulls)
			}
		}
		fields = append(fields, arrow.Field{Name: f.Name + which.suffix(), Type: arrow.PrimitiveTypes.Int64})
		cols = append(cols, fixedArray(mem, arrow.PrimitiveTypes.Int64, vals, nil, 0))
	}
	return fields, cols
}

// fixedArray is an array of type dt over vals, null where valid is false
// (nulls of them); valid nil means none is null.
func fixedArray[T valueElem](mem memory.Allocator, dt arrow.DataType, vals []T, valid []bool, nulls int) arrow.Array {
	buffers := []*memory.Buffer{nil, memory.NewBufferBytes(arrow.GetBytes(vals))}
	if nulls > 0 {
		bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
		for i, v := range valid {
			if v {
				bitutil.SetBit(bits, i)
			}
		}
		buffers[0] = memory.NewBufferBytes(bits)
	}
	data := array.NewData(dt, len(vals), buffers, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// floatAgg is the grouped states of a float column.
type floatAgg[T ~float32 | ~float64] struct {
	summaryAgg[T]
	sum quiver.GroupSumState[T]
}

func (a *floatAgg[T]) add(arr arrow.Array, ids []uint32, groups int) {
	x, m := parts[T](arr)
	a.sum.Grow(groups)
	a.sum.Add(x, ids, m)
	a.summaryAgg.add(x, m, ids, groups)
}

func (a *floatAgg[T]) merge(other groupAgg, remap []uint32, groups int) {
	o := other.(*floatAgg[T])
	a.sum.Grow(groups)
	a.sum.MergeMapped(&o.sum, remap)
	a.summaryAgg.merge(&o.summaryAgg, remap, groups)
}

func (a *floatAgg[T]) build(mem memory.Allocator, f arrow.Field, aggs Aggregates, n int, fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array, error) {
	if aggs&AggSum != 0 {
		a.sum.Grow(n)
		vals := make([]float64, 0, n)
		for _, v := range a.sum.Sums(make([]T, 0, n)) {
			vals = append(vals, float64(v))
		}
		fields = append(fields, arrow.Field{Name: f.Name + "_sum", Type: arrow.PrimitiveTypes.Float64})
		cols = append(cols, fixedArray(mem, arrow.PrimitiveTypes.Float64, vals, nil, 0))
	}
	fields, cols = a.summaryAgg.build(mem, f, aggs, n, fields, cols)
	return fields, cols, nil
}

// intAgg is the grouped states of a signed integer or temporal column;
// hasSum says whether its sum means something (not for dates, times and
// timestamps).
type intAgg[T ~int8 | ~int16 | ~int32 | ~int64] struct {
	summaryAgg[T]
	hasSum bool
	sum    quiver.GroupIntSumState[T]
}

func (a *intAgg[T]) add(arr arrow.Array, ids []uint32, groups int) {
	x, m := parts[T](arr)
	if a.hasSum {
		a.sum.Grow(groups)
		a.sum.Add(x, ids, m)
	}
	a.summaryAgg.add(x, m, ids, groups)
}

func (a *intAgg[T]) merge(other groupAgg, remap []uint32, groups int) {
	o := other.(*intAgg[T])
	if a.hasSum {
		a.sum.Grow(groups)
		a.sum.MergeMapped(&o.sum, remap)
	}
	a.summaryAgg.merge(&o.summaryAgg, remap, groups)
}

func (a *intAgg[T]) build(mem memory.Allocator, f arrow.Field, aggs Aggregates, n int, fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array, error) {
	if aggs&AggSum != 0 && a.hasSum {
		a.sum.Grow(n)
		col, err := sumColumn(mem, arrow.PrimitiveTypes.Int64, a.sum.CheckedSums(make([]quiver.CheckedSum[int64], 0, n)))
		if err != nil {
			return fields, cols, err
		}
		fields = append(fields, arrow.Field{Name: f.Name + "_sum", Type: arrow.PrimitiveTypes.Int64})
		cols = append(cols, col)
	}
	fields, cols = a.summaryAgg.build(mem, f, aggs, n, fields, cols)
	return fields, cols, nil
}

// sumColumn is the column of the groups' checked integer sums, or the
// overflowError of the first group whose sum does not fit.
func sumColumn[S int64 | uint64](mem memory.Allocator, dt arrow.DataType, sums []quiver.CheckedSum[S]) (arrow.Array, error) {
	vals := make([]S, len(sums))
	for g, c := range sums {
		if c.Overflowed {
			return nil, &overflowError{g}
		}
		vals[g] = c.Sum
	}
	return fixedArray(mem, dt, vals, nil, 0), nil
}

// uintAgg is the grouped states of an unsigned integer column.
type uintAgg[T ~uint8 | ~uint16 | ~uint32 | ~uint64] struct {
	summaryAgg[T]
	sum quiver.GroupUintSumState[T]
}

func (a *uintAgg[T]) add(arr arrow.Array, ids []uint32, groups int) {
	x, m := parts[T](arr)
	a.sum.Grow(groups)
	a.sum.Add(x, ids, m)
	a.summaryAgg.add(x, m, ids, groups)
}

func (a *uintAgg[T]) merge(other groupAgg, remap []uint32, groups int) {
	o := other.(*uintAgg[T])
	a.sum.Grow(groups)
	a.sum.MergeMapped(&o.sum, remap)
	a.summaryAgg.merge(&o.summaryAgg, remap, groups)
}

func (a *uintAgg[T]) build(mem memory.Allocator, f arrow.Field, aggs Aggregates, n int, fields []arrow.Field, cols []arrow.Array) ([]arrow.Field, []arrow.Array, error) {
	if aggs&AggSum != 0 {
		a.sum.Grow(n)
		col, err := sumColumn(mem, arrow.PrimitiveTypes.Uint64, a.sum.CheckedSums(make([]quiver.CheckedSum[uint64], 0, n)))
		if err != nil {
			return fields, cols, err
		}
		fields = append(fields, arrow.Field{Name: f.Name + "_sum", Type: arrow.PrimitiveTypes.Uint64})
		cols = append(cols, col)
	}
	fields, cols = a.summaryAgg.build(mem, f, aggs, n, fields, cols)
	return fields, cols, nil
}

// GroupRecords reads every remaining record batch of rdr into a GroupBy
// of rdr's schema by the column key over the columns values, and returns
// its record batch (see [GroupBy.NewRecordBatch]). It does not release
// rdr. Use [NewGroupBy] to group by time windows, to carry the groups on,
// or to merge partitions.
func GroupRecords(rdr array.RecordReader, key string, values []string, aggs Aggregates, mem memory.Allocator) (arrow.RecordBatch, error) {
	g, err := NewGroupBy(rdr.Schema(), key, values, aggs)
	if err != nil {
		return nil, err
	}
	for i := 0; rdr.Next(); i++ {
		if err := g.Add(rdr.RecordBatch()); err != nil {
			return nil, fmt.Errorf("batch %d: %w", i, err)
		}
	}
	if err := rdr.Err(); err != nil {
		return nil, err
	}
	return g.NewRecordBatch(mem)
}

// aggNames are the names of the aggregates, bit by bit.
var aggNames = [...]string{"sum", "min", "max", "count", "nulls"}

// String returns the names of the aggregates in a, as "sum|min|...".
func (a Aggregates) String() string {
	var names []string
	for i, name := range aggNames {
		if a&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, "|")
}

// suffix is the column-name suffix of the single aggregate a: "_min".
func (a Aggregates) suffix() string { return "_" + aggNames[bits.TrailingZeros8(uint8(a))] }
