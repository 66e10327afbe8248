#!/usr/bin/env bash
# Runs every measurement that decides the AVX2 hypotheses on the hardware
# they are about (bench/README.md, "On an AVX2-only CPU"): the CPU's own
# generated ledger section, the avx2 backend against the peers
# (TestAVX2Samples), the plain runs, and each A/B of this commit's bench
# binary against the base commit its hypotheses name. Most AVX2 figures in
# docs/ledger.md are the avx2 backend on an AVX-512 core; this is the run
# that replaces them.
#
#   bench/avx2only.sh                      # every job (about 45 minutes, 16 of them the
#                                          # ledger's; the list: -list)
#   JOBS='samples offsets' bench/avx2only.sh
#   CHECK=1 bench/avx2only.sh              # build every binary, run each benchmark once in
#                                          # each, and report jobs whose binaries share no names
#   FORCE=1 bench/avx2only.sh              # on a CPU with AVX-512 too (the avx2 backend on an
#                                          # AVX-512 core: label its figures so)
#
# Environment: JOBS (default all), PASSES (default 6), BENCHTIME (default
# 40ms; the repro job's REPRO_BENCHTIME, 300ms), COMMIT (default HEAD),
# FORCE, CHECK. Output, per job, in
# bench/results/<date>-<cpu>-avx2only-<job>.txt (raw: "# pass P bin
# LABEL" lines, each benchmark line prefixed with new or old) and, for
# A/B jobs, <job>.ratios.txt from cmd/abratio: time new over old, the
# median of the per-pass ratios and the ratio of the fastest samples.
# Binaries take turns, the order swapped every pass, so that a noisy
# minute costs both the same. The ledger job runs bench/ledger.sh, which
# rewrites this CPU model's section of docs/ledger.md.
set -euo pipefail
cd "$(dirname "$0")"
bench=$(pwd)
root=$(cd .. && pwd)

PASSES=${PASSES:-6}
BENCHTIME=${BENCHTIME:-40ms}
COMMIT=$(git -C "$root" rev-parse --short=12 "${COMMIT:-HEAD}")

# name;-bench regexp;base commit;files copied into the base's tree;what it decides
#
# "-" for no base (a plain run of this commit) or no files. A file is
# copied from this commit's tree, or from the commit named as
# commit:path, where this commit's copy needs helpers the base lacks. The
# bases and copies are the ones the hypotheses' A/Bs used.
jobs=(
  "ledger;-;-;-;this CPU model's generated section of docs/ledger.md"
  "samples;-;-;-;H180-H187: against vek, arrow-go and the four- and eight-chain loops"
  "repro;ReproVsSum|ReproSpread;-;-;H191, H193 and the fold plans"
  "pipes;Pipes;-;-;which AVX2 instructions share pipes here"
  "batchesl3;MaskedBatchesL3;-;-;H388-H395: masked batches of 1024 from L3"
  "offsets;^BenchmarkOffsets\$;93f7bdb^;-;H268-H273: columns off a vector boundary"
  "maskedsums;MaskedSumAVX2|MaskedIntSumAVX2|DenseSumAVX2;080c8a7;bench/maskedavx2_test.go;H320-H335, H343-H347, H352-H357: the masked sums"
  "seededint;^Benchmark(MinMax|Summary)\$/type=(int64|int32|uint8)/.*/.*/impl=avx2;284c342;-;H348-H351: the seeded integer summaries"
  "seededfloat;^Benchmark(MinMax|Summary|Min|Max)\$/type=(float64|float32)/.*/.*/impl=avx2;15f640d;-;H358-H360: the seeded float summaries"
  "sentinel;^Benchmark(MinMax|Summary|Min|Max)\$/type=(float64|float32)/.*/nulls=(10|50)/impl=avx2;6f35875;-;H361-H367: the FMA sentinel and seeded Min and Max"
  "alarm;SeededAlarmAVX2;6f35875;bench/seededalarm_test.go;H363, H368: every call alarms"
  "selsum;SelSumInt64;b2a5a56;-;H369-H370: the selected int64 sums without gathers"
  "shortint;ShortIntExtremes/backend=avx2/;1151134;-;H377-H381: the dense integer extremes' cuts"
  "shortfloat;ShortFloatExtremes/backend=(avx2|generic)/;d29d42c;-;H396-H399: the short float extremes by the builtin min's chains"
  "oddlen;^BenchmarkOddLengths\$/backend=avx2/;d1cdb80;-;H403-H407: dense columns of 61, 1031, 4099 elements"
  "oddlenmasked;^BenchmarkOddLengthsMasked\$/backend=avx2/;7cd6b16;-;H408-H410: masked columns of odd lengths"
  "sliceoffsets;MaskedSliceOffsets/backend=avx2/;6fe73e1;-;H432-H433: a masked summary at bitmap offset 3"
  "callcost;CallCost/backend=avx2/;9b5d44a;-;H418-H424: the fixed cost of short dense calls"
  "maskedcuts1;ShortMasked(Extremes|Zeros)/backend=avx2/;161a750;bench/shortmasked_test.go bench/harness_test.go;H459-H467: the masked extremes' cuts"
  "frames;KernelFrames/backend=(avx2|peers)/;f743757;-;H471-H477: dense calls through one Go frame"
  "densecuts;DenseCuts/backend=avx2/;44f90e2;-;H478-H483: the dense extremes' cuts and one-block sums"
  "maskedframes;MaskedFrames/backend=avx2/;579f07f;-;H486-H491: masked extremes through summaryDirect"
  "maskedcuts2;ShortMasked(Extremes|Zeros)/backend=avx2/;5871e3e;-;H492-H496: the masked cuts after summaryDirect"
  "layoutodd;^BenchmarkOddLengths\$/backend=avx2/;429628e;-;H501, H503: the loops' placement (kit.LayOut), dense columns"
  "layoutu8;^Benchmark(MinMax|Summary)\$/type=uint8/n=65536/nulls=0/impl=avx2;429628e;-;H502: the loops' placement, uint8 from L2"
  "layoutcuts;DenseCuts/backend=avx2/;429628e;-;H504: the loops' placement, short dense calls"
  "layoutmasked;MaskedFrames/backend=avx2/;429628e;-;H505: the loops' placement, masked calls"
)

if [ "${1:-}" = -list ]; then
  for j in "${jobs[@]}"; do
    IFS=';' read -r name re base copies what <<<"$j"
    printf '%-13s %s\n' "$name" "$what"
  done
  exit 0
fi

info=$(go -C "$root" run ./cmd/quiver info)
if grep -q 'AVX-512 F *yes' <<<"$info" && [ -z "${FORCE:-}" ] && [ -z "${CHECK:-}" ]; then
  echo "this CPU has AVX-512: its avx2 figures are not an AVX2-only CPU's (FORCE=1 runs anyway)" >&2
  exit 1
fi
# A file-name tag for the CPU: "AMD EPYC (family 25 model 1)" -> amd-epyc-family-25-model-1.
cpu=$(sed -n 's/^CPU: //p' <<<"$info" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '-' | tr -s '-' | sed 's/^-//; s/-$//')
stem=$bench/results/$(date -u +%Y%m%d)-${cpu:-cpu}-avx2only

selected() {
  [ "${JOBS:-all}" = all ] && return 0
  local j
  for j in $JOBS; do [ "$j" = "$1" ] && return 0; done
  return 1
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -n "${CHECK:-}" ]; then
  stem=$work/check # a check's output is not a measurement
fi

# binary KEY COMMIT COPIES: builds the bench test binary of COMMIT's tree,
# with COPIES copied in, as $work/KEY.test (once per key).
binary() {
  local key=$1 commit=$2 copies=$3 dir=$work/$1
  [ -x "$work/$key.test" ] && return 0
  mkdir -p "$dir"
  git -C "$root" archive "$commit" | tar -x -C "$dir"
  if [ "$copies" != - ]; then
    local c from path
    for c in $copies; do
      from=$COMMIT path=$c
      if [[ $c == *:* ]]; then from=${c%%:*} path=${c#*:}; fi
      git -C "$root" show "$from:$path" >"$dir/$path"
    done
  fi
  go -C "$dir/bench" test -c -o "$work/$key.test" .
}

# alternate RAW REGEXP KEY...: PASSES passes of each binary in turn, the
# order reversed every other pass; a binary's benchmarks run in its own
# tree (some read testdata).
alternate() {
  local raw=$1 re=$2 passes=$PASSES benchtime=$jobtime
  shift 2
  if [ -n "${CHECK:-}" ]; then passes=1 benchtime=1x; fi
  : >"$raw"
  local p k keys
  for p in $(seq "$passes"); do
    keys=("$@")
    if (( p % 2 == 0 )); then
      keys=()
      for ((k = $#; k > 0; k--)); do keys+=("${!k}"); done
    fi
    for k in "${keys[@]}"; do
      local label=new
      [ "$k" = new ] || label=old
      echo "# pass $p bin $label" >>"$raw"
      (cd "$work/$k/bench" && "$work/$k.test" -test.run '^$' -test.bench "$re" -test.benchtime "$benchtime") 2>&1 |
        sed "s/^Benchmark/$label Benchmark/" >>"$raw" || true
    done
  done
}

start=$(date +%s)
binary new "$COMMIT" -
for j in "${jobs[@]}"; do
  IFS=';' read -r name re base copies what <<<"$j"
  selected "$name" || continue
  echo "== $name: $what ($(( $(date +%s) - start ))s elapsed)" >&2
  raw=$stem-$name.txt
  jobtime=$BENCHTIME
  # 16M elements take 4-6 ms a call: 40ms would time a handful of calls.
  if [ "$name" = repro ]; then jobtime=${REPRO_BENCHTIME:-300ms}; fi
  case $name in
  ledger)
    if [ -n "${CHECK:-}" ]; then continue; fi
    COMMIT=$COMMIT "$bench/ledger.sh"
    ;;
  samples)
    if [ -n "${CHECK:-}" ]; then continue; fi
    {
      echo "# commit $COMMIT; $(sed -n 's/^CPU: //p' <<<"$info"); active backend: $(awk '/active/ {print $1}' <<<"$info")"
      echo "# 150 interleaved samples per implementation, each the mean of enough calls to take 200 µs; min, 10th percentile, median in ns"
      (cd "$work/new/bench" && AVX2_SAMPLES=. "$work/new.test" -test.run TestAVX2Samples -test.count 1 -test.v)
    } >"$raw" 2>&1
    ;;
  *)
    if [ "$base" = - ]; then
      alternate "$raw" "$re" new
    else
      key=base-$(tr -c 'a-zA-Z0-9\n' _ <<<"$base$copies")
      binary "$key" "$base" "$copies"
      alternate "$raw" "$re" new "$key"
      (cd "$bench" && go run ./cmd/abratio "$raw") >"${raw%.txt}.ratios.txt"
      if [ -n "${CHECK:-}" ]; then
        shared=$(grep -c '^Benchmark' "${raw%.txt}.ratios.txt" || true)
        echo "   $name: $shared benchmarks in both binaries" >&2
        if [ "$shared" = 0 ]; then echo "   $name: NO SHARED BENCHMARK" >&2; fi
      fi
    fi
    ;;
  esac
  if grep -q -- '--- FAIL\|^FAIL\|panic:' "$raw" 2>/dev/null; then
    echo "   $name: a benchmark FAILED, see $raw" >&2
  fi
done
echo "done in $(( $(date +%s) - start ))s; output in $stem-*" >&2
