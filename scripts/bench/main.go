package main

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"time"
)

func main() {
	doc := flag.String("doc", "docs/performance.md", "the file whose marked section gets the table")
	dry := flag.Bool("n", false, "print the table but leave the doc alone")
	only := flag.String("only", "", "run only the rows whose figure matches this regexp (e.g. 'tools/list'), with their baselines; prints them and leaves the doc alone")
	flag.Parse()

	rows, runs := rows, runs
	if *only != "" {
		var err error
		if rows, runs, err = onlyRows(*only); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		*dry = true
	}
	start := time.Now()
	results, failed := runAll(runs, os.Stderr)
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

// onlyRows is the rows whose label matches the regexp expr and the runs
// that measure them.
func onlyRows(expr string) ([]row, []run, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, nil, fmt.Errorf("-only: %w", err)
	}
	picked := selectRows(rows, re)
	if len(picked) == 0 {
		return nil, nil, fmt.Errorf("-only %q matches no row's figure (they are the first column of the table in docs/performance.md)", expr)
	}
	defined, err := benchmarksByPackage(".")
	if err != nil {
		return nil, nil, fmt.Errorf("-only: find the benchmarks (run from the repository root): %w", err)
	}
	return picked, runsFor(picked, runs, defined), nil
}
