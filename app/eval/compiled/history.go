package compiled

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// State across compiled inputs. A compiled input is a program of its own,
// so the variables an earlier input's statements made (a := bank.New())
// and what later inputs did to them (a.Deposit(5)) are gone when it ends;
// the interpreter's variables were never in it. So that a compiled input
// sees the state the person built, whatever engine built it, the session
// keeps the inputs that ran without error, in order (history), and a
// compiled input that uses a variable of theirs runs first, in the same
// program, the earlier inputs that define or change what it uses, and,
// in turn, what those use (a backward slice over names: an input that
// redefines a name with := ends the search for that name). Their
// output is hidden, and the answer's note names them and warns that what
// they do besides (files, network, time) happens again, as Replay's does.
// Each replayed input's statements open a block that holds the next
// ones, so that a name defined again (x := 1, later x := "s") shadows the
// earlier one, as it does for the person; an interpreted input's
// declarations (func, var) come along at package level. A name a compiled
// input defined or used belongs to the compiled side from then on (its
// value may have changed there), so the inputs that use it run compiled
// too (Wants), until an interpreted input defines it again.

// maxHistory bounds the inputs kept for replay; older ones are forgotten
// (an input that needs one of them says undefined, as Go would).
const maxHistory = 500

// entry is one earlier input that ran without error.
type entry struct {
	n        int    // its number in the session's history, from 1
	summary  string // its first line, for notes
	compiled bool   // it ran compiled (its declarations are in the set)
	stmts    []stmtItem
	decls    []decl          // an interpreted input's declarations
	shown    bool            // its last expression had a value
	defines  []string        // names its statements, and an interpreted input's declarations, define
	refs     map[string]bool // every name it uses (over-approximated)
	// What it does to packages (pkgstate.go): the packages it names (and
	// those the inputs defining what it uses named), the standard
	// packages it changes, and whether it calls or assigns at all.
	named      []string
	changesStd []string
	acts       bool
	changed    map[string]bool // the packages whose state it may have changed
}

// replayed is what a compiled program runs again before the input.
type replayed struct {
	entries []*entry
	names   []string // the state names the input uses, for the note
	pkgs    []string // the packages whose state they changed, for the note
}

// newEntry makes the history entry of an input.
func newEntry(n int, code string, in *input, compiled, shown bool) *entry {
	e := &entry{n: n, compiled: compiled, stmts: in.stmts, shown: shown, refs: map[string]bool{}}
	first := code
	if len(in.stmts) > 0 {
		first = in.stmts[0].src
	}
	e.summary, _, _ = strings.Cut(strings.TrimSpace(first), "\n")
	if len(e.summary) > 48 {
		e.summary = e.summary[:48] + "…"
	}
	e.defines = definedNames(in)
	if !compiled {
		e.decls = in.decls
		for _, d := range in.decls {
			e.defines = append(e.defines, d.keys...)
		}
	}
	for _, n := range inputNodes(in) {
		quals, idents := namesIn(n)
		for q := range quals {
			e.refs[q] = true
		}
		for id := range idents {
			e.refs[id] = true
		}
	}
	return e
}

// record adds an input that ran without error to the history and gives
// the names it defined or used to its side. s.mu is held.
func (s *Session) record(code string, in *input, compiled, shown bool) {
	if len(in.stmts) == 0 && (compiled || len(in.decls) == 0) {
		return // a compiled input's declarations are in the set already
	}
	if len(in.decls) == 0 && inert(in.stmts) {
		return // it only looked: running it again changes nothing
	}
	s.seq++
	e := newEntry(s.seq, code, in, compiled, shown)
	s.notePackages(e, in)
	s.history = append(s.history, e)
	if len(s.history) > maxHistory {
		s.history = slices.Delete(s.history, 0, len(s.history)-maxHistory)
	}
	if s.owner == nil {
		s.owner = map[string]bool{}
	}
	state := s.stateNames()
	for _, name := range e.defines {
		s.owner[name] = compiled
	}
	if compiled { // what a compiled input used may have changed there
		for name := range e.refs {
			if state[name] {
				s.owner[name] = true
			}
		}
		for p := range e.changed { // and so may the packages it called into
			if s.ownedPkgs == nil {
				s.ownedPkgs = map[string]bool{}
			}
			s.ownedPkgs[p] = true
		}
	}
}

// inert reports whether statements only compute values: expressions
// without a call (which may change what it is called on) or a receive
// (which takes from a channel).
func inert(stmts []stmtItem) bool {
	for _, st := range stmts {
		es, ok := st.node.(*ast.ExprStmt)
		if !ok {
			return false
		}
		acts := false
		ast.Inspect(es.X, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				acts = true
			case *ast.UnaryExpr:
				acts = acts || n.Op == token.ARROW
			}
			return !acts
		})
		if acts {
			return false
		}
	}
	return true
}

// NoteInterpreted records an input the interpreter ran without error: its
// imports, so that a later compiled input can use the package without
// importing it again (they are not compiled state: a program includes one
// only when it uses it), and the input itself, which a later compiled
// input that uses what it defines runs again. shown says whether its last
// expression had a value. Safe for concurrent use.
func (s *Session) NoteInterpreted(code string, shown bool) {
	in, err := splitInput(code)
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, imp := range in.imports {
		s.known = append(removeLocal(s.known, imp.local()), imp)
	}
	s.blankTyped = s.blankTyped || blankAssigned(in, token.DEFINE)
	s.record(code, in, false, shown)
}

// ForgetInterpreted drops the interpreted inputs from the history: the
// interpreter's state is gone (its worker died or was killed), and a
// compiled input must not see what the interpreter no longer has. Safe
// for concurrent use.
func (s *Session) ForgetInterpreted() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.history = slices.DeleteFunc(s.history, func(e *entry) bool { return !e.compiled })
	s.blankTyped = false
	for name, compiled := range s.owner {
		if !compiled {
			delete(s.owner, name)
		}
	}
}

// stateNames are the names the history's inputs define, and the compiled
// set's vars (a var's value is made again by every run: what later inputs
// did to it must run again too). s.mu is held.
func (s *Session) stateNames() map[string]bool {
	state := map[string]bool{}
	for _, e := range s.history {
		for _, n := range e.defines {
			state[n] = true
		}
	}
	for _, d := range s.set.decls {
		if d.isVar {
			for _, k := range d.keys {
				state[k] = true
			}
		}
	}
	return state
}

// usedNames are the names an input uses, without those its own
// declarations declare (they are the package's, not the history's).
func usedNames(in *input) map[string]bool {
	used := map[string]bool{}
	for _, n := range inputNodes(in) {
		quals, idents := namesIn(n)
		for q := range quals {
			used[q] = true
		}
		for id := range idents {
			used[id] = true
		}
	}
	for _, d := range in.decls {
		for _, k := range d.keys {
			delete(used, k)
		}
	}
	return used
}

// replayFor picks, in order, the earlier inputs a compiled input needs run
// again: those that define or change a state name it uses, and, in turn,
// what they use (see above); and those that changed the state of a
// package the program reaches, and, in turn, of what those reach
// (pkgstate.go). s.mu is held.
func (s *Session) replayFor(in *input) replayed {
	state := s.stateNames()
	live := map[string]bool{}
	var r replayed
	needed := neededNames(in)
	for name := range needed {
		if state[name] {
			live[name] = true
			r.names = append(r.names, name)
		}
	}
	slices.Sort(r.names)
	reached := s.reach(s.programPackages(in, needed))
	pkgs := map[string]bool{}
	for i := len(s.history) - 1; i >= 0; i-- {
		e := s.history[i]
		changed := intersects(e.changed, reached)
		if !slices.ContainsFunc(e.defines, func(n string) bool { return live[n] }) && !anyLive(e.refs, live) && changed == "" {
			continue
		}
		if changed != "" {
			pkgs[changed] = true
		}
		r.entries = append(r.entries, e)
		for _, n := range definedNames(&input{stmts: e.stmts}) {
			delete(live, n) // defined again here: earlier values do not matter
		}
		for n := range e.refs {
			if state[n] {
				live[n] = true
			}
		}
		for p := range s.reach(e.named) {
			reached[p] = true
		}
		for _, p := range e.changesStd {
			reached[p] = true
		}
	}
	slices.Reverse(r.entries)
	for p := range pkgs {
		r.pkgs = append(r.pkgs, p)
	}
	slices.Sort(r.pkgs)
	return r
}

func anyLive(refs, live map[string]bool) bool {
	for n := range refs {
		if live[n] {
			return true
		}
	}
	return false
}

// neededNames are the names an input uses of what came before it: those
// it uses, without those it declares and those it defines (x := ...)
// before any use.
func neededNames(in *input) map[string]bool {
	used := usedNames(in)
	for _, st := range in.stmts {
		if a, ok := st.node.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok && !mentions(a.Rhs, id.Name) && !mentionedBefore(in, st, id.Name) {
					delete(used, id.Name)
				}
			}
		}
	}
	return used
}

// compiledOwned is the first name the input needs that belongs to the
// compiled side (see above), or "". s.mu is held.
func (s *Session) compiledOwned(in *input) string {
	used := neededNames(in)
	var names []string
	for name := range used {
		if s.owner[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return ""
	}
	return names[0]
}

// mentions reports whether name appears in the expressions.
func mentions(exprs []ast.Expr, name string) bool {
	for _, e := range exprs {
		quals, idents := namesIn(e)
		if quals[name] || idents[name] {
			return true
		}
	}
	return false
}

// mentionedBefore reports whether a statement before st uses name (its use
// would be the earlier value's).
func mentionedBefore(in *input, st stmtItem, name string) bool {
	for _, other := range in.stmts {
		if other.node == st.node {
			return false
		}
		quals, idents := namesIn(other.node)
		if quals[name] || idents[name] {
			return true
		}
	}
	return false
}

// note says what ran again, for the answer.
func (r replayed) note() string {
	if len(r.entries) == 0 {
		return ""
	}
	var which []string
	for _, e := range r.entries {
		which = append(which, fmt.Sprintf("%d (%s)", e.n, e.summary))
	}
	what := strings.Join(r.names, ", ")
	if len(r.pkgs) > 0 {
		if what != "" {
			what += " and "
		}
		what += "the state of " + strings.Join(r.pkgs, ", ")
	}
	return fmt.Sprintf("ran %d earlier input(s) again first, in this program, to rebuild %s: %s; their output is not shown, and what they do besides (files, network, the clock) happened again",
		len(r.entries), what, strings.Join(which, "; "))
}

// undefinedIn finds the names of "undefined: x" in a build's errors.
var undefinedIn = regexp.MustCompile(`undefined: ([\pL_][\pL\pN_]*)`)

// declaredOutOfReach explains an "undefined: x" where x is a variable an
// earlier input's statements defined: the statements run again inside
// main, where a func or var declaration cannot see them. "" otherwise.
func (s *Session) declaredOutOfReach(problem string) string {
	s.mu.Lock()
	state := s.stateNames()
	s.mu.Unlock()
	for _, m := range undefinedIn.FindAllStringSubmatch(problem, -1) {
		if state[m[1]] {
			return m[1] + " is a variable an earlier input's statements defined (" + m[1] + " := ...): inputs run again see it, but a func or var declaration cannot (it lives in main, not at the package level); pass it as an argument, or declare it with var at the top level"
		}
	}
	return ""
}
