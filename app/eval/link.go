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

// linkPlan returns the selection's plan, making one (go list: a second or
// two) when the input imports a package of the project and no build has
// made a plan yet or the one it made does not know that package; nil when
// there is none to be had.
func (m *Manager) linkPlan(ctx context.Context, name string, paths []string) *workerbuild.Plan {
	ns := m.native(name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if m.opts.Module == "" {
		return plan
	}
	inProject := func(p string) bool { return p == m.opts.Module || strings.HasPrefix(p, m.opts.Module+"/") }
	// A plan some build left behind does not know a package written since
	// (a rebuild under way has not made its plan yet): plan again then.
	unknown := func(p string) bool {
		return inProject(p) && !slices.ContainsFunc(plan.Packages, func(pkg workerbuild.Package) bool { return pkg.Path == p })
	}
	if plan != nil && !slices.ContainsFunc(paths, unknown) {
		return plan
	}
	if !slices.ContainsFunc(paths, inProject) {
		return plan
	}
	fresh, err := workerbuild.MakePlan(ctx, m.buildOptions(name))
	if err != nil {
		return plan
	}
	ns.mu.Lock()
	if ns.plan == plan {
		ns.plan = fresh
	}
	ns.mu.Unlock()
	return fresh
}

// ensureLinked returns the worker to evaluate code in: p, or, when code
// (or the selection's preload) imports native project packages p does not
// link, a native worker that links them too, with p's state replayed.
// It is called with the selection's turn held.
func (m *Manager) ensureLinked(ctx context.Context, s *slot, p *process, code string) (*process, []string, error) {
	if p.bin == "" {
		return p, nil, nil // the fallback interprets every project package
	}
	m.mu.Lock()
	preload := m.opts.Selections[s.name].Preload
	m.mu.Unlock()
	paths := append(importsOf(code), preload...)
	if len(paths) == 0 {
		return p, nil, nil
	}
	plan := m.linkPlan(ctx, s.name, paths)
	if plan == nil {
		return p, nil, nil
	}
	need := plan.OnImport(paths)
	var missing []string
	for _, path := range need {
		// What the worker was built to link, not what it reports linked:
		// a package whose table was left out (partialNotes) stays out.
		if !slices.Contains(p.link, path) {
			missing = append(missing, path)
		}
	}
	if len(missing) == 0 {
		return p, nil, nil
	}
	if msg := m.untrustedNative(missing[0]); msg != "" {
		return p, nil, fmt.Errorf("evaluate in selection %q: %s", s.name, msg)
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
		return p, []string{fmt.Sprintf("%s could not be linked into the native evaluator (%s); this evaluator interprets it from source, which may fail", strings.Join(missing, ", "), shortCause(err))}, nil
	}
	history := m.retire(s, p)
	next, notes, err := m.startWorker(ctx, s.name, bin)
	notes = append(partialNotes(skipped), notes...)
	if err == nil {
		next.link, next.base, next.skipped = link, p.bin, skipped
		if len(p.link) > 0 {
			next.base = p.base
		}
		notes = append(notes, fmt.Sprintf("linked %s natively for this input (a project package's init runs only when an input imports it)", strings.Join(missing, ", ")))
	} else {
		notes = append(notes, fmt.Sprintf("the native evaluator that links %s did not start (%v)", strings.Join(missing, ", "), err))
		var more []string
		if next, more, err = m.start(ctx, s.name); err != nil {
			s.keepLost(history)
			return nil, append(notes, more...), fmt.Errorf("evaluate in selection %q: %w", s.name, err)
		}
		notes = append(notes, more...)
	}
	return next, append(notes, m.takeOver(ctx, s, next, history)...), nil
}

// linkedBinary returns the native worker built with link, building it
// (cached per set, like the selection's own) and waiting up to ctx.
func (m *Manager) linkedBinary(ctx context.Context, name string, plan *workerbuild.Plan, link []string) (string, []string, error) {
	o := m.buildOptions(name)
	o.Link = link
	m.setActivity(name, "building a native evaluator that links "+strings.Join(link, ", "))
	defer m.setActivity(name, "")
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
	base, notes := m.nativeBinary(ctx, name) // waits for the selection's build as start does
	ns := m.native(name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if base != "" && plan != nil {
		bin, skipped, err := m.linkedBinary(ctx, name, plan, link)
		if err == nil {
			p, more, err := m.startWorker(ctx, name, bin)
			if err == nil {
				p.link, p.base, p.skipped = link, base, skipped
				return p, append(append(notes, partialNotes(skipped)...), more...), nil
			}
		}
	}
	return m.start(ctx, name)
}

// preloadLink is the project's native packages the selection's preload
// needs: a fresh worker links them from the start, so that the preload
// does not import them interpreted first.
func (m *Manager) preloadLink(ctx context.Context, name string) []string {
	if !m.opts.Native {
		return nil
	}
	m.mu.Lock()
	preload := m.opts.Selections[name].Preload
	m.mu.Unlock()
	if len(preload) == 0 {
		return nil
	}
	if plan := m.linkPlan(ctx, name, preload); plan != nil {
		return plan.OnImport(preload)
	}
	return nil
}
