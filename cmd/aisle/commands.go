package main

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/aislehq/aisle/internal/version"
)

// command is one subcommand of the aisle binary.
type command struct {
	summary string
	run     func(args []string) error
}

// commands lists the subcommands; each capability registers its own in an init function
// of its file, so this map only ever holds subcommands that do work.
var commands = map[string]command{
	"version": {summary: "print the version", run: func([]string) error {
		_, err := fmt.Fprintln(os.Stdout, version.String())
		return err
	}},
}

func run(args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		_, err := fmt.Fprint(os.Stdout, usage())
		return err
	}
	cmd, ok := commands[args[0]]
	if !ok {
		return fmt.Errorf("unknown command %q\n\n%s", args[0], usage())
	}
	return cmd.run(args[1:])
}

func usage() string {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("usage: aisle <command> [flags]\n\ncommands:\n")
	for _, name := range names {
		fmt.Fprintf(&b, "  %-10s %s\n", name, commands[name].summary)
	}
	return b.String()
}
