#!/usr/bin/env bash
# Instructions executed per short call, for each op of cmd/callcount and
# each n, counted by cachegrind (valgrind): the count of a run making
# CALLS calls minus that of a run making none, divided by CALLS. Unlike a
# timing, the count does not move with the machine's load, so two builds
# compare exactly. Valgrind has no AVX-512: the kernels measured are the
# avx2 backend's.
#
#   bench/callcount.sh                 # HEAD's working tree
#   COMMITS="2242625 HEAD" bench/callcount.sh   # one column per commit
set -euo pipefail
cd "$(dirname "$0")"
bench=$(pwd)
root=$(cd .. && pwd)
CALLS=${CALLS:-20000}
OPS=${OPS:-"Sum64 Sum64m Sum32 SumInt64 SumInt64m SumUint32 SumChecked Min64 Min64m MinMaxI64 Summ64 Count Repro64"}
SIZES=${SIZES:-"8 16 32 64 256"}
COMMITS=${COMMITS:-worktree}
command -v valgrind >/dev/null || { echo "callcount.sh: needs valgrind" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=()
for c in $COMMITS; do
	if [ "$c" = worktree ]; then
		(cd "$bench" && go build -o "$tmp/$c" ./cmd/callcount)
	else
		# A clean export of the commit's root module, measured with this
		# tree's command.
		mkdir -p "$tmp/src-$c"
		git -C "$root" archive "$c" | tar -x -C "$tmp/src-$c"
		mkdir -p "$tmp/mod-$c"
		cp "$bench/cmd/callcount/main.go" "$tmp/mod-$c/"
		printf 'module callcount\ngo 1.26\nrequire github.com/quiverlabs/quiver v0.0.0\nreplace github.com/quiverlabs/quiver => %s\n' "$tmp/src-$c" >"$tmp/mod-$c/go.mod"
		(cd "$tmp/mod-$c" && GOFLAGS=-mod=mod go mod tidy >/dev/null 2>&1 && go build -o "$tmp/$c" .)
	fi
	bins+=("$c")
done
ir() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 |
	awk '/I *refs/ { gsub(",", "", $NF); print $NF }'; }
printf '%-10s %5s' op n
for c in "${bins[@]}"; do printf ' %10s' "$c"; done
echo
for op in $OPS; do
	for n in $SIZES; do
		printf '%-10s %5s' "$op" "$n"
		for c in "${bins[@]}"; do
			a=$(ir "$tmp/$c" "$op" "$n" "$CALLS")
			z=$(ir "$tmp/$c" "$op" "$n" 0)
			printf ' %10d' $(((a - z) / CALLS))
		done
		echo
	done
done
