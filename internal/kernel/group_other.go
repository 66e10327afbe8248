//go:build (!amd64 && !arm64) || purego

package kernel

import (
	"golang.org/x/exp/constraints"

	"github.com/quiverlabs/quiver/internal/num"
)

// groupAddDense is GroupAddInt64 for a dense batch.
func groupAddDense[T constraints.Integer](acc []int64, x []T, ids []uint32) (int, bool) {
	return groupAddDenseGo(acc, x, ids)
}

// GroupCountDense adds 1 to count[ids[i]] for each i in order, stopping
// at the first id that is not below len(count), and returns the number
// of rows counted: len(ids) when every id is in range.
func GroupCountDense(count []int, ids []uint32) int {
	return groupCountGo(count, ids)
}

// groupMinAsm: no min-only kernel in assembly here.
func groupMinAsm[T num.Number](acc, x []T, ids []uint32) (int, bool) { return 0, false }

// groupMaxAsm: no max-only kernel in assembly here.
func groupMaxAsm[T num.Number](acc, x []T, ids []uint32) (int, bool) { return 0, false }

// GroupDenseChecksIDs reports that GroupAddInt64 checks the ids of a
// dense batch (the Go loop of every element type).
const GroupDenseChecksIDs = true
