#!/usr/bin/env bash
# Simulated cycle counts of the NEON kernels' inner loops (docs/neon.md).
#
# Builds the kernel package's arm64 test binary, disassembles every NEON
# kernel from it with aarch64-linux-gnu-objdump, cuts out each kernel's
# innermost loop (the backward branch with the shortest span: the `inner`
# loop of the 8- and 16-bit sums, the one loop elsewhere), drops the
# addresses and every branch (llvm-mca simulates straight-line code and
# repeats it; the loop counter's SUBS stays), and runs the body through
# llvm-mca for each CPU model. It prints one Markdown table row per kernel
# and model:
#
#   cycles per loop body (llvm-mca, 1000 repetitions), elements per loop
#   body, cycles/element, the load bound (the mean pressure on the model's
#   load units), the vector bound (the busiest vector pipe), the dispatch
#   bound (uops over dispatch width),
#   the bound (the largest of them) and cycles/iteration over the bound.
#
# The pipe counts are the model's own (its resource view), not the CPU
# vendors' figures: see docs/neon.md for where they differ.
#
# Usage: scripts/neon-mca.sh [outdir]   (default: a temporary directory)
# Environment: MCA (llvm-mca binary; default llvm-mca-19, else llvm-mca),
# MODELS (default: the Apple and Neoverse models the binary has).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
mkdir -p "$out"
MCA=${MCA:-$(command -v llvm-mca-19 || command -v llvm-mca)}
OBJDUMP=${OBJDUMP:-aarch64-linux-gnu-objdump}
ITER=1000

if [ -z "${MODELS:-}" ]; then
	MODELS=""
	for m in apple-m1 neoverse-n1 neoverse-v1 neoverse-n2 neoverse-v2; do
		if ! echo 'add x0, x0, x1' | "$MCA" -mtriple=aarch64 -mcpu=$m -iterations=1 2>&1 | grep -q 'not a recognized processor'; then
			MODELS="$MODELS $m"
		fi
	done
fi

GOARCH=arm64 go test -c -o "$out/kernel.test" ./internal/kernel
"$OBJDUMP" -t "$out/kernel.test" |
	awk '$NF ~ /internal\/kernel\.(sum|split|summary|count|repro|group)[A-Za-z0-9]*\.abi0$/ || $NF ~ /internal\/kernel\.mcaLoop[A-Za-z0-9]*$/ {print $NF}' |
	sort >"$out/symbols"

# loop SYMBOL: the innermost loop of SYMBOL as llvm-mca input; for the
# grouped kernels, whose one-row tail loop is shorter than their main
# loop, the loop with the longest span.
loop() {
	local longest=0
	case "$1" in *kernel.group*) longest=1 ;; esac
	"$OBJDUMP" -d --no-show-raw-insn --disassemble="$1" "$out/kernel.test" |
		awk -v longest=$longest '
		function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
		/^ *[0-9a-f]+:\t/ {
			addr = hex(substr($1, 1, length($1) - 1))
			line = $0
			sub(/^ *[0-9a-f]+:\t/, "", line)
			sub(/[ \t]*\/\/.*$/, "", line)
			n++; a[n] = addr; ins[n] = line
			op = line; sub(/[ \t].*/, "", op)
			br[n] = (op ~ /^(b|b\..*|cbz|cbnz|tbz|tbnz)$/)
			if (br[n]) {
				t = line; sub(/^[^ \t]+[ \t]+/, "", t); k = split(t, f, /[ ,]+/)
				for (j = 1; j <= k; j++) if (f[j] ~ /^[0-9a-f]+$/ && length(f[j]) >= 4) {
					tgt = hex(f[j])
					if (tgt < addr && (best == "" || (longest ? addr - tgt > best : addr - tgt < best))) { best = addr - tgt; lo = tgt; hi = addr }
				}
			}
		}
		END {
			if (best == "") exit 1
			for (i = 1; i <= n; i++) if (a[i] >= lo && a[i] <= hi && !br[i]) print ins[i]
		}'
}

# units MODEL: awk regexps of the model's load units and vector units (its
# resource names; llvm-mca prints them in the "Resources:" list).
units() {
	case "$1" in
	apple-*) echo 'CyUnitLS$ CyUnitV$' ;;
	neoverse-n1) echo 'N1UnitL$ N1UnitV[01]$' ;;
	neoverse-n2) echo 'N2UnitL(01|2)$ N2UnitV[01]$' ;;
	neoverse-v1) echo 'V1UnitL(01|2)$ V1UnitV[0-3]$' ;;
	neoverse-v2) echo 'V2UnitL(01|2)$ V2UnitV[0-3]$' ;;
	*) echo "unknown model $1" >&2; return 1 ;;
	esac
}

# elements SYMBOL: elements (valid bits for countBits) per iteration of
# the kernel's count, one SUBS; a loop body with two SUBS (two sets of
# accumulators, or countBits's two blocks) is two iterations.
elements() {
	local k=${1##*kernel.}
	k=${k%.abi0}
	case "$k" in
	countBits) echo 512 ;;
	group*) echo 4 ;;        # rows per iteration of the grouped kernels
	mcaLoopGroup*) echo 1 ;; # rows per iteration of the plain loops
	reproFold*) echo 8 ;;
	*8 | *8Masked) echo 64 ;;
	*16 | *16Masked) echo 32 ;;
	*32 | *32Masked) echo 16 ;;
	*64 | *64Masked) echo 8 ;;
	esac
}

printf '| kernel | model | cycles/loop | elements/loop | cycles/element | load bound | vector bound | dispatch bound | bound | ratio |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
while read -r sym; do
	k=${sym##*kernel.}
	k=${k%.abi0}
	loop "$sym" >"$out/$k.s"
	for m in $MODELS; do
		"$MCA" -mtriple=aarch64 -mcpu="$m" -iterations=$ITER "$out/$k.s" >"$out/$k.$m.txt" 2>&1
		read -r lre vre < <(units "$m")
		subs=$(grep -c '^subs' "$out/$k.s" || true)
		[ "$subs" -gt 0 ] || subs=1 # the grouped kernels and loops count with SUB or CMP
		awk -v k="$k" -v m="$m" -v el="$(($(elements "$sym") * subs))" -v it=$ITER \
			-v lre="$lre" -v vre="$vre" '
			/^Total Cycles:/ { cyc = $3 / it }
			/^Total uOps:/ { uops = $3 / it }
			/^Dispatch Width:/ { dw = $3 }
			/^Resources:/ { res = 1; next }
			res && /^\[[0-9.]+\] +- / { name[$1] = $3; next }
			res && /^$/ && length(name) > 0 { res = 0 }
			/^Resource pressure per iteration:/ {
				getline; nc = NF; for (i = 1; i <= NF; i++) cols[i] = $i
				getline; for (i = 1; i <= NF; i++) val[i] = $i
				next
			}
			END {
				# Loads may use every load unit: their bound is the mean.
				# Vector instructions may not use every pipe (SADALP runs
				# on two of the four of V1): their bound is the busiest pipe,
				# llvm-mca spreading each over the pipes it may use.
				for (i = 1; i <= nc; i++) {
					v = (val[i] == "-" ? 0 : val[i]) + 0
					if (name[cols[i]] ~ lre) { ld += v; nl++ }
					if (name[cols[i]] ~ vre && v > vb) vb = v
				}
				lb = ld / nl
				db = uops / dw
				b = lb; what = "load"
				if (vb > b) { b = vb; what = "vector" }
				if (db > b) { b = db; what = "dispatch" }
				printf "| %s | %s | %.2f | %d | %.3f | %.2f | %.2f | %.2f | %.2f (%s) | %.2f |\n", k, m, cyc, el, cyc / el, lb, vb, db, b, what, cyc / b
			}' "$out/$k.$m.txt"
	done
done <"$out/symbols"
echo "llvm-mca: $("$MCA" --version | grep -m1 -i version | sed 's/^ *//'); outputs in $out" >&2

# The models: FADD latency (from the float sums' loops), the units the
# bounds above count, dispatch width; and the strict float64 fold (one
# scalar FADD chain, the order of the scalar backend and of any loop a
# compiler may build without reassociating) in cycles per element.
printf 'ldr\td1, [x0]\nadd\tx0, x0, #0x8\nfadd\td0, d0, d1\nsubs\tx1, x1, #0x1\n' >"$out/strict64.s"
printf '\n| model | FADD latency f32, f64 (vector) | load units | vector pipes | dispatch width | strict float64 fold, cycles/element |\n|---|---|---|---|---|---|\n'
for m in $MODELS; do
	read -r lre vre < <(units "$m")
	lat() { "$MCA" -mtriple=aarch64 -mcpu="$m" -iterations=1 "$out/$1.s" | awk '/fadd[ \t]+v0\./ { print $2; exit }'; }
	"$MCA" -mtriple=aarch64 -mcpu="$m" -iterations=$ITER "$out/sumF64.s" | awk -v m="$m" -v lre="$lre" -v vre="$vre" \
		-v l32="$(lat sumF32)" -v l64="$(lat sumF64)" \
		-v strict="$("$MCA" -mtriple=aarch64 -mcpu="$m" -iterations=$ITER "$out/strict64.s" | awk -v it=$ITER '/^Total Cycles:/ { print $3 / it }')" '
		/^Dispatch Width:/ { dw = $3 }
		/^Resources:/ { res = 1; next }
		res && /^\[[0-9.]+\] +- / { if ($3 ~ lre) nl++; if ($3 ~ vre) nv++; next }
		res && /^$/ && (nl + nv) > 0 { res = 0 }
		END { printf "| %s | %s, %s | %d | %d | %d | %.2f |\n", m, l32, l64, nl, nv, dw, strict }'
done

# The crossovers: whole calls, inline loop against kernel, below SmallCut.
# TestNEONCallTrace (neon_trace_arm64_test.go) makes each call between two
# calls of traceMark; qemu-aarch64 logs every translated block (in_asm)
# and every block it runs (exec, nochain: each execution); the calls'
# instructions, in the order they ran, branches dropped, go through
# llvm-mca as straight-line code, 100 calls back to back. What llvm-mca
# leaves out (branch prediction, taken-branch fetch bubbles, calls and
# returns) is more of the kernel's path than of the word loop's: its
# numbers favour the kernel.
GOARCH=arm64 go test -c -o "$out/quiver.test" .
GODEBUG=asyncpreemptoff=1 GOGC=off GOMAXPROCS=1 QUIVER_NEON_TRACE=1 \
	qemu-aarch64-static -d in_asm,exec,nochain -D "$out/trace.log" \
	"$out/quiver.test" -test.run '^TestNEONCallTrace$' -test.v >"$out/trace.out"
mkdir -p "$out/calls"
rm -f "$out"/calls/*
# reps is the test's traceReps: the runs of one call, of which the first
# without a runtime function in its trace is kept.
awk -v dir="$out/calls" -v reps=5 '
	/^IN: / { cur = ""; inblk = 1; next }
	inblk && /^0x[0-9a-f]+:/ {
		pc = $1; sub(/^0x0*/, "", pc); sub(/:$/, "", pc)
		if (cur == "") { cur = pc; body[cur] = "" }
		line = $0; sub(/^0x[0-9a-f]+: +[0-9a-f]+ +/, "", line)
		op = line; sub(/[ \t].*/, "", op)
		if (op !~ /^(b|b\..*|bl|blr|br|ret|cbz|cbnz|tbz|tbnz)$/) body[cur] = body[cur] line "\n"
		next
	}
	inblk && /^$/ { inblk = 0; next }
	/^Trace / {
		split($4, f, "/"); pc = f[2]; sub(/^0*/, "", pc)
		if ($5 ~ /\.traceMark$/) {
			if (mark == "") mark = pc
			if (pc != mark) next
			if (!inseg) { inseg = 1; seg = ""; rt = 0; next }
			inseg = 0; id = int(n / reps); n++
			if (!rt && !(id in done)) { done[id] = 1; printf "%s", seg > (dir "/" id ".s"); close(dir "/" id ".s") }
			next
		}
		if (!inseg) next
		if ($5 ~ /^runtime\./) rt = 1
		seg = seg body[pc]
	}' "$out/trace.log"
rm -f "$out/trace.log" # some 60 MB

printf '\n| call | n | model | inline loop (cycles) | kernel (cycles) | kernel/inline |\n|---|---|---|---|---|---|\n'
grep -o 'trace [0-9]* .*' "$out/trace.out" | while read -r _ id op n path; do
	if [ ! -f "$out/calls/$id.s" ]; then
		echo "no uninterrupted trace of $op n=$n $path" >&2
		continue
	fi
	for m in $MODELS; do
		c=$("$MCA" -mtriple=aarch64 -mcpu="$m" -iterations=100 "$out/calls/$id.s" 2>"$out/calls/$id.$m.err" |
			awk '/^Total Cycles:/ { print $3 / 100 }')
		echo "$op $n $m $path ${c:-?}"
	done
done | awk '
	$4 == "word" { w[$1 " " $2 " " $3] = $5; next }
	{ k = $1 " " $2 " " $3; printf "| %s | %s | %s | %.1f | %.1f | %.2f |\n", $1, $2, $3, w[k], $5, $5 / w[k] }'
