package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	doc := flag.String("doc", "docs/performance.md", "the file whose marked section gets the table")
	dry := flag.Bool("n", false, "print the table but leave the doc alone")
	only := flag.String("only", "", "run only the groups whose benchmark pattern contains this (e.g. FirstUIAnswer); implies -n")
	flag.Parse()

	chosen := runs
	if *only != "" {
		chosen, *dry = runsWith(runs, *only), true
		if len(chosen) == 0 {
			fmt.Fprintf(os.Stderr, "bench: no benchmark group matches -only %q\n", *only)
			os.Exit(2)
		}
	}
	start := time.Now()
	results, failed := runAll(chosen, os.Stderr)
	table := renderTable(rows, results)
	section := fmt.Sprintf("%s\n%s", machine(time.Since(start)), table)
	fmt.Println(section)
	if failed != nil {
		fmt.Fprintf(os.Stderr, "bench: %v; %s left as it was\n", failed, *doc)
		os.Exit(1)
	}
	if *dry {
		return
	}
	if err := updateDoc(*doc, section); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "bench: updated %s\n", *doc)
}

// runsWith is the runs whose benchmark pattern contains part.
func runsWith(runs []run, part string) []run {
	var out []run
	for _, r := range runs {
		if strings.Contains(r.bench, part) {
			out = append(out, r)
		}
	}
	return out
}
