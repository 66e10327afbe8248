package kernel

// Lane-private tables. In the plain loop acc[ids[i]] += x[i], a row whose
// group is that of a row just before it must wait for that row's store;
// with few groups that is frequent. The exact reductions may instead spread rows over GroupLanes private tables, row i to
// table i mod GroupLanes, so that the rows of one unrolled step never
// share a table entry, and add the tables into the result at the end. The
// result is the same: integer addition is associative. The tables cost a
// clear and a merge of GroupLanes·groups entries, so they are used for at
// most GroupLaneMaxGroups groups and at least GroupLaneMinRows rows per
// group.

const (
	// GroupLanes is the number of private tables.
	GroupLanes = 4
	// GroupLaneMaxGroups is the largest group count that takes the lanes:
	// four tables of 1024 int64 are 32 KiB, an L1 data cache.
	GroupLaneMaxGroups = 1024
	// GroupLaneMinRows is how many rows per group a batch needs for the
	// lanes to pay for their clear and merge.
	GroupLaneMinRows = 2
)

// GroupUseLanes reports whether a dense batch of n rows over groups groups
// takes the lane-private tables.
func GroupUseLanes(n, groups int) bool {
	return groups <= GroupLaneMaxGroups && n >= GroupLaneMinRows*groups
}

// groupLaneChunk bounds the rows one pass puts in the lane tables, so
// that 32-bit counts and split halves cannot wrap.
const groupLaneChunk = 1 << 30

// GroupCountLanes adds the number of rows of each group among ids to
// count, through the private tables scratch (at least GroupLanes·
// len(count) entries).
func GroupCountLanes(count []int, scratch []uint32, ids []uint32) {
	G := len(count)
	for len(ids) > 0 {
		k := min(len(ids), groupLaneChunk)
		part := ids[:k]
		ids = ids[k:]
		t := scratch[:GroupLanes*G]
		clear(t)
		t0, t1, t2, t3 := t[:G], t[G:2*G], t[2*G:3*G], t[3*G:4*G]
		i := 0
		for ; i+4 <= len(part); i += 4 {
			t0[part[i]]++
			t1[part[i+1]]++
			t2[part[i+2]]++
			t3[part[i+3]]++
		}
		for ; i < len(part); i++ {
			t0[part[i]]++
		}
		for g := range count {
			count[g] += int(t0[g]) + int(t1[g]) + int(t2[g]) + int(t3[g])
		}
	}
}
