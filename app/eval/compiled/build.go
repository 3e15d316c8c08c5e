package compiled

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// compileError is one line of the compiler's output: file:line:col: msg.
type compileError struct {
	file      string
	line, col int
	msg       string
}

// build generates the program and runs `go build -overlay` in the project
// root, rebuilding (at most maxBuilds times) when an error is one of ours
// rather than the person's: an import the compiler says is unused is
// dropped; a last expression without a value is run as a statement; an
// undefined name while imports were left out by their guessed name means
// the guess was wrong, so every import is kept. It returns the binary, or
// the problem in the person's terms.
func (s *Session) build(ctx context.Context, dir string, set declSet, known []importDecl, in *input) (string, string, error) {
	if !inModule(s.opts.Root) {
		return "", "", fmt.Errorf("compiled evaluation needs the project to be in a Go module: no go.mod in the project folder or above it")
	}
	if _, err := os.Stat(filepath.Join(s.opts.Root, pkgDir)); err == nil {
		return "", "", fmt.Errorf("compiled evaluation: the project has a folder %s, where the generated program would go; rename it", pkgDir)
	}
	o := genOptions{drop: map[string]bool{}, version: toolchainVersion(s.opts.GoCommand)}
	var last []compileError
	var raw string
	for range maxBuilds {
		src := generate(set, known, in, o)
		bin, out, err := s.goBuild(ctx, dir, src)
		if err != nil || bin != "" {
			return bin, "", err
		}
		last, raw = parseBuildOutput(out), out
		if !adjust(&o, last, in, prunedAny(set, in, o), usedQualifiers(set, in)) {
			break
		}
	}
	return "", describeErrors(last, raw), nil
}

// adjust changes o for a rebuild when an error is the generator's; it
// reports whether it changed anything. pruned says an import was left out
// as unused; quals are the names used as qualifiers.
func adjust(o *genOptions, errs []compileError, in *input, pruned bool, quals map[string]bool) bool {
	changed := false
	for _, e := range errs {
		switch {
		case strings.Contains(e.msg, "imported and not used"):
			if path, ok := quotedPath(e.msg); ok && !o.drop[path] {
				o.drop[path], changed = true, true
			}
		case strings.Contains(e.msg, "used as value") && e.file == inputFile && !o.noShow && isLastStmt(in, e.line):
			o.noShow, changed = true, true
		case strings.HasPrefix(e.msg, "undefined: ") && !o.allImports && pruned && quals[strings.TrimPrefix(e.msg, "undefined: ")]:
			o.allImports, changed = true, true
		}
	}
	return changed
}

// prunedAny reports whether generate leaves out an import by its guessed
// name (a wrong guess shows as an undefined qualifier).
func prunedAny(set declSet, in *input, o genOptions) bool {
	used := usedQualifiers(set, in)
	for _, imp := range set.imports {
		if !keepImport(imp, used, o) && !o.drop[imp.path] {
			return true
		}
	}
	return false
}

func isLastStmt(in *input, line int) bool {
	if len(in.stmts) == 0 {
		return false
	}
	st := in.stmts[len(in.stmts)-1]
	return line >= st.line && line <= st.line+strings.Count(st.src, "\n")
}

// inModule reports whether dir or a folder above it has a go.mod.
func inModule(dir string) bool {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return false
		}
		dir = parent
	}
}

// quotedPath is the first "quoted" string of msg.
func quotedPath(msg string) (string, bool) {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(msg[i+1:], '"')
	if j < 0 {
		return "", false
	}
	return msg[i+1 : i+1+j], true
}

// goBuild writes src and the overlay and builds. It returns the binary's
// path when the build succeeded, else the compiler's output.
func (s *Session) goBuild(ctx context.Context, dir, src string) (string, string, error) {
	main := filepath.Join(dir, "main.go")
	if err := os.WriteFile(main, []byte(src), 0o600); err != nil {
		return "", "", fmt.Errorf("compiled evaluation: %w", err)
	}
	target := filepath.Join(s.opts.Root, pkgDir, "main.go")
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {target: main}})
	ovFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(ovFile, overlay, 0o600); err != nil {
		return "", "", fmt.Errorf("compiled evaluation: %w", err)
	}
	bin := filepath.Join(dir, "program")
	args := []string{"build", "-overlay", ovFile, "-buildvcs=false", "-o", bin}
	if len(s.opts.Tags) > 0 {
		args = append(args, "-tags", strings.Join(s.opts.Tags, ","))
	}
	ctx, cancel := context.WithTimeout(ctx, BuildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.opts.GoCommand, append(args, "./"+pkgDir)...)
	cmd.Dir = s.opts.Root
	cmd.Env = s.env()
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return bin, "", nil
	case ctx.Err() != nil:
		return "", fmt.Sprintf("the build did not finish: %v", context.Cause(ctx)), nil
	case errors.As(err, &exit):
		return "", string(out), nil
	}
	return "", "", fmt.Errorf("compiled evaluation: run %s build: %w", s.opts.GoCommand, err)
}

// parseBuildOutput picks the file:line:col: msg lines of go build's output.
func parseBuildOutput(out string) []compileError {
	var errs []compileError
	for _, l := range strings.Split(out, "\n") {
		if e, ok := parseErrorLine(l); ok {
			errs = append(errs, e)
		}
	}
	return errs
}

func parseErrorLine(l string) (compileError, bool) {
	parts := strings.SplitN(l, ":", 4)
	if len(parts) != 4 {
		return compileError{}, false
	}
	line, err1 := strconv.Atoi(parts[1])
	col, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil {
		return compileError{}, false
	}
	return compileError{file: parts[0], line: line, col: col, msg: strings.TrimSpace(parts[3])}, true
}

// describeErrors renders the errors for the person: the input's own as
// line:col (as the interpreter's errors read), an earlier compiled input's
// naming it, anything else (a project file, the go command) as it came.
func describeErrors(errs []compileError, raw string) string {
	if len(errs) == 0 {
		return strings.TrimSpace(dropHeaders(raw))
	}
	var lines []string
	hint := false
	for _, e := range errs {
		switch {
		case e.file == inputFile:
			lines = append(lines, fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg))
			hint = hint || strings.HasPrefix(e.msg, "undefined: ")
		case strings.HasPrefix(e.file, "earlier-input-"):
			lines = append(lines, fmt.Sprintf("in %s, which ran again to rebuild the state this input uses, %d:%d: %s (restart the evaluator to forget it)",
				strings.ReplaceAll(e.file, "-", " "), e.line, e.col, e.msg))
		case strings.HasPrefix(e.file, "compiled-input-"):
			lines = append(lines, fmt.Sprintf("in a declaration kept from %s, %d:%d: %s (redefine it, or restart the evaluator to forget it)",
				strings.ReplaceAll(e.file, "-", " "), e.line, e.col, e.msg))
		default:
			lines = append(lines, fmt.Sprintf("%s:%d:%d: %s", e.file, e.line, e.col, e.msg))
		}
	}
	if hint {
		lines = append(lines, "(this input ran compiled; it sees what earlier inputs that ran without error defined, by running them again first, and nothing of an input that failed)")
	}
	return strings.Join(lines, "\n")
}

func dropHeaders(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.HasPrefix(l, "# ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
