//go:build duckdb

package bench

// DuckDB beside quiver on the grouped and whole-column aggregates of
// issue 19: the same values appended to a DuckDB table, queried at
// threads=1 and 2, and reduced by quiver's grouped states at 1 and 2
// workers, in one process. DuckDB is a cgo dependency, so these
// benchmarks build only with -tags duckdb (never in CI's -short run):
//
//	go -C bench test -tags duckdb -run XXX -bench DuckDB -count 6
//
// The query time includes DuckDB's parse, plan and result transfer (one
// row, or 1,000 rows for GROUP BY), as a Go program using it pays them.

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/quiverlabs/quiver"
)

const (
	duckRows   = 1 << 24
	duckGroups = 1000
)

// duckTable loads x and ids into a DuckDB table t(g UINTEGER, x DOUBLE).
func duckTable(b *testing.B, x []float64, ids []uint32) *sql.DB {
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		b.Fatal(err)
	}
	db := sql.OpenDB(c)
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t (g UINTEGER, x DOUBLE)"); err != nil {
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
		for i := range x {
			if err := a.AppendRow(ids[i], x[i]); err != nil {
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

// duckQuery runs q and reads every row.
func duckQuery(b *testing.B, db *sql.DB, q string, cols int) float64 {
	rows, err := db.Query(q)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	vals := make([]any, cols)
	ptrs := make([]any, cols)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0.0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			b.Fatal(err)
		}
		n++
	}
	return n
}

func BenchmarkDuckDB(b *testing.B) {
	r := rand.New(rand.NewPCG(19, 1000))
	x := make([]float64, duckRows)
	ids := make([]uint32, duckRows)
	for i := range x {
		x[i] = r.Float64()*200 - 100
		ids[i] = uint32(r.IntN(duckGroups))
	}
	db := duckTable(b, x, ids)
	defer db.Close()
	// Same results before timing: DuckDB's GROUP BY sums against
	// quiver's grouped states (sums as float64, compared loosely: DuckDB
	// sums in its own order).
	var check quiver.GroupSumState[float64]
	check.Grow(duckGroups)
	check.Add(x, ids)
	var g uint32
	var s float64
	if err := db.QueryRow("SELECT g, sum(x) FROM t WHERE g = 7 GROUP BY g").Scan(&g, &s); err != nil {
		b.Fatal(err)
	}
	if d := s - check.Sum(7); d > 1e-6 || d < -1e-6 {
		b.Fatalf("group 7: DuckDB %v, quiver %v", s, check.Sum(7))
	}
	for _, threads := range []int{1, 2} {
		if _, err := db.Exec(fmt.Sprintf("SET threads=%d", threads)); err != nil {
			b.Fatal(err)
		}
		name := fmt.Sprintf("n=%d/groups=%d/threads=%d", duckRows, duckGroups, threads)
		b.Run("op=GroupSum/"+name+"/impl=duckdb", func(b *testing.B) {
			for b.Loop() {
				sinkGroup += duckQuery(b, db, "SELECT g, sum(x) FROM t GROUP BY g", 2)
			}
		})
		b.Run("op=GroupSumMinMaxCount/"+name+"/impl=duckdb", func(b *testing.B) {
			for b.Loop() {
				sinkGroup += duckQuery(b, db, "SELECT g, sum(x), min(x), max(x), count(x) FROM t GROUP BY g", 5)
			}
		})
		b.Run("op=SumMinMaxCount/"+name+"/impl=duckdb", func(b *testing.B) {
			for b.Loop() {
				sinkGroup += duckQuery(b, db, "SELECT sum(x), min(x), max(x), count(x) FROM t", 4)
			}
		})
		var sum quiver.GroupSumState[float64]
		var sm quiver.GroupSummaryState[float64]
		sum.Grow(duckGroups)
		sm.Grow(duckGroups)
		b.Run("op=GroupSum/"+name+"/impl=quiver", func(b *testing.B) {
			for b.Loop() {
				sum.Reset()
				sum.AddParallel(x, ids, threads)
			}
		})
		b.Run("op=GroupSumMinMaxCount/"+name+"/impl=quiver", func(b *testing.B) {
			for b.Loop() {
				sum.Reset()
				sm.Reset()
				sum.AddParallel(x, ids, threads)
				sm.AddParallel(x, ids, threads)
			}
		})
		b.Run("op=SumMinMaxCount/"+name+"/impl=quiver", func(b *testing.B) {
			for b.Loop() {
				var s quiver.SumState[float64]
				var m quiver.SummaryState[float64]
				s.AddParallel(x, threads)
				m.AddParallel(x, threads)
				sinkGroup += s.Sum() + m.Min() + float64(m.Summary().Count)
			}
		})
	}
}
