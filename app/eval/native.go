package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"trestle/app/eval/workerbuild"
)

// BuildEvent is one step of a selection's native worker build, for the
// status bar and trestle_eval's progress notifications.
type BuildEvent struct {
	Selection string
	workerbuild.Event
}

// Describe says where a build is, for a status bar or a progress
// notification: "native build ready", "building (symbol tables 3/170)".
func (e BuildEvent) Describe() string {
	switch e.Phase {
	case workerbuild.PhaseReady:
		return "native build ready"
	case workerbuild.PhaseFailed:
		if e.Message == "" {
			return "native build failed"
		}
		msg := e.Message // one line already (BuildError.Short, shortCause)
		if len(msg) > 120 {
			msg = msg[:120] + "…"
		}
		return "native build failed: " + msg
	case workerbuild.PhaseTables:
		if e.Total > 0 {
			return fmt.Sprintf("building (symbol tables %d/%d)", e.Done, e.Total)
		}
		return "building (symbol tables)"
	case workerbuild.PhaseCompile:
		return fmt.Sprintf("building (compiled %d packages)", e.Done)
	}
	return "building"
}

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

// progressText says where a build is, for notes: "symbol tables 40/174".
func progressText(e workerbuild.Event) string {
	switch {
	case e.Phase == "":
		return "starting"
	case e.Total > 0:
		return fmt.Sprintf("%s %d/%d", e.Phase, e.Done, e.Total)
	case e.Done > 0:
		return fmt.Sprintf("%s, %d packages so far", e.Phase, e.Done)
	}
	return e.Phase
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
	o := m.buildOptions(name)
	sum := modSum(m.opts.Root)
	ns.mu.Lock()
	ns.modSum = sum
	ns.mu.Unlock()
	emit := func(e workerbuild.Event) {
		ns.mu.Lock()
		ns.last = e
		ns.mu.Unlock()
		m.emit(BuildEvent{Selection: name, Event: e})
	}
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

// Subscribe calls fn with every build event of every selection until the
// returned function is called. fn runs on the building goroutine and must
// not block. Once Close has begun no new event is delivered, and when
// Close returns no call is running. Safe for concurrent use.
func (m *Manager) Subscribe(fn func(BuildEvent)) (cancel func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.subSeq++
	id := m.subSeq
	if m.subs == nil {
		m.subs = map[int]func(BuildEvent){}
	}
	m.subs[id] = fn
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.subs, id)
	}
}

func (m *Manager) emit(e BuildEvent) {
	m.mu.Lock()
	if m.closed { // Close has begun: nobody is told about builds any more
		m.mu.Unlock()
		return
	}
	fns := make([]func(BuildEvent), 0, len(m.subs)+1)
	if m.opts.OnBuild != nil {
		fns = append(fns, m.opts.OnBuild)
	}
	for _, fn := range m.subs {
		fns = append(fns, fn)
	}
	m.mu.Unlock()
	for _, fn := range fns {
		fn(e)
	}
}

// WaitBuild waits until the selection's native worker build in progress,
// if any, ends, or ctx is done; it returns the build's error. It starts no
// build. Safe for concurrent use.
func (m *Manager) WaitBuild(ctx context.Context, selection string) error {
	name := selection
	if name == "" {
		name = "default"
	}
	ns := m.native(name)
	ns.mu.Lock()
	done := ns.building
	ns.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	ns.mu.Lock()
	defer ns.mu.Unlock()
	return ns.err
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

// dropNative forgets a native worker binary that did not start.
func (m *Manager) dropNative(name, bin string) {
	ns := m.native(name)
	ns.mu.Lock()
	if ns.ready == bin {
		ns.ready = ""
	}
	ns.mu.Unlock()
	if m.loadRecord(name).Binary == bin {
		os.Remove(m.recordPath(name))
	}
}

// record is the last native worker built for a project selection, so that
// the next start of Trestle starts it at once.
type record struct {
	Binary  string            `json:"binary"`
	Compile map[string]string `json:"compile,omitempty"` // nativeSlot.compile
	// Sources are the folder and source hash of each package of Compile
	// when the interpreter failed on it: the choice is kept for the next
	// start only while the source is the same (an edit may well have
	// removed what yaegi could not run).
	Sources map[string]compiledSource `json:"sources,omitempty"`
}

// compiledSource is a package's folder and the hash of its Go files.
type compiledSource struct {
	Dir string `json:"dir"`
	Sum string `json:"sum"`
}

// stillFailing is Compile without the packages whose source changed since
// the failure (or that the record cannot vouch for).
func (r record) stillFailing() map[string]string {
	out := map[string]string{}
	for path, why := range r.Compile {
		if src, ok := r.Sources[path]; ok && src.Dir != "" && sourceSum(src.Dir) == src.Sum {
			out[path] = why
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sourceSum hashes the Go files of a folder (names and contents).
func sourceSum(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s %x\x00", e.Name(), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (m *Manager) recordPath(name string) string {
	dir := m.opts.CacheDir
	if dir == "" {
		var err error
		if dir, err = workerbuild.DefaultCacheDir(); err != nil {
			return ""
		}
	}
	sum := sha256.Sum256([]byte(m.opts.Root + "\x00" + name))
	return filepath.Join(dir, "selections", hex.EncodeToString(sum[:12])+".json")
}

func (m *Manager) loadRecord(name string) record {
	path := m.recordPath(name)
	if path == "" {
		return record{}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return record{}
	}
	var r record
	if json.Unmarshal(data, &r) != nil {
		return record{}
	}
	if info, err := os.Stat(r.Binary); err != nil || !info.Mode().IsRegular() {
		r.Binary = ""
	}
	return r
}

func (m *Manager) saveRecord(name, bin string) {
	path := m.recordPath(name)
	if path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	ns := m.native(name)
	ns.mu.Lock()
	r := record{Binary: bin, Compile: ns.compile, Sources: map[string]compiledSource{}}
	for path := range ns.compile {
		if ns.plan == nil {
			break
		}
		for _, p := range ns.plan.Packages {
			if p.Path == path && p.Dir != "" {
				r.Sources[path] = compiledSource{Dir: p.Dir, Sum: sourceSum(p.Dir)}
			}
		}
	}
	data, _ := json.Marshal(r)
	ns.mu.Unlock()
	tmp := path + ".tmp-" + strings.ReplaceAll(fmt.Sprint(time.Now().UnixNano()), "-", "")
	if os.WriteFile(tmp, data, 0o644) == nil {
		if os.Rename(tmp, path) != nil {
			os.Remove(tmp)
		}
	}
}

// buildFailedNote says in one line that the selection's native build
// failed and why (the cause's last lines), for every answer the fallback
// gives meanwhile.
func buildFailedNote(err error) string {
	return "native build failed: " + shortCause(err) + "; yaegi's interpreter (go1.22 standard library, dependencies from source) serves instead"
}

// partialNotes says, one line each, which packages a native build left
// out (their tables did not compile or link) and how they are served.
func partialNotes(skipped []string) []string {
	var out []string
	for _, s := range skipped {
		if strings.Contains(s, "did not compile") || strings.Contains(s, "did not link") {
			out = append(out, "partial native build: "+s)
		}
	}
	return out
}

// failedBuildNote is buildFailedNote for an answer of the fallback while
// the selection's last native build failed, "" otherwise.
func (m *Manager) failedBuildNote(name string, p *process) string {
	if !m.opts.Native || p == nil || p.bin != "" {
		return ""
	}
	ns := m.native(name)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.err == nil || ns.building != nil {
		return ""
	}
	return buildFailedNote(ns.err)
}
