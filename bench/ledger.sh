#!/usr/bin/env bash
# Measures quiver against its peers and regenerates this CPU model's
# section of docs/ledger.md (the sections of other CPUs and the text
# written by hand stay as they are; see bench/README.md).
#
# It measures a clean export of one commit (HEAD by default), never the
# working tree, so the ledger names exactly the code it timed. The test
# binary is built once and run PASSES times over the whole matrix, one
# sample per benchmark per pass, so the passes interleave: a noisy minute
# on a shared machine costs every implementation one sample, not one
# implementation all of its samples. The ledger takes the median.
#
#   bench/ledger.sh                          # 5 passes of 60ms per benchmark (~16 minutes)
#   PASSES=7 BENCHTIME=100ms bench/ledger.sh
#   COMMIT=abc1234 NOTE=note.md bench/ledger.sh
#   SHAPES=short,sel bench/ledger.sh         # only short inputs and selections (~7 minutes)
#   SHAPES=state bench/ledger.sh             # only the partial states and the parallel reduce (~1 minute)
#   BENCH='Sum/type=int64/' bench/ledger.sh  # only what a -bench regex selects
#
# Environment: PASSES (default 5), BENCHTIME (default 60ms), COMMIT
# (default HEAD), RAW (raw output file, default
# bench/results/<date>-<commit>.txt), NOTE (a file whose text heads this
# CPU's section), OUT (default docs/ledger.md), BENCH (the -bench regex, default
# the ledger's matrix, MATRIX below) and SHAPES (parts of the matrix:
# large, short, sel, state; default all). state is the partial states fed in batches and AddParallel against
# one call; its 16M-element inputs take 128 MB each, one at a time.
# A subset (BENCH or SHAPES set) never overwrites the published ledger:
# its RAW and OUT default to bench/results/<date>-<commit>-subset.txt and
# .md.
set -euo pipefail
# NOTE, RAW and OUT are read relative to the caller's directory.
for v in NOTE RAW OUT; do
	if [ -n "${!v:-}" ] && [ "${!v#/}" = "${!v}" ]; then
		printf -v "$v" '%s/%s' "$(pwd)" "${!v}"
	fi
done
cd "$(dirname "$0")"
bench=$(pwd)
root=$(cd .. && pwd)

PASSES=${PASSES:-5}
BENCHTIME=${BENCHTIME:-60ms}
# The benchmarks of the ledger's matrix: the ledger tool reads only these.
# The package's other benchmarks (the hypotheses measured by hand, A/B
# tables, probes) took two thirds of a full run's 44 minutes on an AMD EPYC
# family 26 model 2 and change nothing in the ledger (the same section,
# byte for byte, from the matrix's lines alone).
MATRIX='^Benchmark(Sum|SumChecked|SumReproducible|Min|Max|MinMax|Summary|CountValid|GenericChecked|SumState|SummaryState|IntSumState)$'
BENCH=${BENCH:-$MATRIX}
SHAPES=${SHAPES:-large,short,sel,state}
COMMIT=$(git -C "$root" rev-parse --short=12 "${COMMIT:-HEAD}")
mkdir -p results
stem=$bench/results/$(date -u +%Y%m%d)-$COMMIT
out=$root/docs/ledger.md
# -shapes only when asked for, so that commits older than the flag still run.
shapes=()
if [ "$SHAPES" != large,short,sel,state ]; then
  shapes=(-shapes "$SHAPES")
fi
if [ "$BENCH" != "$MATRIX" ] || [ "$SHAPES" != large,short,sel,state ]; then
  stem=$stem-subset
  out=$stem.md
fi
RAW=${RAW:-$stem.txt}
OUT=${OUT:-$out}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$COMMIT" | tar -x -C "$work"
if [ ! -f "$work/bench/go.mod" ]; then
  echo "commit $COMMIT has no bench module" >&2
  exit 1
fi
go -C "$work/bench" test -c -o "$work/ledger.test" .

{
  echo "commit: $COMMIT"
  echo "benchtime: $BENCHTIME"
  echo "passes: $PASSES"
  if [ "$BENCH" != "$MATRIX" ] || [ "$SHAPES" != large,short,sel,state ]; then
    echo "subset: -bench '$BENCH' -shapes $SHAPES"
  fi
} >"$RAW"
start=$(date +%s)
failed=0
for pass in $(seq "$PASSES"); do
  echo "pass $pass/$PASSES ($(( $(date +%s) - start ))s elapsed)" >&2
  # A benchmark whose result disagrees with the strict reference fails
  # (and is left out of the ledger); the others still run and count.
  if ! (cd "$work/bench" && "$work/ledger.test" -test.run '^$' -test.bench "$BENCH" -test.benchtime "$BENCHTIME" "${shapes[@]}") >>"$RAW"; then
    failed=1
  fi
done
echo "measured in $(( $(date +%s) - start ))s; raw output in $RAW" >&2
if [ "$failed" = 1 ]; then
  echo "some benchmarks FAILED their correctness check:" >&2
  grep -- '--- FAIL' "$RAW" | sort | uniq -c >&2 || true
fi

# The ledger tool of this tree, not of the export: an older commit's tool
# would not know the per-CPU sections and would overwrite the whole file.
# The hypotheses are the measured commit's.
go -C "$bench" run ./cmd/ledger -hyp "$work/bench/*_test.go" -o "$OUT" ${NOTE:+-notefile "$NOTE"} "$RAW"
echo "wrote $OUT" >&2
exit "$failed"
