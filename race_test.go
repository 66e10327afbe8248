//go:build race

package quiver

const raceEnabled = true
