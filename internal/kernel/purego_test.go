//go:build purego

package kernel

const purego = true
