// Command aisle is the single binary of Aisle: each subcommand is one component.
package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "aisle:", err)
		os.Exit(1)
	}
}
