package quiverarrow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/quiverlabs/quiver"
)

// groupSchema is the schema of the GroupBy tests: keys of several types
// and values of several types, every column nullable.
var groupSchema = arrow.NewSchema([]arrow.Field{
	{Name: "k_str", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "k_i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "k_u8", Type: arrow.PrimitiveTypes.Uint8, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
	{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
	{Name: "date", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
}, nil)

var groupValues = []string{"f64", "f32", "i32", "u16", "date"}

// groupBatches builds record batches of groupSchema: n rows each, with
// distinct keys per key column, value nulls with probability pNull (1 for
// a batch of nulls only), sliced at every offset mod 8.
func groupBatches(r *rand.Rand, sizes []int, distinct int, pNull float64) []arrow.RecordBatch {
	var recs []arrow.RecordBatch
	for bi, n := range sizes {
		off := bi % 8
		cols := make([]arrow.Array, len(groupSchema.Fields()))
		for i, f := range groupSchema.Fields() {
			var a arrow.Array
			switch {
			case i < 3:
				a = keyColumn(r, f.Type, n, off, distinct, 0.05)
			case i == 3:
				a = keyColumn(r, f.Type, n, off, 1<<20, 0.05)
			default:
				p := pNull
				if bi == 2 {
					p = 1
				}
				full := buildAny(r, f.Type, n+off, p)
				a = array.NewSlice(full, int64(off), int64(off+n))
				full.Release()
			}
			cols[i] = a
		}
		recs = append(recs, array.NewRecordBatch(groupSchema, cols, int64(n)))
	}
	return recs
}

// refGroup is the reference result of one group of one value column: the
// valid values in row order, and the null count.
type refGroup struct {
	vals  []any
	nulls int
}

// refGroupBy groups recs by the key column through a Go map over
// keyString, IsValid and Value; for windows, bucket maps a key to its
// window's start.
func refGroupBy(recs []arrow.RecordBatch, key int, bucket func(int64) int64) (order []string, groups []map[string]*refGroup) {
	groups = make([]map[string]*refGroup, len(groupValues))
	for i := range groups {
		groups[i] = map[string]*refGroup{}
	}
	seen := map[string]bool{}
	for _, rec := range recs {
		kc := rec.Column(key)
		for row := range int(rec.NumRows()) {
			k := "null"
			if kc.IsValid(row) {
				k = "k" + keyString(kc, row)
				if bucket != nil {
					k = fmt.Sprint(bucket(int64(kc.(*array.Timestamp).Value(row))))
				}
			}
			if !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
			for vi, name := range groupValues {
				c := rec.Column(groupSchema.FieldIndices(name)[0])
				gr := groups[vi][k]
				if gr == nil {
					gr = &refGroup{}
					groups[vi][k] = gr
				}
				if c.IsNull(row) {
					gr.nulls++
					continue
				}
				gr.vals = append(gr.vals, valueOf(c, row))
			}
		}
	}
	return order, groups
}

// checkGroupRecord compares a GroupBy's output with the reference.
func checkGroupRecord(t *testing.T, name string, out arrow.RecordBatch, order []string, groups []map[string]*refGroup, bucket bool) {
	checkGroupRecordSums(t, name, out, order, groups, bucket, true)
}

// checkGroupRecordSums is checkGroupRecord, with the float sums checked
// or not (merged partitions have their own rule for them).
func checkGroupRecordSums(t *testing.T, name string, out arrow.RecordBatch, order []string, groups []map[string]*refGroup, bucket, floatSums bool) {
	t.Helper()
	if int(out.NumRows()) != len(order) {
		t.Fatalf("%s: %d groups, want %d", name, out.NumRows(), len(order))
	}
	keyCol := out.Column(0)
	for g, k := range order {
		gotKey := "null"
		if keyCol.IsValid(g) {
			gotKey = "k" + keyString(keyCol, g)
			if bucket {
				gotKey = fmt.Sprint(int64(keyCol.(*array.Timestamp).Value(g)))
			}
		}
		if gotKey != k {
			t.Fatalf("%s: group %d has key %s, want %s", name, g, gotKey, k)
		}
		for vi, vname := range groupValues {
			ref := groups[vi][k]
			col := func(suffix string) arrow.Array {
				idx := out.Schema().FieldIndices(vname + suffix)
				if len(idx) != 1 {
					t.Fatalf("%s: no column %s%s", name, vname, suffix)
				}
				return out.Column(idx[0])
			}
			if got := col("_count").(*array.Int64).Value(g); got != int64(len(ref.vals)) {
				t.Fatalf("%s: group %s %s_count = %d, want %d", name, k, vname, got, len(ref.vals))
			}
			if got := col("_nulls").(*array.Int64).Value(g); got != int64(ref.nulls) {
				t.Fatalf("%s: group %s %s_nulls = %d, want %d", name, k, vname, got, ref.nulls)
			}
			lo, hi := col("_min"), col("_max")
			if len(ref.vals) == 0 {
				if lo.IsValid(g) || hi.IsValid(g) {
					t.Fatalf("%s: group %s %s: min/max of no values are not null", name, k, vname)
				}
			} else {
				wantLo, wantHi := refMinMax(ref.vals)
				if got := fmt.Sprint(valueOf(lo, g)); got != wantLo {
					t.Fatalf("%s: group %s %s_min = %s, want %s", name, k, vname, got, wantLo)
				}
				if got := fmt.Sprint(valueOf(hi, g)); got != wantHi {
					t.Fatalf("%s: group %s %s_max = %s, want %s", name, k, vname, got, wantHi)
				}
			}
			if vname == "date" {
				if len(out.Schema().FieldIndices("date_sum")) != 0 {
					t.Fatalf("%s: a sum of dates", name)
				}
				continue
			}
			if !floatSums && (vname == "f64" || vname == "f32") {
				continue
			}
			want := refSum(ref.vals)
			if got := fmt.Sprint(valueOf(col("_sum"), g)); got != want {
				t.Fatalf("%s: group %s %s_sum = %s, want %s", name, k, vname, got, want)
			}
		}
	}
}

// valueOf is row i of c as a plain Go value (a Date32 as its int32).
func valueOf(c arrow.Array, i int) any {
	switch c := c.(type) {
	case *array.Float64:
		return c.Value(i)
	case *array.Float32:
		return c.Value(i)
	case *array.Int32:
		return c.Value(i)
	case *array.Uint16:
		return c.Value(i)
	case *array.Date32:
		return int32(c.Value(i))
	case *array.Int64:
		return c.Value(i)
	case *array.Uint64:
		return c.Value(i)
	}
	panic(fmt.Sprintf("valueOf %T", c))
}

// refMinMax is quiver.MinMax over the values as their own type, printed.
func refMinMax(vals []any) (string, string) {
	switch vals[0].(type) {
	case float64:
		x := make([]float64, len(vals))
		for i, v := range vals {
			x[i] = v.(float64)
		}
		lo, hi := quiver.MinMax(x)
		return fmt.Sprint(lo), fmt.Sprint(hi)
	case float32:
		x := make([]float32, len(vals))
		for i, v := range vals {
			x[i] = v.(float32)
		}
		lo, hi := quiver.MinMax(x)
		return fmt.Sprint(lo), fmt.Sprint(hi)
	}
	// Integers and dates (as int32).
	strs := make([]string, len(vals))
	for i, v := range vals {
		strs[i] = fmt.Sprint(v)
	}
	lo, hi := 0, 0
	for i := range vals {
		if cmpAny(vals[i], vals[lo]) < 0 {
			lo = i
		}
		if cmpAny(vals[i], vals[hi]) > 0 {
			hi = i
		}
	}
	return strs[lo], strs[hi]
}

func cmpAny(a, b any) int {
	switch a := a.(type) {
	case int32:
		return cmpInt(int64(a), int64(b.(int32)))
	case uint16:
		return cmpInt(int64(a), int64(b.(uint16)))
	}
	panic(fmt.Sprintf("cmpAny %T", a))
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// refSum is the strict left fold of the values in their own type for
// floats (printed as the float64 the column holds), the exact sum for
// integers.
func refSum(vals []any) string {
	var f64 float64
	var f32 float32
	z := new(big.Int)
	isF32 := false
	for _, v := range vals {
		switch v := v.(type) {
		case float64:
			f64 += v
		case float32:
			f32 += v
			isF32 = true
		case int32:
			z.Add(z, big.NewInt(int64(v)))
		case uint16:
			z.Add(z, big.NewInt(int64(v)))
		}
	}
	switch {
	case len(vals) == 0:
		return "0"
	case isF32:
		return fmt.Sprint(float64(f32))
	}
	if _, ok := vals[0].(float64); ok {
		return fmt.Sprint(f64)
	}
	return z.String()
}

// TestGroupBy groups batches by each key column and compares every
// aggregate with the reference, on every backend the grouped states
// dispatch to.
func TestGroupBy(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 20))
	for _, distinct := range []int{1, 13, 2000} {
		recs := groupBatches(r, []int{300, 0, 77, 1000, 5, 64, 9, 130}, distinct, 0.2) // offsets 0-7
		for _, key := range []string{"k_str", "k_i64", "k_u8"} {
			name := fmt.Sprintf("by %s distinct=%d", key, distinct)
			g, err := NewGroupBy(groupSchema, key, groupValues, AggAll)
			if err != nil {
				t.Fatal(err)
			}
			for _, rec := range recs {
				if err := g.Add(rec); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			out, err := g.NewRecordBatch(memory.DefaultAllocator)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			order, groups := refGroupBy(recs, groupSchema.FieldIndices(key)[0], nil)
			checkGroupRecord(t, name, out, order, groups, false)
			out.Release()
		}
	}
}

// TestGroupByWindow groups by 10-second windows of the timestamp column.
func TestGroupByWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 21))
	recs := groupBatches(r, []int{500, 3, 200}, 50, 0.1)
	const width, origin = 10_000, 1234
	g, err := NewGroupByWindow(groupSchema, "ts", width, origin, groupValues, AggAll)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := g.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
	out, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	bucket := func(v int64) int64 { return origin + int64(math.Floor(float64(v-origin)/width))*width }
	order, groups := refGroupBy(recs, 3, bucket)
	checkGroupRecord(t, "windows", out, order, groups, true)
}

// TestGroupByMerge groups partitions of the batches separately and merges
// them in several orders: every exact aggregate equals the one GroupBy's.
func TestGroupByMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 22))
	recs := groupBatches(r, []int{300, 0, 77, 400, 5, 50}, 40, 0.2)
	parts := [][]arrow.RecordBatch{recs[:2], recs[2:3], recs[3:]}
	for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}} {
		var all *GroupBy
		var fed []arrow.RecordBatch
		for _, p := range order {
			g, _ := NewGroupBy(groupSchema, "k_str", groupValues, AggAll)
			for _, rec := range parts[p] {
				if err := g.Add(rec); err != nil {
					t.Fatal(err)
				}
			}
			fed = append(fed, parts[p]...)
			if all == nil {
				all = g
				continue
			}
			if err := all.Merge(g); err != nil {
				t.Fatal(err)
			}
		}
		out, err := all.NewRecordBatch(memory.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		// The reference over the batches in the order they were merged:
		// the groups' order, and every aggregate but the float sums,
		// which are the left fold of the partitions' sums.
		keyOrder, groups := refGroupBy(fed, 0, nil)
		checkGroupRecordSums(t, fmt.Sprint("merge order ", order), out, keyOrder, groups, false, false)
		if int(out.NumRows()) != len(keyOrder) {
			t.Fatalf("order %v: %d groups, want %d", order, out.NumRows(), len(keyOrder))
		}
		// Float sums: each partition's strict fold, folded in merge order.
		partSums := make([]map[string]float64, len(order))
		for pi, p := range order {
			_, pg := refGroupBy(parts[p], 0, nil)
			partSums[pi] = map[string]float64{}
			for k, gr := range pg[0] {
				partSums[pi][k], _ = strconvFloat(refSum(gr.vals))
			}
		}
		f64 := out.Column(out.Schema().FieldIndices("f64_sum")[0]).(*array.Float64)
		for g, k := range keyOrder {
			want := 0.0
			for pi := range order {
				want += partSums[pi][k]
			}
			if got := f64.Value(g); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Fatalf("order %v group %s f64_sum = %v, want %v (the left fold of the partitions' sums)", order, k, got, want)
			}
		}
	}
}

func strconvFloat(s string) (float64, error) { return strconv.ParseFloat(s, 64) }

// TestGroupByErrors checks errors, not panics: unknown columns,
// unsupported types, another schema, overflowing sums.
func TestGroupByErrors(t *testing.T) {
	if _, err := NewGroupBy(groupSchema, "nope", nil, AggAll); !errors.Is(err, arrow.ErrIndex) {
		t.Errorf("missing key column: %v", err)
	}
	if _, err := NewGroupBy(groupSchema, "f64", nil, AggAll); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("float key: %v", err)
	}
	if _, err := NewGroupBy(groupSchema, "k_i64", []string{"k_str"}, AggAll); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("string values: %v", err)
	}
	g, _ := NewGroupBy(groupSchema, "k_i64", []string{"f64"}, AggAll)
	other := arrow.NewSchema([]arrow.Field{{Name: "k_i64", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(memory.DefaultAllocator)
	b.Append(1)
	rec := array.NewRecordBatch(other, []arrow.Array{b.NewArray()}, 1)
	if err := g.Add(rec); !errors.Is(err, arrow.ErrType) {
		t.Errorf("another schema: %v", err)
	}
	// An int64 sum that overflows in group 0.
	s := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int8}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
	kb, vb := array.NewInt8Builder(memory.DefaultAllocator), array.NewInt64Builder(memory.DefaultAllocator)
	kb.AppendValues([]int8{5, 5, 6}, nil)
	vb.AppendValues([]int64{math.MaxInt64, 1, 1}, nil)
	ov, _ := NewGroupBy(s, "k", []string{"v"}, AggAll)
	if err := ov.Add(array.NewRecordBatch(s, []arrow.Array{kb.NewArray(), vb.NewArray()}, 3)); err != nil {
		t.Fatal(err)
	}
	if _, err := ov.NewRecordBatch(memory.DefaultAllocator); !errors.Is(err, ErrOverflow) || !strings.Contains(err.Error(), "group 0 (key 5)") {
		t.Errorf("overflowing sum: %v", err)
	}
	noSum, _ := NewGroupBy(s, "k", []string{"v"}, AggMin|AggCount)
	_ = noSum.Add(array.NewRecordBatch(s, []arrow.Array{kb.NewArray(), vb.NewArray()}, 0))
	if out, err := noSum.NewRecordBatch(memory.DefaultAllocator); err != nil || out.NumCols() != 3 {
		t.Errorf("min and count only: %v, %v", out, err)
	}
}

// TestGroupByRoundTrip groups the same batches in memory, through an IPC
// stream and through a Parquet file read back in batches of another size
// with GroupRecords: the same record batch, bit for bit (the float sums'
// fold is per group in row order, so the batch sizes do not matter).
func TestGroupByRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 23))
	recs := groupBatches(r, []int{300, 0, 77, 1000, 5, 64, 9, 130}, 25, 0.2)
	g, _ := NewGroupBy(groupSchema, "k_str", groupValues, AggAll)
	for _, rec := range recs {
		if err := g.Add(rec); err != nil {
			t.Fatal(err)
		}
	}
	want, err := g.NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}

	var stream bytes.Buffer
	w := ipc.NewWriter(&stream, ipc.WithSchema(groupSchema))
	var pq bytes.Buffer
	pw, err := pqarrow.NewFileWriter(groupSchema, &pq, parquet.NewWriterProperties(parquet.WithMaxRowGroupLength(500)),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := pw.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	ipcRdr, err := ipc.NewReader(&stream)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(pq.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 333}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	pqRdr, err := fr.GetRecordReader(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, rdr := range map[string]array.RecordReader{"ipc": ipcRdr, "parquet": pqRdr} {
		got, err := GroupRecords(rdr, "k_str", groupValues, AggAll, memory.DefaultAllocator)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !array.RecordEqual(got, want) {
			t.Errorf("%s: GroupRecords differs from the in-memory GroupBy:\n%v\nwant\n%v", name, got, want)
		}
	}
}
