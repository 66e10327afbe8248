#!/usr/bin/env bash
# The project's test command: the whole suite on this machine's best backend
# and every other backend it offers, the strict purego build, the race
# detector, and, where qemu-user-static is installed, the amd64 suite on
# emulated CPUs without AVX-512 (Haswell) and without AVX2 (Nehalem) and the
# arm64 suite with NEON. With CI=true a missing emulator is an error.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "go test ./..."
go test -count=1 ./...

step "the README's example program"
go run ./examples/nullcolumn

step "go test -tags purego ./..."
QUIVER_EXPECT_BACKEND=scalar go test -count=1 -tags purego ./...

step "go test -race -short ./..."
go test -count=1 -race -short ./...

step "generator module tests"
go -C internal/asm test -count=1 ./...

if [ -f bench/go.mod ]; then
  step "benchmark module tests"
  go -C bench test -count=1 -short ./...
fi

need() {
  if command -v "$1" >/dev/null 2>&1; then return 0; fi
  if [ "${CI:-}" = true ]; then echo "missing $1 (install qemu-user-static)" >&2; exit 1; fi
  echo "skipping: $1 not installed (apt-get install qemu-user-static)"
  return 1
}

if [ "$(go env GOARCH)" = amd64 ] && need qemu-x86_64-static; then
  for cpu_backend in Haswell:avx2 Nehalem:generic; do
    cpu=${cpu_backend%:*}
    step "amd64 on an emulated $cpu, expecting the ${cpu_backend#*:} backend (go test -short)"
    QUIVER_EXPECT_BACKEND=${cpu_backend#*:} go test -count=1 -short -exec "qemu-x86_64-static -cpu $cpu" .
  done
fi

if need qemu-aarch64-static; then
  step "arm64 with NEON under emulation (go test -short)"
  QUIVER_EXPECT_BACKEND=neon GOARCH=arm64 go test -count=1 -short -exec qemu-aarch64-static ./...
  step "arm64 purego under emulation"
  QUIVER_EXPECT_BACKEND=scalar GOARCH=arm64 go test -count=1 -short -tags purego -exec qemu-aarch64-static .
fi

echo
echo "all tests passed"
