package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"trestle/app/eval/workerbuild"
)

// What the evaluator tells about a selection's native build: its events
// (for the status bar and progress notifications), waiting for it, and
// the one-line notes an answer carries while it is building, failed or
// left packages out.

// Phases of a compiled input's build (route.go), beside workerbuild's:
// an input that runs compiled is built with `go build` first, which can
// take a minute cold; the caller hears it begin and end.
const (
	PhaseCompiledBuild = "compiled-build" // an input's program is being built
	PhaseCompiledBuilt = "compiled-built" // it is built (or failed to) and runs now
)

// compiledBuilding tells the selection's subscribers, and its status, that
// a compiled input's build began or ended.
func (m *Manager) compiledBuilding(name string, building bool) {
	e := BuildEvent{Selection: name, Event: workerbuild.Event{Phase: PhaseCompiledBuilt, Message: "the compiled input is built"}}
	if building {
		e.Event = workerbuild.Event{Phase: PhaseCompiledBuild, Message: "building the program of an input that runs compiled"}
	}
	activity := ""
	if building {
		activity = "building a compiled input"
	}
	m.setActivity(name, activity)
	m.emit(e)
}

// setActivity says what the selection's running evaluation waits for
// ("" for nothing), for Status.
func (m *Manager) setActivity(name, activity string) {
	m.mu.Lock()
	s := m.slots[name]
	m.mu.Unlock()
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.activity, s.activitySince = activity, time.Now()
}

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
	case PhaseCompiledBuild:
		return "building a compiled input…"
	case PhaseCompiledBuilt:
		return "running a compiled input"
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

// buildFailedNote says in one line that the selection's native build
// failed and why (the cause's last lines), for every answer the fallback
// gives meanwhile.
func buildFailedNote(err error) string {
	return "native build failed: " + shortCause(err) + "; yaegi's interpreter (go1.22 standard library, dependencies from source) serves instead"
}

// partialPrefix starts the note of an answer from a partial native build.
const partialPrefix = "partial native build: "

// partialNotes says in one line which packages a native build left out
// (their tables did not compile or link) and how they are served; nil
// when it left none out.
func partialNotes(skipped []string) []string {
	left := leftOut(skipped)
	if len(left) == 0 {
		return nil
	}
	return []string{partialPrefix + strings.Join(left, "; ")}
}

// leftOut are the entries of a build's Skipped that say a package's table
// did not compile or link (the others are packages no table is made for).
func leftOut(skipped []string) []string {
	var out []string
	for _, s := range skipped {
		if strings.Contains(s, "did not compile") || strings.Contains(s, "did not link") {
			out = append(out, s)
		}
	}
	return out
}

// notePartial puts the one-line partial build note of the worker p into
// res, once: every answer of a partial native worker says what it left
// out (Result.LeftOut has the same, for a status bar).
func notePartial(res *Result, p *process) {
	left := leftOut(p.skipped)
	if len(left) == 0 {
		return
	}
	res.LeftOut = left
	res.Notes = slices.DeleteFunc(res.Notes, func(n string) bool { return strings.HasPrefix(n, partialPrefix) })
	res.Notes = append(res.Notes, partialNotes(left)...)
}

// skippedBy is what the selection's build bin left out.
func (m *Manager) skippedBy(name, bin string) []string {
	ns := m.native(name)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	if ns.ready == bin && ns.skipped != nil {
		return slices.Clone(ns.skipped)
	}
	return workerbuild.ReadSkipped(bin)
}

// NativeState is where a selection's native worker build stands, for a
// status bar.
type NativeState struct {
	Building bool     // a build runs
	Step     string   // its latest step ("tables 40/174"), "" when none runs
	Failed   string   // the last build's failure in one line, "" when it did not fail
	Ready    bool     // a native worker is built
	LeftOut  []string // what the ready build left out (partial build), with why
}

// NativeState says where the selection's native build stands. It starts
// nothing. Safe for concurrent use.
func (m *Manager) NativeState(selection string) NativeState {
	name := selection
	if name == "" {
		name = "default"
	}
	ns := m.native(name)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	st := NativeState{Building: ns.building != nil, Ready: ns.ready != "", LeftOut: leftOut(ns.skipped)}
	if st.Building {
		st.Step = progressText(ns.last)
	}
	if ns.err != nil && !st.Building {
		st.Failed = shortCause(ns.err)
	}
	return st
}

// Summary says where the native build stands in one short line, for a
// status bar: "building native worker (tables 40/174)", "native worker
// ready", "partial native build: modernc.org/libc", "native build failed:
// <cause>"; "" before any build.
func (st NativeState) Summary() string {
	switch {
	case st.Building:
		return "building native worker (" + st.Step + ")"
	case st.Failed != "":
		msg := st.Failed // its end says what went wrong; its start, where
		if len(msg) > 120 {
			msg = "…" + strings.ToValidUTF8(msg[len(msg)-120:], "")
		}
		return "native build failed: " + msg
	case st.Ready && len(st.LeftOut) > 0:
		var pkgs []string
		for _, l := range st.LeftOut {
			pkg, _, _ := strings.Cut(l, ": ")
			pkgs = append(pkgs, pkg)
		}
		return partialPrefix + strings.Join(pkgs, ", ")
	case st.Ready:
		return "native worker ready"
	}
	return ""
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
