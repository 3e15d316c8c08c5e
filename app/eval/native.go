package eval

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"trestle/app/eval/workerbuild"
)

// PackageInfo says how the evaluator serves one package of a selection.
type PackageInfo struct {
	Path   string `json:"path"`
	Mode   string `json:"mode"` // "native", "interpreted" or "none"
	Reason string `json:"reason"`
}

// nativeSlot is one selection's native worker build state.
type nativeSlot struct {
	mu       sync.Mutex
	ready    string // a worker binary to start, "" for none yet
	plan     *workerbuild.Plan
	building chan struct{} // closed when the running build ends; nil when none runs
	err      error         // the last build's failure
	skipped  []string
	last     workerbuild.Event // the running build's latest step
	modSum   string            // go.mod and go.sum as the last build began (modchange.go)
	// compile are the project packages the interpreter could not import,
	// with why: the next builds compile them in (compile.go). Kept in the
	// selection's record, so that the next start of Trestle has them.
	compile map[string]string
}

// native returns the selection's build state, creating it on first use.
func (m *Manager) native(name string) *nativeSlot {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.natives == nil {
		m.natives = map[string]*nativeSlot{}
	}
	ns := m.natives[name]
	if ns == nil {
		ns = &nativeSlot{}
		m.natives[name] = ns
	}
	return ns
}

// buildOptions is what a selection's worker is built for.
func (m *Manager) buildOptions(name string) workerbuild.Options {
	m.mu.Lock()
	sel := m.opts.Selections[name]
	m.mu.Unlock()
	ns := m.native(name)
	ns.mu.Lock()
	compile := maps.Clone(ns.compile)
	ns.mu.Unlock()
	return workerbuild.Options{Root: m.opts.Root, Module: m.opts.Module, Tags: sel.Tags, Env: sel.Env, CacheDir: m.opts.CacheDir, Compile: compile, Interpret: sel.Interpret}
}

// nativeBinary returns the native worker to start for the selection, or ""
// for the interpreter fallback, and notes saying why. It starts a
// background check (plan, and a build when the plan changed); with no
// worker built yet it waits for that build up to BuildWait or ctx, and with
// no BuildWait not at all: the fallback serves at once and Eval swaps to
// the native worker when it is ready and the fallback holds no state.
func (m *Manager) nativeBinary(ctx context.Context, name string) (string, []string) {
	if !m.opts.Native {
		return "", nil
	}
	ns := m.native(name)
	ns.mu.Lock()
	if ns.ready == "" {
		r := m.loadRecord(name)
		ns.ready = r.Binary
		if ns.compile == nil {
			ns.compile = r.stillFailing()
		}
	}
	ready, prevErr, skipped := ns.ready, ns.err, slices.Clone(ns.skipped)
	ns.mu.Unlock()
	done := m.refresh(name)
	if ready != "" {
		return ready, partialNotes(skipped)
	}
	wait := m.opts.BuildWait
	if wait <= 0 {
		if prevErr != nil {
			return "", []string{buildFailedNote(prevErr) + "; it is built again when the evaluator restarts"}
		}
		ns.mu.Lock()
		step := progressText(ns.last)
		ns.mu.Unlock()
		return "", []string{"the native evaluator is building in the background (" + step + "); until it is ready this evaluator interprets the dependencies and has yaegi's go1.22 standard library (packages using unsafe, assembly or cgo cannot be imported yet)"}
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	m.setActivity(name, "waiting for the native evaluator's build")
	defer m.setActivity(name, "")
	select {
	case <-done:
	case <-ctx.Done():
	case <-t.C:
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	switch {
	case ns.ready != "":
		return ns.ready, partialNotes(ns.skipped)
	case ns.err != nil:
		return "", []string{buildFailedNote(ns.err) + "; fix the problem and restart the evaluator"}
	}
	return "", []string{"the native evaluator is still building; this evaluator interprets the dependencies and has yaegi's go1.22 standard library until it is ready"}
}

// refresh plans the selection and builds its worker in the background
// unless a build is already running; the channel closes when it is done.
func (m *Manager) refresh(name string) <-chan struct{} {
	ns := m.native(name)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.building != nil {
		return ns.building
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		done := make(chan struct{})
		close(done)
		return done
	}
	if m.buildCtx == nil {
		m.buildCtx, m.buildCancel = context.WithCancel(context.Background())
	}
	ctx := m.buildCtx
	m.builds.Add(1)
	m.mu.Unlock()
	done := make(chan struct{})
	ns.building = done
	go func() {
		defer m.builds.Done()
		defer close(done)
		m.build(ctx, name, ns)
	}()
	return done
}

// build runs one plan and build for the selection.
func (m *Manager) build(ctx context.Context, name string, ns *nativeSlot) {
	m.swept.Do(m.sweepRecords)
	o := m.buildOptions(name)
	sum := modSum(m.opts.Root)
	ns.mu.Lock()
	ns.modSum = sum
	ns.mu.Unlock()
	// The build's last event (ready, failed) is told once the slot says
	// so too (NativeState, Status), after everything else below.
	var final *workerbuild.Event
	emit := func(e workerbuild.Event) {
		ns.mu.Lock()
		ns.last = e
		last := e.Phase == workerbuild.PhaseReady || e.Phase == workerbuild.PhaseFailed
		if last {
			final = &e
		}
		ns.mu.Unlock()
		if !last {
			m.emit(BuildEvent{Selection: name, Event: e})
		}
	}
	defer func() {
		ns.mu.Lock()
		e := final
		ns.mu.Unlock()
		if e != nil {
			m.emit(BuildEvent{Selection: name, Event: *e})
		}
	}()
	emit(workerbuild.Event{Phase: workerbuild.PhasePlan, Message: "listing the selection's packages"})
	plan, err := workerbuild.MakePlan(ctx, o)
	if err == nil {
		ns.mu.Lock()
		ns.plan = plan
		ns.mu.Unlock()
		var res workerbuild.Result
		res, err = workerbuild.Build(ctx, o, plan, emit)
		if err == nil {
			m.saveRecord(name, res.Binary)
			if res.Cached {
				emit(workerbuild.Event{Phase: workerbuild.PhaseReady, Message: "the native evaluator is ready (cached)"})
			}
		}
		ns.mu.Lock()
		if err == nil {
			ns.ready = res.Binary
		}
		ns.skipped = res.Skipped
		ns.mu.Unlock()
	}
	if err != nil {
		var be *workerbuild.BuildError
		if !errors.As(err, &be) && ctx.Err() == nil { // a build Close cancelled did not fail
			emit(workerbuild.Event{Phase: workerbuild.PhaseFailed, Message: shortCause(err)})
		}
	}
	ns.mu.Lock()
	ns.err, ns.building = err, nil
	ns.mu.Unlock()
}

// Packages says, for each package of the selection outside the standard
// library, whether its worker links it natively or interprets it, and why.
// It lists the packages (go list) when no build has yet. Safe for
// concurrent use; it may take a second.
func (m *Manager) Packages(ctx context.Context, selection string) ([]PackageInfo, error) {
	s, err := m.slot(selection)
	if err != nil {
		return nil, err
	}
	ns := m.native(s.name)
	ns.mu.Lock()
	plan := ns.plan
	ns.mu.Unlock()
	if plan == nil {
		if plan, err = workerbuild.MakePlan(ctx, m.buildOptions(s.name)); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	var running []string
	std := ""
	if s.proc != nil {
		running, std = s.proc.native, s.proc.std
	}
	s.mu.Unlock()
	out := make([]PackageInfo, 0, len(plan.Packages))
	for _, p := range plan.Packages {
		info := PackageInfo{Path: p.Path, Mode: p.Mode, Reason: p.Reason}
		if p.Mode == workerbuild.ModeNative && std != "" && !slices.Contains(running, p.Path) && !p.OnImport() {
			info.Mode = workerbuild.ModeInterpreted
			info.Reason = "interpreted by the running evaluator (" + std + "), which does not link it: " + p.Reason
		}
		out = append(out, info)
	}
	return out, nil
}
