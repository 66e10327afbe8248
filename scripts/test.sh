#!/usr/bin/env bash
# The project's test command: the whole suite on this machine's best backend
# and every other backend it offers, the strict purego build, the race
# detector, and, where qemu-user-static is installed, the amd64 suite on
# emulated CPUs without AVX-512 (Haswell) and without AVX2 (Nehalem) and the
# arm64 suite with NEON; the quiverarrow module (natively and on arm64)
# and its Parquet example; then every other first-class Go port (386
# natively, or arm under qemu-user-static where the kernel cannot run 386
# binaries; s390x and riscv64 under qemu-user-static, js/wasm under Node),
# the vet and test build of the systems that cannot run here, and the
# suite under the newest Go release. With CI=true a missing emulator or
# Node is an error.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step prints the seconds since the start, so that a slow step shows.
t0=$(date +%s)
step() { printf '\n== [%ss] %s\n' "$(($(date +%s) - t0))" "$*"; }

# together runs its steps at the same time, given as pairs of arguments
# (the step's title, then a command for bash -c), each with its output in
# a file of its own, and prints each step's output in order once all have
# ended; it fails when any of them failed. The emulated suites spend most
# of their time in one single-threaded process, so two of them keep both
# CPUs of a two-core build machine busy where one after the other would
# keep one.
together() {
  local dir rc=0 i=0 n
  local -a titles=() pids=()
  dir=$(mktemp -d)
  while [ $# -gt 0 ]; do
    titles+=("$1")
    bash -c "$2" >"$dir/$i" 2>&1 &
    pids+=($!)
    i=$((i + 1))
    shift 2
  done
  for n in "${!pids[@]}"; do
    if ! wait "${pids[$n]}"; then
      rc=1
      titles[$n]="${titles[$n]} FAILED"
    fi
  done
  for n in "${!pids[@]}"; do
    step "${titles[$n]} (run beside the others of its group)"
    cat "$dir/$n"
  done
  rm -rf "$dir"
  return "$rc"
}

step "go test ./..."
go test -count=1 ./...

# A count, not a duration: with -fuzztime 5s the go command's fuzzing
# coordinator can report its own deadline as a failure ("context deadline
# exceeded", no failing input written) when a worker is slow to stop, as
# on a loaded build machine; a count sets no deadline. 60000 calls take
# about 4 seconds on a 2-core machine.
step "the state decoders under the fuzzer (60000 inputs)"
go test -run '^$' -fuzz '^FuzzDecode$' -fuzztime 60000x .

step "the README's example program"
go run ./examples/nullcolumn

# The strict purego build, and beside it (the purego run is mostly the
# root package's one test process) the Arrow adapter, a module of its own
# so that the core module does not depend on arrow-go: its tests natively
# (and, below, short on arm64 under emulation) and its example program,
# which round-trips a Parquet file.
pure=("go test -tags purego ./..." "QUIVER_EXPECT_BACKEND=scalar go test -count=1 -tags purego ./...")
if [ -f quiverarrow/go.mod ]; then
  pure+=("quiverarrow module tests and example program"
    "set -euo pipefail
    go -C quiverarrow test -count=1 ./...
    go -C quiverarrow run ./examples/parquetsummary
    go -C quiverarrow run ./examples/parquetsummary -by station
    go -C quiverarrow run ./examples/parquetsummary -by time -every 24h | sed -n '1,8p'")
fi
together "${pure[@]}"

# The race detector's run is mostly one process (the root package's
# tests), so the other modules' tests build and run beside it.
mods=("go test -race -short ./..." "go test -count=1 -race -short ./..."
  "generator module tests" "go -C internal/asm test -count=1 ./...")
if [ -f bench/go.mod ]; then
  mods+=("benchmark module tests" "go -C bench test -count=1 -short ./...")
fi
together "${mods[@]}"

need() {
  if command -v "$1" >/dev/null 2>&1; then return 0; fi
  if [ "${CI:-}" = true ]; then echo "missing $1 (install qemu-user-static and nodejs)" >&2; exit 1; fi
  echo "skipping: $1 not installed (apt-get install qemu-user-static nodejs)"
  return 1
}

if [ "$(go env GOARCH)" = amd64 ] && need qemu-x86_64-static; then
  together \
    "amd64 on an emulated Haswell, expecting the avx2 backend (go test -short)" \
    "QUIVER_EXPECT_BACKEND=avx2 go test -count=1 -short -exec 'qemu-x86_64-static -cpu Haswell' . ./internal/kernel" \
    "amd64 on an emulated Nehalem, expecting the generic backend (go test -short)" \
    "QUIVER_EXPECT_BACKEND=generic go test -count=1 -short -exec 'qemu-x86_64-static -cpu Nehalem' . ./internal/kernel"
fi

if need qemu-aarch64-static; then
  arm=("arm64 with NEON under emulation (go test -short)"
    "QUIVER_EXPECT_BACKEND=neon GOARCH=arm64 go test -count=1 -short -exec qemu-aarch64-static ./..."
    "arm64 purego under emulation"
    "QUIVER_EXPECT_BACKEND=scalar GOARCH=arm64 go test -count=1 -short -tags purego -exec qemu-aarch64-static .")
  # The Arrow adapter (above) on arm64 too.
  if [ -f quiverarrow/go.mod ]; then
    arm+=("quiverarrow on arm64 under emulation (go test -short)"
      "GOARCH=arm64 go -C quiverarrow test -count=1 -short -exec qemu-aarch64-static ./...")
  fi
  together "${arm[@]}"
fi

# Every first-class Go port. The generic backend is what they run; 386
# runs natively, the others under emulation or Node, and the operating
# systems this machine cannot run are vetted and their tests compiled.
# A Linux kernel built without IA32 emulation cannot run 386 binaries
# ("exec format error"), and qemu-i386-static crashes the Go runtime
# ("morestack on gsignal"), so on such a machine the 32-bit little-endian
# code runs as linux/arm under qemu-arm-static instead, and 386 is vetted
# with the other systems below (its file set is linux/arm's, whose tests
# are compiled there).
runs386() {
  local d rc=0
  d=$(mktemp -d)
  printf 'module probe\n' >"$d/go.mod"
  printf 'package main\n\nfunc main() {}\n' >"$d/main.go"
  (cd "$d" && GOARCH=386 GOFLAGS= go build -o probe . && ./probe) >/dev/null 2>&1 || rc=1
  rm -rf "$d"
  return "$rc"
}
vet386=""
if runs386; then
  ports=("GOARCH=386 go test ./... (native)"
    "GOARCH=386 QUIVER_EXPECT_BACKEND=generic go test -count=1 ./...")
elif need qemu-arm-static; then
  echo "this kernel cannot run 386 binaries: 32-bit code runs as linux/arm under emulation, and 386 is vetted"
  vet386=linux/386
  ports=("GOARCH=arm under emulation, in place of 386 (go test -short)"
    "QUIVER_EXPECT_BACKEND=generic GOARCH=arm go test -count=1 -short -exec qemu-arm-static ./...")
else
  vet386=linux/386
  ports=()
fi
if need node; then
  ports+=("GOOS=js GOARCH=wasm under Node (go test -short)"
    "QUIVER_EXPECT_BACKEND=generic GOOS=js GOARCH=wasm go test -count=1 -short -exec '$(go env GOROOT)/lib/wasm/go_js_wasm_exec' ./...")
fi
if [ ${#ports[@]} -gt 0 ]; then
  together "${ports[@]}"
fi

ports=()
for arch in s390x riscv64; do
  if need "qemu-$arch-static"; then
    ports+=("GOARCH=$arch under emulation (go test -short)"
      "QUIVER_EXPECT_BACKEND=generic GOARCH=$arch go test -count=1 -short -exec qemu-$arch-static ./...")
  fi
done
if [ ${#ports[@]} -gt 0 ]; then
  together "${ports[@]}"
fi

# The files a target builds depend only on its architecture (amd64, arm64
# or the portable code; 32 or 64 bits; byte order), whether it is unix,
# and the purego and race tags, so one target per such set stands for the
# others (freebsd for darwin, ppc64le and mips64le for loong64 and
# riscv64). go vet type-checks every package and its tests for each and
# checks the assembly against the Go declarations; compiling and linking
# the test binaries adds what only the compiler and linker see (a stub
# with no body, a symbol missing at link time) and is done for one target
# per kind of file set (amd64 and arm64 assembly off Linux, the portable
# code on a 32-bit, a big-endian and a wasm target).
#
# The newest Go release runs the suite as well as the go directive's: the
# go command fetches the toolchain through the module proxy. That run is
# mostly one test process, so it runs beside the vetting.
vet_other_targets() {
  set -euo pipefail
  local target pkg
  testbins=$(mktemp -d)
  trap 'rm -rf "$testbins"' EXIT
  for target in windows/amd64 windows/arm64 darwin/amd64 darwin/arm64 \
    wasip1/wasm linux/arm linux/ppc64 linux/loong64 $vet386; do
    echo "$target"
    GOOS=${target%/*} GOARCH=${target#*/} go vet ./...
    case $target in
    windows/amd64 | darwin/arm64 | wasip1/wasm | linux/arm | linux/ppc64)
      for pkg in $(go list ./...); do
        GOOS=${target%/*} GOARCH=${target#*/} go test -c -o "$testbins/$(echo "$pkg" | tr / _).test" "$pkg"
      done
      ;;
    esac
  done
}
export -f vet_other_targets
export vet386
newest=go1.27.3
together \
  "go vet and compile the tests for other systems and architectures" "vet_other_targets" \
  "the suite under $newest (go test -short)" "GOTOOLCHAIN=$newest go test -count=1 -short ./..."

echo
echo "all tests passed"
