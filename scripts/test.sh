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
go test ./...

step "go test -tags purego ./..."
go test -tags purego ./...

step "go test -race -short ./..."
go test -race -short ./...

step "generator module tests"
go -C internal/asm test ./...

if [ -f bench/go.mod ]; then
  step "benchmark module tests"
  go -C bench test -short ./...
fi

need() {
  if command -v "$1" >/dev/null 2>&1; then return 0; fi
  if [ "${CI:-}" = true ]; then echo "missing $1 (install qemu-user-static)" >&2; exit 1; fi
  echo "skipping: $1 not installed (apt-get install qemu-user-static)"
  return 1
}

if [ "$(go env GOARCH)" = amd64 ] && need qemu-x86_64-static; then
  for cpu in Haswell Nehalem; do
    step "amd64 on an emulated $cpu (go test -short)"
    go test -short -exec "qemu-x86_64-static -cpu $cpu" .
  done
fi

if need qemu-aarch64-static; then
  step "arm64 with NEON under emulation (go test -short)"
  GOARCH=arm64 go test -short -exec qemu-aarch64-static ./...
  step "arm64 purego under emulation"
  GOARCH=arm64 go test -short -tags purego -exec qemu-aarch64-static .
fi

echo
echo "all tests passed"
