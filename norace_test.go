//go:build !race

package quiver

const raceEnabled = false
