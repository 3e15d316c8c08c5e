package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	doc := flag.String("doc", "docs/performance.md", "the file whose marked section gets the table")
	dry := flag.Bool("n", false, "print the table but leave the doc alone")
	flag.Parse()

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
