package eval

import (
	"context"
	"fmt"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"

	"trestle/app/eval/evalworker"
	"trestle/app/eval/workerbuild"
)

// The project's native packages are linked on import. Linking a package
// into a Go program runs its init when the program starts, so a native
// worker that linked every native package of the project (those using
// unsafe, assembly, cgo) would run all their init code on `1+1`. Instead
// the selection's worker links the standard library and the dependencies,
// and an input that imports a native project package (directly or through
// the project's interpreted packages) is served by a worker built with it
// linked in (workerbuild.Options.Link, cached per set like any build):
// before the input runs, that worker starts and the state-defining inputs
// of the one it replaces run again in it, in order, so that the person's
// state survives the switch.

// importsOf lists the import paths an input imports ("" when it does not
// parse).
func importsOf(code string) []string {
	pieces, err := evalworker.ScanInput(code)
	if err != nil {
		return nil
	}
	var paths []string
	for _, p := range pieces {
		if p.Kind != evalworker.PieceImport {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "input", "package p\n"+code[p.Start:p.End], parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, is := range f.Imports {
			if path, err := strconv.Unquote(is.Path.Value); err == nil {
				paths = append(paths, path)
			}
		}
	}
	return paths
}

// linkPlan returns the selection's plan, making one when no build has yet
// (go list: a second or two) if the input imports a package of the
// project, nil when there is none to be had.
func (m *Manager) linkPlan(ctx context.Context, name string, paths []string) *workerbuild.Plan {
	ns := m.native(name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if plan != nil || m.opts.Module == "" {
		return plan
	}
	if !slices.ContainsFunc(paths, func(p string) bool { return p == m.opts.Module || strings.HasPrefix(p, m.opts.Module+"/") }) {
		return nil
	}
	plan, err := workerbuild.MakePlan(ctx, m.buildOptions(name))
	if err != nil {
		return nil
	}
	ns.mu.Lock()
	if ns.plan == nil {
		ns.plan = plan
	}
	ns.mu.Unlock()
	return plan
}

// ensureLinked returns the worker to evaluate code in: p, or, when code
// (or the selection's preload) imports native project packages p does not
// link, a native worker that links them too, with p's state replayed.
// It is called with the selection's turn held.
func (m *Manager) ensureLinked(ctx context.Context, s *slot, p *process, code string) (*process, []string) {
	if p.bin == "" {
		return p, nil // the fallback interprets every project package
	}
	m.mu.Lock()
	preload := m.opts.Selections[s.name].Preload
	m.mu.Unlock()
	paths := append(importsOf(code), preload...)
	if len(paths) == 0 {
		return p, nil
	}
	plan := m.linkPlan(ctx, s.name, paths)
	if plan == nil {
		return p, nil
	}
	need := plan.OnImport(paths)
	var missing []string
	for _, path := range need {
		if !slices.Contains(p.native, path) {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return p, nil
	}
	link := slices.Clone(p.link)
	for _, path := range need {
		if !slices.Contains(link, path) {
			link = append(link, path)
		}
	}
	slices.Sort(link)
	bin, skipped, err := m.linkedBinary(ctx, s.name, plan, link)
	if err != nil {
		return p, []string{fmt.Sprintf("%s could not be linked into the native evaluator (%s); this evaluator interprets it from source, which may fail", strings.Join(missing, ", "), shortCause(err))}
	}
	next, notes, err := m.startWorker(ctx, s.name, bin)
	notes = append(partialNotes(skipped), notes...)
	if err != nil {
		return p, []string{fmt.Sprintf("the native evaluator that links %s did not start (%v); this evaluator interprets it from source, which may fail", strings.Join(missing, ", "), err)}
	}
	next.link, next.base = link, p.bin
	if len(p.link) > 0 {
		next.base = p.base
	}
	s.mu.Lock()
	history := slices.Clone(s.history)
	s.mu.Unlock()
	kept, replayNotes := replayInto(ctx, next, history)
	if kept == nil {
		m.closeLater(next)
		return p, replayNotes
	}
	s.mu.Lock()
	if s.proc == p {
		s.proc, s.history = next, kept
	}
	s.mu.Unlock()
	p.kill(reasonRestarted)
	m.closeLater(p)
	note := fmt.Sprintf("linked %s natively for this input (a project package's init runs only when an input imports it)", strings.Join(missing, ", "))
	if len(history) > 0 {
		note += fmt.Sprintf("; the %d earlier input(s) that defined state ran again in the new evaluator", len(history))
	}
	return next, append(append(notes, note), replayNotes...)
}

// replayInto runs history in a fresh worker, in order, and returns the
// inputs that defined state there; nil when the worker died.
func replayInto(ctx context.Context, p *process, history []string) ([]string, []string) {
	kept := []string{}
	var notes []string
	for i, code := range history {
		r, err := p.eval(ctx, code, DefaultTimeout)
		if err != nil {
			p.kill(reasonCancelled)
			return nil, []string{fmt.Sprintf("the native evaluator that links the input's packages died while earlier input %d of %d ran again in it (%v); this evaluator serves instead", i+1, len(history), err)}
		}
		if r.Error != "" {
			notes = append(notes, fmt.Sprintf("earlier input %d of %d failed when it ran again: %s", i+1, len(history), r.Error))
			continue
		}
		kept = append(kept, code)
	}
	return kept, notes
}

// linkedBinary returns the native worker built with link, building it
// (cached per set, like the selection's own) and waiting up to ctx.
func (m *Manager) linkedBinary(ctx context.Context, name string, plan *workerbuild.Plan, link []string) (string, []string, error) {
	o := m.buildOptions(name)
	o.Link = link
	res, err := workerbuild.Build(ctx, o, plan, func(e workerbuild.Event) {
		m.emit(BuildEvent{Selection: name, Event: e})
	})
	if err != nil {
		return "", nil, err
	}
	return res.Binary, res.Skipped, nil
}

// Initialises lists the project's packages (its module's, and folders
// that replace modules) that evaluating code in the selection imports,
// directly or through one another, so that their init code runs: the
// permission dialog names them. It may list the packages with go list (a
// second or two) when no native build has yet. Safe for concurrent use.
func (m *Manager) Initialises(ctx context.Context, selection, code string) []string {
	s, err := m.slot(selection)
	if err != nil {
		return nil
	}
	paths := importsOf(code)
	if plan := m.linkPlan(ctx, s.name, paths); plan != nil {
		return plan.Project(paths)
	}
	var out []string
	for _, p := range paths {
		if m.opts.Module != "" && (p == m.opts.Module || strings.HasPrefix(p, m.opts.Module+"/")) {
			out = append(out, p)
		}
	}
	return out
}

// startLinked starts a native worker built with link on the selection's
// current plan, or, when that fails, the selection's own worker.
func (m *Manager) startLinked(ctx context.Context, name string, link []string) (*process, []string, error) {
	ns := m.native(name)
	ns.mu.Lock()
	plan, base := ns.plan, ns.ready
	ns.mu.Unlock()
	if plan != nil && base != "" {
		bin, skipped, err := m.linkedBinary(ctx, name, plan, link)
		if err == nil {
			p, notes, err := m.startWorker(ctx, name, bin)
			if err == nil {
				p.link, p.base = link, base
				return p, append(partialNotes(skipped), notes...), nil
			}
		}
	}
	return m.start(ctx, name)
}
