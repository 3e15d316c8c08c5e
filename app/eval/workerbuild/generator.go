package workerbuild

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The symbol table generator, evalgen (see evalgen/main.go), is yaegi's
// extract with one change: extract.Extract imports the package through
// extract.Importer instead of a fresh source importer of its own.
// Unchanged, extract type-checks every package and all it imports from
// source once per package (the standard library's tables took about 70 s
// of a cold worker build that way); evalgen sets Importer to one importer
// of the compiler's export data, shared by every package. The change is
// made at build time in the generator's own cache folder: a module
// replacing yaegi that holds only the extract package (all evalgen
// imports), its extract.go copied from the module cache with the one line
// changed. Nothing is vendored into trestle, and patchExtract fails
// loudly when yaegi's source is not the one it expects. (An -overlay was
// the smaller change, but the go command refuses to overlay files in the
// module cache.)

// extractImportCall is the line of yaegi v0.16.1's extract.go that the
// overlay replaces, and extractImporter what replaces it.
const (
	extractImportCall  = `importer.ForCompiler(token.NewFileSet(), "source", nil).Import(pkgIdent)`
	extractImporter    = `Importer.Import(pkgIdent)`
	extractImporterVar = `

// Importer is how Extract reads a package's types (added by trestle's
// evaluator build: see its workerbuild/generator.go).
var Importer types.Importer = importer.ForCompiler(token.NewFileSet(), "source", nil)
`
)

// generator builds evalgen with the toolchain in use, once per toolchain.
func (b *build) generator(ctx context.Context) (string, error) {
	dir := filepath.Join(b.cache, "tools", "evalgen-"+b.tc.GOVERSION+"-"+b.tc.GOOS+"_"+b.tc.GOARCH+"-"+genHash()[:12])
	bin := filepath.Join(dir, "evalgen")
	if isFile(bin) {
		return bin, nil
	}
	b.progress(Event{Phase: PhaseTables, Message: "building the symbol table generator"})
	err := writeOnce(dir, func(tmp string) error {
		files := map[string]string{
			"main.go":     genSource,
			"importer.go": genImporter,
			"static.go":   genStatic,
			"go.mod": "module " + genModule + "\n\ngo 1.22\n\nrequire " + yaegiPath + " " + yaegiVersion + "\n\n" +
				"replace " + yaegiPath + " => ./yaegi\n",
		}
		for name, text := range files {
			if err := os.WriteFile(filepath.Join(tmp, name), []byte(text), 0o644); err != nil {
				return err
			}
		}
		if err := b.patchExtract(ctx, tmp); err != nil {
			return err
		}
		cmd := buildCommand(ctx, "go", "build", "-tags=evalgen_patched", "-o", "evalgen", ".")
		cmd.Dir, cmd.Env = tmp, b.o.environ("-mod=mod")
		var out tailBuffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			return fmt.Errorf("build the symbol table generator: %w", err)
		}
		lower(cmd)
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("build the symbol table generator: %v: %s", err, strings.TrimSpace(out.String()))
		}
		return nil
	})
	return bin, err
}

// patchExtract writes dir/yaegi, the module that replaces yaegi in
// evalgen's build: yaegi's go.mod and LICENSE, and extract/extract.go
// with Extract reading types through extract.Importer.
func (b *build) patchExtract(ctx context.Context, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", yaegiPath+"@"+yaegiVersion)
	cmd.Dir, cmd.Env = dir, b.o.environ()
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("build the symbol table generator: find %s %s in the module cache: %w", yaegiPath, yaegiVersion, err)
	}
	var mod struct{ Dir string }
	if err := json.Unmarshal(out, &mod); err != nil || mod.Dir == "" {
		return fmt.Errorf("build the symbol table generator: find %s %s in the module cache: go mod download said %q", yaegiPath, yaegiVersion, out)
	}
	src := filepath.Join(mod.Dir, "extract", "extract.go")
	data, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("build the symbol table generator: %w", err)
	}
	text := string(data)
	if strings.Count(text, extractImportCall) != 1 {
		return fmt.Errorf("build the symbol table generator: %s is not the source this build patches (it has no single %q); update workerbuild/generator.go for %s %s", src, extractImportCall, yaegiPath, yaegiVersion)
	}
	text = strings.Replace(text, extractImportCall, extractImporter, 1) + extractImporterVar
	license, err := os.ReadFile(filepath.Join(mod.Dir, "LICENSE"))
	if err != nil {
		return fmt.Errorf("build the symbol table generator: %w", err)
	}
	files := map[string]string{
		"go.mod":             "module " + yaegiPath + "\n\ngo 1.21\n",
		"LICENSE":            string(license),
		"extract/extract.go": text,
	}
	for name, text := range files {
		path := filepath.Join(dir, "yaegi", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("build the symbol table generator: %w", err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return fmt.Errorf("build the symbol table generator: %w", err)
		}
	}
	return nil
}
