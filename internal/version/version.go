// Package version holds the build identity of the aisle binary, stamped at link time.
package version

import "runtime/debug"

// Version is set with -ldflags "-X github.com/aislehq/aisle/internal/version.Version=...".
var Version = "dev"

// String returns the version, falling back to the module version recorded by the Go toolchain.
func String() string {
	if Version != "dev" {
		return Version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return Version
}
