// Command feedgen writes a sample Google Merchant Center feed (the project's sample for
// `aisle import --feed`): go run ./hack/feedgen -n 1000 > products.xml
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/aislehq/aisle/internal/feedsample"
)

func main() {
	n := flag.Int("n", 1000, "number of products")
	seed := flag.Uint64("seed", 1, "seed: the same seed gives the same feed")
	format := flag.String("format", "rss", "rss or tsv")
	flag.Parse()
	if err := write(*n, *seed, *format); err != nil {
		fmt.Fprintln(os.Stderr, "feedgen:", err)
		os.Exit(1)
	}
}

func write(n int, seed uint64, format string) error {
	out := bufio.NewWriter(os.Stdout)
	items := feedsample.Items(n, seed)
	var err error
	switch format {
	case "rss":
		err = feedsample.WriteRSS(out, items)
	case "tsv":
		err = feedsample.WriteTSV(out, items)
	default:
		return fmt.Errorf("format %q: rss or tsv", format)
	}
	if err != nil {
		return err
	}
	return out.Flush()
}
