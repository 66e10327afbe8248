//go:build duckdb

package bench

// quiverarrow's GroupBy beside DuckDB on GROUP BY over Arrow data: the
// same 16M rows as Arrow arrays in memory (a key column and a float64
// value column, one record batch per 1M rows, as a reader hands them on)
// and as a DuckDB table, `SELECT k, sum(x), min(x), max(x), count(x) ...
// GROUP BY k`, DuckDB at threads=1 and 2, quiverarrow with one goroutine
// (one GroupBy over every batch) and with two (one GroupBy per half of the
// batches, merged). The quiverarrow time includes mapping the keys to
// group ids and building the result record batch, as DuckDB's includes
// its hash table and result transfer.
//
//	go -C bench test -tags duckdb -run XXX -bench ArrowGroupBy -count 6
//
// Registered before measuring, from the project's issue (keys: an int64
// key with 1,000 or 1,000,000 distinct values, or a dictionary-encoded
// string key with 100 values):
//
//	H162 (measured by hand): ArrowGroupBy keys=int64-1000: quiverarrow/workers=1 >= 2.5x duckdb/threads=1
//	H163 (measured by hand): ArrowGroupBy keys=int64-1000: quiverarrow/workers=2 >= 1.5x duckdb/threads=2
//	H164 (measured by hand): ArrowGroupBy keys=int64-1000000: quiverarrow/workers=1 >= 1.0x duckdb/threads=1
//	H165 (measured by hand): ArrowGroupBy keys=int64-1000000: quiverarrow/workers=2 >= 1.0x duckdb/threads=2
//	H166 (measured by hand): ArrowGroupBy keys=dict-100: quiverarrow/workers=1 >= 1.0x duckdb/threads=1
//	H167 (measured by hand): ArrowGroupBy keys=dict-100: quiverarrow/workers=2 >= 1.0x duckdb/threads=2

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/quiverlabs/quiver/quiverarrow"
)

const arrowBatch = 1 << 20

// arrowGroupData is the key and value columns of one key kind: record
// batches for quiverarrow and the rows for DuckDB.
type arrowGroupData struct {
	recs []arrow.RecordBatch
	keys []any // DuckDB's value of each row's key
	x    []float64
}

func arrowGroupInput(kind string) arrowGroupData {
	r := rand.New(rand.NewPCG(20, uint64(len(kind))))
	var d arrowGroupData
	d.x = make([]float64, duckRows)
	d.keys = make([]any, duckRows)
	var keyType arrow.DataType = arrow.PrimitiveTypes.Int64
	names := make([]string, 100)
	for i := range names {
		names[i] = fmt.Sprintf("station-%03d", i*7919%1000)
	}
	if kind == "dict-100" {
		keyType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "k", Type: keyType}, {Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	for lo := 0; lo < duckRows; lo += arrowBatch {
		b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := lo; i < lo+arrowBatch; i++ {
			d.x[i] = r.Float64()*200 - 100
			switch kind {
			case "int64-1000":
				k := int64(r.IntN(1000)) * 1_000_003
				d.keys[i] = k
				b.Field(0).(*array.Int64Builder).Append(k)
			case "int64-1000000":
				k := int64(r.IntN(1_000_000)) * 1_000_003
				d.keys[i] = k
				b.Field(0).(*array.Int64Builder).Append(k)
			case "dict-100":
				k := names[r.IntN(len(names))]
				d.keys[i] = k
				if err := b.Field(0).(*array.BinaryDictionaryBuilder).AppendString(k); err != nil {
					panic(err)
				}
			}
			b.Field(1).(*array.Float64Builder).Append(d.x[i])
		}
		d.recs = append(d.recs, b.NewRecordBatch())
		b.Release()
	}
	return d
}

// arrowGroupTable loads the rows into a DuckDB table t(k, x).
func arrowGroupTable(b *testing.B, d arrowGroupData, keySQL string) *sql.DB {
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		b.Fatal(err)
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (k " + keySQL + ", x DOUBLE)"); err != nil {
		b.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		a, err := duckdb.NewAppenderFromConn(dc.(driver.Conn), "", "t")
		if err != nil {
			return err
		}
		for i := range d.x {
			if err := a.AppendRow(d.keys[i], d.x[i]); err != nil {
				return err
			}
		}
		return a.Close()
	})
	if err != nil {
		b.Fatal(err)
	}
	return db
}

// arrowGroupBy groups the batches with workers GroupBys, one per
// contiguous share of the batches, merged in order, and returns the
// result's row count.
func arrowGroupBy(b *testing.B, recs []arrow.RecordBatch, workers int) int64 {
	aggs := quiverarrow.AggSum | quiverarrow.AggMin | quiverarrow.AggMax | quiverarrow.AggCount
	parts := make([]*quiverarrow.GroupBy, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := w*len(recs)/workers, (w+1)*len(recs)/workers
		wg.Go(func() {
			g, err := quiverarrow.NewGroupBy(recs[0].Schema(), "k", []string{"x"}, aggs)
			if err != nil {
				panic(err)
			}
			for _, rec := range recs[lo:hi] {
				if err := g.Add(rec); err != nil {
					panic(err)
				}
			}
			parts[w] = g
		})
	}
	wg.Wait()
	for _, p := range parts[1:] {
		if err := parts[0].Merge(p); err != nil {
			b.Fatal(err)
		}
	}
	out, err := parts[0].NewRecordBatch(memory.DefaultAllocator)
	if err != nil {
		b.Fatal(err)
	}
	defer out.Release()
	return out.NumRows()
}

func BenchmarkArrowGroupBy(b *testing.B) {
	for _, kind := range []string{"int64-1000", "int64-1000000", "dict-100"} {
		d := arrowGroupInput(kind)
		keySQL := "BIGINT"
		if kind == "dict-100" {
			keySQL = "VARCHAR"
		}
		db := arrowGroupTable(b, d, keySQL)
		// The same number of groups before timing.
		var groups int64
		if err := db.QueryRow("SELECT count(DISTINCT k) FROM t").Scan(&groups); err != nil {
			b.Fatal(err)
		}
		if got := arrowGroupBy(b, d.recs, 1); got != groups {
			b.Fatalf("%s: quiverarrow has %d groups, DuckDB %d", kind, got, groups)
		}
		for _, threads := range []int{1, 2} {
			if _, err := db.Exec(fmt.Sprintf("SET threads=%d", threads)); err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("keys=%s/impl=duckdb/threads=%d", kind, threads), func(b *testing.B) {
				for b.Loop() {
					sinkGroup += duckQuery(b, db, "SELECT k, sum(x), min(x), max(x), count(x) FROM t GROUP BY k", 5)
				}
			})
			b.Run(fmt.Sprintf("keys=%s/impl=quiverarrow/workers=%d", kind, threads), func(b *testing.B) {
				for b.Loop() {
					sinkGroup += float64(arrowGroupBy(b, d.recs, threads))
				}
			})
		}
		db.Close()
		for _, rec := range d.recs {
			rec.Release()
		}
	}
}
