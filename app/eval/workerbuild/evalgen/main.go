// Command evalgen writes yaegi symbol tables (github.com/traefik/yaegi/extract)
// for a list of packages. The evaluator's native worker build compiles it
// with the project's own toolchain and runs it in the project folder, so
// that the tables describe the standard library of that toolchain and the
// dependency versions of that module graph.
//
// Usage: evalgen -pkg NAME -out DIR [-tags a,b] [-j N] importpath...
//
// It writes DIR/<path>.go per package, one line "ok PATH" or "skip PATH:
// reason" per package on stdout as it goes, and never fails for one
// package: a package extract cannot read is skipped and said so.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/traefik/yaegi/extract"
)

func main() {
	pkg := flag.String("pkg", "", "package name of the generated files")
	out := flag.String("out", "", "folder to write to")
	tags := flag.String("tags", "", "comma-separated build tags")
	jobs := flag.Int("j", 2, "packages extracted at once")
	flag.Parse()
	if *pkg == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "evalgen: -pkg and -out are required")
		os.Exit(2)
	}
	if *tags != "" {
		build.Default.BuildTags = strings.Split(*tags, ",")
	}
	paths := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(*jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				line := extractOne(*pkg, *out, p)
				mu.Lock()
				fmt.Println(line)
				mu.Unlock()
			}
		}()
	}
	for _, p := range flag.Args() {
		paths <- p
	}
	close(paths)
	wg.Wait()
}

// extractOne writes the table of one package and returns its status line.
func extractOne(pkg, out, path string) string {
	var buf bytes.Buffer
	e := extract.Extractor{Dest: pkg}
	if _, err := e.Extract(path, path, &buf); err != nil {
		return "skip " + path + ": " + strings.ReplaceAll(err.Error(), "\n", " ")
	}
	name := strings.NewReplacer("/", "_", ".", "_", "-", "_", "~", "_").Replace(path) + ".go"
	if err := os.WriteFile(filepath.Join(out, name), buf.Bytes(), 0o644); err != nil {
		return "skip " + path + ": " + err.Error()
	}
	return "ok " + path
}
