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
//
// The packages' types come from the compiler's export data, which one
// `go list -export -deps` asks the go command for (compiled once into the
// Go build cache, where the worker's own go build then finds them), read
// by one importer shared by every package. Unpatched, extract type-checks
// each package and everything it imports from source, once per package:
// the standard library's tables took over a minute that way. The build
// compiles evalgen against a copy of extract whose Extract reads types
// through extract.Importer, with the tag evalgen_patched that compiles
// importer.go (see generator.go in trestle's workerbuild package).
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
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
	exports, err := listExports(*tags, flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "evalgen:", err)
		os.Exit(1)
	}
	if setImporter == nil {
		fmt.Fprintln(os.Stderr, "evalgen: built without the patched extract (tag evalgen_patched)")
		os.Exit(2)
	}
	setImporter(&sharedImporter{imp: importer.ForCompiler(token.NewFileSet(), "gc", exports.open)})
	paths := make(chan string)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(*jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				line := extractOne(*pkg, *out, p, exports)
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

// setImporter sets the importer extract reads packages with (importer.go).
var setImporter func(types.Importer)

// exportFiles maps import paths to their export data files, and says why
// a package has none.
type exportFiles struct {
	files  map[string]string
	errors map[string]string
}

// listExports asks the go command for the export data of paths and
// everything they import.
func listExports(tags string, paths []string) (*exportFiles, error) {
	e := &exportFiles{files: map[string]string{}, errors: map[string]string{}}
	if len(paths) == 0 {
		return e, nil
	}
	args := []string{"list", "-e", "-export", "-deps", "-json=ImportPath,Export,Error"}
	if tags != "" {
		args = append(args, "-tags="+tags)
	}
	cmd := exec.Command("go", append(args, paths...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Export string
			Error              *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			return e, nil
		} else if err != nil {
			return nil, fmt.Errorf("read go list's answer: %w", err)
		}
		switch {
		case p.Export != "":
			e.files[p.ImportPath] = p.Export
		case p.Error != nil:
			e.errors[p.ImportPath] = p.Error.Err
		default:
			e.errors[p.ImportPath] = "the go command made no export data for it"
		}
	}
}

// open is the importer's lookup: the export data of path.
func (e *exportFiles) open(path string) (io.ReadCloser, error) {
	if f, ok := e.files[path]; ok {
		return os.Open(f)
	}
	if why, ok := e.errors[path]; ok {
		return nil, errors.New(why)
	}
	return nil, fmt.Errorf("no export data for %s", path)
}

// sharedImporter lets the extracting goroutines share one importer (and
// so each package's types, read once), which is not safe for concurrent
// use by itself.
type sharedImporter struct {
	mu  sync.Mutex
	imp types.Importer
}

func (s *sharedImporter) Import(path string) (*types.Package, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.imp.Import(path)
}

// extractOne writes the table of one package and returns its status line.
func extractOne(pkg, out, path string, exports *exportFiles) string {
	if why, ok := exports.errors[path]; ok {
		return "skip " + path + ": " + strings.ReplaceAll(why, "\n", " ")
	}
	var buf bytes.Buffer
	e := extract.Extractor{Dest: pkg}
	if _, err := e.Extract(path, path, &buf); err != nil {
		return "skip " + path + ": " + strings.ReplaceAll(err.Error(), "\n", " ")
	}
	name := strings.NewReplacer("/", "_", ".", "_", "-", "_", "~", "_").Replace(path)
	if err := os.WriteFile(filepath.Join(out, name+".go"), staticTable(buf.Bytes(), name), 0o644); err != nil {
		return "skip " + path + ": " + err.Error()
	}
	return "ok " + path
}
