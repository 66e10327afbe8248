module github.com/quiverlabs/quiver

go 1.26.0

require (
	golang.org/x/exp v0.0.0-20261113113407-e3970619a1a4
	golang.org/x/sys v0.50.0
)
