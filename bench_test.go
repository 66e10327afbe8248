package quiver

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/quiverlabs/quiver/internal/testkit"
)

// The benchmark matrix: operation × element type × n × null fraction ×
// backend. Names read BenchmarkSum/float64/n=4096/nulls=0/avx512, so
// benchstat can compare backends side by side:
//
//	go test -run '^$' -bench 'Sum/float64/n=4096/' -count 10 . | tee out.txt
//	benchstat -col /backend out.txt
//
// "scalar" is the strict reference, the same code -tags purego runs, so
// every ratio against it is "versus the purego strict path" in one run.
// Null fraction 0 runs the dense form (no bitmap).

var (
	benchSizes     = []int{4096, 65536, 1 << 20}
	benchNullFracs = []float64{0, 0.1, 0.5}
)

// benchMatrix runs op for every size, null fraction and available backend.
func benchMatrix[T Number](b *testing.B, op func(x []T, m Mask)) {
	for _, n := range benchSizes {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		x := testkit.Values[T](r, n, testkit.Plain)
		for _, f := range benchNullFracs {
			m := Mask{}
			if f > 0 {
				m = Valid(testkit.Bitmap(r, n, 0, f), 0)
			}
			for _, be := range Backends() {
				if !be.Available {
					continue
				}
				b.Run(fmt.Sprintf("n=%d/nulls=%d/%s", n, int(f*100), be.Name), func(b *testing.B) {
					prev := ActiveBackend().Name
					defer SetBackend(prev)
					if err := SetBackend(be.Name); err != nil {
						b.Fatal(err)
					}
					var zero T
					b.SetBytes(int64(n) * int64(unsafe.Sizeof(zero)))
					b.ReportAllocs()
					for b.Loop() {
						op(x, m)
					}
				})
			}
		}
	}
}

var sinkF64 float64

func BenchmarkSum(b *testing.B) {
	b.Run("float64", func(b *testing.B) { benchMatrix(b, func(x []float64, m Mask) { sinkF64 = Sum(x, m) }) })
	b.Run("float32", func(b *testing.B) { benchMatrix(b, func(x []float32, m Mask) { sinkF64 = float64(Sum(x, m)) }) })
	b.Run("int64", func(b *testing.B) { benchMatrix(b, func(x []int64, m Mask) { sinkF64 = float64(SumInt(x, m)) }) })
	b.Run("int32", func(b *testing.B) { benchMatrix(b, func(x []int32, m Mask) { sinkF64 = float64(SumInt(x, m)) }) })
	b.Run("int16", func(b *testing.B) { benchMatrix(b, func(x []int16, m Mask) { sinkF64 = float64(SumInt(x, m)) }) })
	b.Run("int8", func(b *testing.B) { benchMatrix(b, func(x []int8, m Mask) { sinkF64 = float64(SumInt(x, m)) }) })
	b.Run("uint64", func(b *testing.B) { benchMatrix(b, func(x []uint64, m Mask) { sinkF64 = float64(SumUint(x, m)) }) })
	b.Run("uint32", func(b *testing.B) { benchMatrix(b, func(x []uint32, m Mask) { sinkF64 = float64(SumUint(x, m)) }) })
	b.Run("uint16", func(b *testing.B) { benchMatrix(b, func(x []uint16, m Mask) { sinkF64 = float64(SumUint(x, m)) }) })
	b.Run("uint8", func(b *testing.B) { benchMatrix(b, func(x []uint8, m Mask) { sinkF64 = float64(SumUint(x, m)) }) })
}

func BenchmarkSumChecked(b *testing.B) {
	b.Run("int64", func(b *testing.B) {
		benchMatrix(b, func(x []int64, m Mask) { sinkF64 = float64(SumChecked(x, m).Sum) })
	})
	b.Run("int32", func(b *testing.B) {
		benchMatrix(b, func(x []int32, m Mask) { sinkF64 = float64(SumChecked(x, m).Sum) })
	})
	b.Run("uint64", func(b *testing.B) {
		benchMatrix(b, func(x []uint64, m Mask) { sinkF64 = float64(SumCheckedUint(x, m).Sum) })
	})
	b.Run("uint8", func(b *testing.B) {
		benchMatrix(b, func(x []uint8, m Mask) { sinkF64 = float64(SumCheckedUint(x, m).Sum) })
	})
}

// benchSummaryOps runs Min, Max, MinMax and Summarize for one type.
func benchSummaryOps[T Number](b *testing.B) {
	b.Run("Min", func(b *testing.B) { benchMatrix(b, func(x []T, m Mask) { sinkF64 = float64(Min(x, m)) }) })
	b.Run("Max", func(b *testing.B) { benchMatrix(b, func(x []T, m Mask) { sinkF64 = float64(Max(x, m)) }) })
	b.Run("MinMax", func(b *testing.B) {
		benchMatrix(b, func(x []T, m Mask) { lo, hi := MinMax(x, m); sinkF64 = float64(lo) + float64(hi) })
	})
	b.Run("Summarize", func(b *testing.B) {
		benchMatrix(b, func(x []T, m Mask) { sinkF64 = float64(Summarize(x, m).Count) })
	})
}

func BenchmarkSummary(b *testing.B) {
	b.Run("float64", benchSummaryOps[float64])
	b.Run("float32", benchSummaryOps[float32])
	b.Run("int64", benchSummaryOps[int64])
	b.Run("int32", benchSummaryOps[int32])
	b.Run("int16", benchSummaryOps[int16])
	b.Run("int8", benchSummaryOps[int8])
	b.Run("uint64", benchSummaryOps[uint64])
	b.Run("uint32", benchSummaryOps[uint32])
	b.Run("uint16", benchSummaryOps[uint16])
	b.Run("uint8", benchSummaryOps[uint8])
}

func BenchmarkCountValid(b *testing.B) {
	for _, n := range benchSizes {
		r := rand.New(rand.NewPCG(uint64(n), 8))
		m := Valid(testkit.Bitmap(r, n, 3, 0.5), 3)
		for _, be := range Backends() {
			if !be.Available {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/%s", n, be.Name), func(b *testing.B) {
				prev := ActiveBackend().Name
				defer SetBackend(prev)
				if err := SetBackend(be.Name); err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(n / 8))
				b.ReportAllocs()
				for b.Loop() {
					sinkF64 = float64(CountValid(n, m))
				}
			})
		}
	}
}

// Baselines a Go user writes by hand, for the ratios the targets name.

// BenchmarkBaseline/minloop is the plain `if v < m` loop; bitloop is a
// masked float64 sum that tests one bitmap bit per element.
func BenchmarkBaseline(b *testing.B) {
	for _, n := range benchSizes {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		x := testkit.Values[float64](r, n, testkit.Plain)
		b.Run(fmt.Sprintf("minloop/n=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n) * 8)
			for b.Loop() {
				m := x[0]
				for _, v := range x[1:] {
					if v < m {
						m = v
					}
				}
				sinkF64 = m
			}
		})
		for _, f := range benchNullFracs[1:] {
			bits := testkit.Bitmap(r, n, 0, f)
			b.Run(fmt.Sprintf("bitloop/n=%d/nulls=%d", n, int(f*100)), func(b *testing.B) {
				b.SetBytes(int64(n) * 8)
				for b.Loop() {
					s := 0.0
					for i, v := range x {
						if bits[i>>3]&(1<<(i&7)) != 0 {
							s += v
						}
					}
					sinkF64 = s
				}
			})
		}
	}
}
