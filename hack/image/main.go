// Command image builds Aisle's container image as an OCI archive, with no Docker daemon:
// one layer holding the static aisle binary, a passwd entry for the non-root user 65532,
// the CA certificates of the build machine and an empty /tmp. `make image` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
)

func main() {
	var o Options
	flag.StringVar(&o.Binary, "binary", "", "path of the static linux aisle binary")
	flag.StringVar(&o.Tag, "tag", "aisle:dev", "image reference recorded in the archive")
	flag.StringVar(&o.Version, "version", "dev", "version label")
	flag.StringVar(&o.Revision, "revision", "", "source revision label")
	flag.StringVar(&o.CACerts, "ca-certs", "/etc/ssl/certs/ca-certificates.crt", "CA bundle copied into the image")
	flag.StringVar(&o.Arch, "arch", runtime.GOARCH, "architecture of the binary")
	out := flag.String("out", "", "path of the OCI archive to write")
	flag.Parse()
	if o.Binary == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "image: --binary and --out are required")
		os.Exit(2)
	}
	if err := WriteArchive(o, *out); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s (%s)\n", *out, o.Tag)
}
