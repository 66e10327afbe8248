//go:build purego

package quiver

// puregoBuild says whether the tests were built with -tags purego.
const puregoBuild = true
