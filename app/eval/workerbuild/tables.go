package workerbuild

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"trestle/app/eval/evalworker"
	"trestle/app/task"
)

// Symbol tables: the generator (evalgen, yaegi's extract), the standard
// library's tables once per toolchain, the dependencies' per build, and
// the worker loop's module.

// dropBadStdTables removes the standard library tables (in their cache
// folder) that compile problems point at, and returns their names.
func dropBadStdTables(problems []task.Problem, stdDir string) []string {
	var dropped []string
	for _, p := range problems {
		base := filepath.Base(p.Path)
		if base == "zz_symbols.go" || !strings.HasPrefix(p.Path, stdDir+string(filepath.Separator)) {
			continue
		}
		if os.Remove(filepath.Join(stdDir, base)) == nil {
			dropped = append(dropped, strings.TrimSuffix(base, ".go"))
		}
	}
	slices.Sort(dropped)
	return slices.Compact(dropped)
}

// tables runs the generator for paths with dir as the working folder and
// writes the tables into out.
func (b *build) tables(ctx context.Context, gen, out, pkg, dir string, paths []string, goflags ...string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	if len(paths) == 0 {
		return nil
	}
	args := []string{"-pkg", pkg, "-out", out, "-j", "2"}
	if len(b.o.Tags) > 0 {
		args = append(args, "-tags", strings.Join(b.o.Tags, ","))
	}
	cmd := buildCommand(ctx, gen, append(args, paths...)...)
	cmd.Dir, cmd.Env = dir, b.o.environ(goflags...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("build the native evaluator: %w", err)
	}
	var stderr tailBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("build the native evaluator: start the table generator: %w", err)
	}
	lower(cmd)
	sc := bufio.NewScanner(stdout)
	done := 0
	for sc.Scan() {
		done++
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "skip "); ok {
			b.skipped = append(b.skipped, rest)
		}
		b.progress(Event{Phase: PhaseTables, Message: "symbol table " + strings.TrimPrefix(line, "ok "), Done: done, Total: len(paths)})
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("build the native evaluator: the table generator failed: %v: %s", err, stderr.String())
	}
	return nil
}

// loopModule writes the worker loop's module (evalworker's own source)
// into the cache, once per version of that source.
func (b *build) loopModule() (string, error) {
	dir := filepath.Join(b.cache, "src", "evalworker-"+loopHash()[:16])
	return dir, writeOnce(dir, func(tmp string) error {
		entries, err := fs.ReadDir(evalworker.Source, ".")
		if err != nil {
			return err
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			data, err := fs.ReadFile(evalworker.Source, e.Name())
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(tmp, e.Name()), data, 0o644); err != nil {
				return err
			}
		}
		mod := "module " + loopModule + "\n\ngo 1.22\n\nrequire " + yaegiPath + " " + yaegiVersion + "\n"
		if err := os.WriteFile(filepath.Join(tmp, "go.mod"), []byte(mod), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "go.sum"), []byte(yaegiSum), 0o644)
	})
}

// stdModule generates the standard library's tables, once per toolchain.
func (b *build) stdModule(ctx context.Context, gen string) (string, error) {
	dir := filepath.Join(b.cache, "src", "evalstd-"+b.tc.GOVERSION+"-"+b.tc.GOOS+"_"+b.tc.GOARCH+"-"+hashBytes([]byte(genHash() + stdSymbolsFile + b.tc.settings()))[:12])
	return dir, writeOnce(dir, func(tmp string) error {
		paths, err := stdPackages(ctx, b.o)
		if err != nil {
			return err
		}
		if err := b.tables(ctx, gen, tmp, "evalstd", tmp, paths); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(tmp, "zz_symbols.go"), []byte(stdSymbolsFile), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(tmp, "go.mod"), []byte("module "+stdModule+"\n\ngo 1.22\n"), 0o644)
	})
}

// stdPackages lists the standard library packages a program may import.
func stdPackages(ctx context.Context, o Options) ([]string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "std")
	cmd.Env = o.environ()
	cmd.Dir = os.TempDir() // outside any module: std only
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the standard library (go list std): %w", err)
	}
	var paths []string
	for _, p := range strings.Fields(string(out)) {
		if stdWanted(p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// stdWanted leaves out what no program imports or what cannot be linked
// into an ordinary binary.
func stdWanted(p string) bool {
	if strings.Contains(p, "internal") || strings.HasPrefix(p, "vendor/") || strings.HasPrefix(p, "cmd/") {
		return false
	}
	switch p {
	case "unsafe", "C", "syscall/js", "runtime/cgo", "runtime/race", "runtime/msan", "runtime/asan", "plugin", "builtin":
		return false
	}
	return !strings.HasPrefix(p, "simd")
}
