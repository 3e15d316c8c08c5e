package changeset

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"trestle/app/errdefs"
	"trestle/app/project"
)

// ReadFunc returns the text of the project file at path (already confined)
// as the person sees it now: the open editor buffer when there is one,
// else disk (workbench.Reader's Func). A missing file is exists == false
// with a nil error. It may be called from any goroutine, and an apply calls
// it from several at once: it must be safe for concurrent use.
type ReadFunc func(path project.Path) (text string, exists bool, err error)

// Proposal is what an agent asks for: a title, a markdown description and
// the file changes.
type Proposal struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Client      string `json:"client,omitempty"` // the MCP client's name
	// Session is who proposes, as the caller knows it (the MCP session of
	// the connection, not the name a client gives itself): only the same
	// session may withdraw the set, and the cap on what one client has
	// waiting counts per session. "" for a proposer without one.
	Session string   `json:"session,omitempty"`
	Changes []Change `json:"changes"`
}

// Change is one file change of a Proposal; Action says which fields apply.
type Change struct {
	Path    string `json:"path"`
	Action  string `json:"action"`            // ActionEdit, ActionCreate, ActionReplace or ActionDelete
	Edits   []Edit `json:"edits,omitempty"`   // ActionEdit
	Content string `json:"content,omitempty"` // ActionCreate, ActionReplace
}

// Propose validates in against the project p and the base that base reads,
// and returns the pending change set (no ID yet) with each file's new
// content and diff stats. Every refusal wraps errdefs.ErrInvalid (errdefs.ErrOutside
// for a path out of the project) and names the file and the reason. It
// reads but never writes, and is safe for concurrent use if base is.
func Propose(p *project.Project, base ReadFunc, in Proposal) (ChangeSet, error) {
	if err := checkHeader(in); err != nil {
		return ChangeSet{}, fmt.Errorf("propose change set: %w", err)
	}
	cs := ChangeSet{Project: p.Root, Title: strings.TrimSpace(in.Title), Description: in.Description,
		Client: in.Client, Session: in.Session, State: StatePending, Files: make([]FileChange, 0, len(in.Changes))}
	seen := make(map[string]int, len(in.Changes))
	total := 0
	headIn := headFinder(p.Root, os.ReadDir)
	for i, ch := range in.Changes {
		fc, err := proposeFile(p, base, ch, headIn)
		if err != nil {
			return ChangeSet{}, fmt.Errorf("propose change set: change %d: %w", i+1, err)
		}
		if j, dup := seen[fc.Path]; dup {
			return ChangeSet{}, invalid("propose change set: changes %d and %d both touch %s; merge them into one", j+1, i+1, fc.Path)
		}
		seen[fc.Path] = i
		if total += len(fc.Base) + len(fc.New); total > MaxTotalBytes {
			return ChangeSet{}, tooLarge("propose change set: at %s the base and new content reach %d bytes, over the %d byte limit", fc.Path, total, MaxTotalBytes)
		}
		cs.Files = append(cs.Files, fc)
	}
	return cs, nil
}

// checkHeader checks the title, the description and the input sizes before
// any file is read.
func checkHeader(in Proposal) error {
	input := len(in.Title) + len(in.Description)
	for _, ch := range in.Changes {
		input += len(ch.Content)
		for _, e := range ch.Edits {
			input += len(e.OldText) + len(e.NewText)
		}
	}
	switch {
	case strings.TrimSpace(in.Title) == "":
		return invalid("title is required")
	case strings.IndexFunc(in.Title, isForbiddenInTitle) >= 0:
		return invalid("title %q has control characters (an escape, a backspace...), which could forge what a terminal shows; only tab and newline are allowed", in.Title)
	case len(in.Title) > MaxTitleBytes:
		return tooLarge("title is %d bytes, over the %d byte limit", len(in.Title), MaxTitleBytes)
	case len(in.Description) > MaxDescriptionBytes:
		return tooLarge("description is %d bytes, over the %d byte limit", len(in.Description), MaxDescriptionBytes)
	case len(in.Changes) == 0:
		return invalid("changes is empty")
	case len(in.Changes) > MaxFiles:
		return tooLarge("%d file changes, over the limit of %d", len(in.Changes), MaxFiles)
	case input > MaxTotalBytes:
		return tooLarge("the changes hold %d bytes, over the %d byte limit", input, MaxTotalBytes)
	}
	return nil
}

// proposeFile validates one change and computes its new content.
func proposeFile(p *project.Project, base ReadFunc, ch Change, headIn func(string) bool) (FileChange, error) {
	if err := checkShape(ch); err != nil {
		return FileChange{}, err
	}
	cp, err := resolvePath(p, ch.Path, headIn)
	if err != nil {
		return FileChange{}, err
	}
	rel := cp.Rel()
	text, exists, err := base(cp)
	if err != nil {
		return FileChange{}, fmt.Errorf("read the base of %s: %w", rel, err)
	}
	if err := checkExists(rel, ch.Action, exists); err != nil {
		return FileChange{}, err
	}
	fc := FileChange{Path: rel, Action: ch.Action, Edits: ch.Edits, Content: ch.Content,
		BaseExists: exists, Base: text, State: StatePending}
	if exists {
		fc.BaseSHA256 = hashText(text)
	}
	if fc.New, err = newContent(rel, text, ch); err != nil {
		return FileChange{}, err
	}
	setHunkStats(&fc)
	return fc, nil
}

// checkShape checks that the fields set fit the action.
func checkShape(ch Change) error {
	name := ch.Path
	switch ch.Action {
	case ActionEdit:
		if len(ch.Edits) == 0 || ch.Content != "" {
			return invalid("%s: an edit takes edits (old_text/new_text pairs) and no content", name)
		}
	case ActionCreate, ActionReplace:
		if len(ch.Edits) != 0 {
			return invalid("%s: %s takes content, not edits", name, ch.Action)
		}
	case ActionDelete:
		if len(ch.Edits) != 0 || ch.Content != "" {
			return invalid("%s: delete takes neither content nor edits", name)
		}
	default:
		return invalid("%s: action %q is not edit, create, replace or delete", name, ch.Action)
	}
	return nil
}

// resolvePath confines name to the project once and returns the confined Path.
// It refuses the root, folders, git's repository metadata (see
// gitMetadata), paths through a file, control characters and bidi
// controls. headIn is as for gitMetadata.
func resolvePath(p *project.Project, name string, headIn func(string) bool) (project.Path, error) {
	if strings.TrimSpace(name) == "" {
		return project.Path{}, invalid("path is empty")
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return project.Path{}, invalid("%q: the path has control characters (a newline, a tab...), which would show falsely in the review", name)
	}
	if strings.IndexFunc(name, IsBidiControl) >= 0 {
		return project.Path{}, invalid("%q: the path has bidirectional text controls (U+202A-U+202E, U+2066-U+2069...), which make a name read differently from what it is", name)
	}
	if why := gitMetadata(path.Clean(filepath.ToSlash(name)), headIn); why != "" {
		return project.Path{}, invalid("%s: %s", name, why)
	}
	cp, err := p.Resolve(name)
	if errors.Is(err, syscall.ENOTDIR) {
		return project.Path{}, invalid("%s: a folder on its way is a file", name)
	}
	if err != nil {
		return project.Path{}, err
	}
	rel := cp.Rel()
	if rel == "." {
		return project.Path{}, invalid("%s: is the project folder, not a file", name)
	}
	if why := gitMetadata(rel, headIn); why != "" {
		return project.Path{}, invalid("%s: %s", rel, why)
	}
	if info, err := os.Lstat(cp.Abs()); err == nil && info.IsDir() {
		return project.Path{}, invalid("%s: is a folder, not a file", rel)
	}
	if what := notAFile(cp.Abs()); what != "" {
		return project.Path{}, invalid("%s: refused: %s; a change set never writes over, through or in place of one", rel, what)
	}
	return cp, nil
}

// notAFile says what is at abs when it is there and neither a regular
// file nor a folder: "it is a symlink (→ target) that leads nowhere".
// Resolve follows every symlink that leads somewhere, so one left at the
// end of a resolved path leads nowhere (or out of reach). "" otherwise.
func notAFile(abs string) string {
	info, _ := os.Lstat(abs)
	return notAFileInfo(abs, info)
}

// notAFileInfo is notAFile with what os.Lstat said of abs (nil: it found
// nothing there).
func notAFileInfo(abs string, info fs.FileInfo) string {
	switch {
	case info == nil || info.Mode().IsRegular() || info.IsDir():
		return ""
	case info.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(abs)
		return fmt.Sprintf("it is a symlink (→ %s) that leads nowhere", MarkControls(target))
	}
	return "it is not a regular file (" + info.Mode().Type().String() + ")"
}

// checkExists checks the action against whether the base exists.
func checkExists(rel, action string, exists bool) error {
	if action == ActionCreate && exists {
		return invalid("%s: create refused: the file exists; use replace or edit", rel)
	}
	if action != ActionCreate && !exists {
		return invalid("%s: %s refused: no such file; use create", rel, action)
	}
	return nil
}

// newContent computes the file's content after the change and checks it.
func newContent(rel, base string, ch Change) (string, error) {
	if len(base) > MaxFileBytes {
		return "", tooLarge("%s: the file is %d bytes, over the %d byte limit", rel, len(base), MaxFileBytes)
	}
	if !utf8.ValidString(base) {
		return "", invalid("%s: the file is not UTF-8 text; change sets hold UTF-8 text only", rel)
	}
	text := ch.Content
	switch ch.Action {
	case ActionDelete:
		return "", nil
	case ActionEdit:
		var err error
		if text, err = applyEdits(rel, base, ch.Edits); err != nil {
			return "", err
		}
	}
	switch {
	case len(text) > MaxFileBytes:
		return "", tooLarge("%s: the new content is %d bytes, over the %d byte limit", rel, len(text), MaxFileBytes)
	case !utf8.ValidString(text):
		return "", invalid("%s: the new content is not UTF-8 text", rel)
	case project.IsBinary([]byte(text)):
		return "", invalid("%s: the new content has NUL bytes; change sets hold text only", rel)
	case ch.Action != ActionCreate && text == base:
		return "", invalid("%s: the %s leaves the file unchanged", rel, ch.Action)
	}
	return text, nil
}

// firstLine is the first non-blank line of s, shortened for a message.
func firstLine(s string) string {
	line := strings.TrimSpace(s)
	line, _, _ = strings.Cut(line, "\n")
	const max = 80
	if len(line) <= max {
		return line
	}
	n := max
	for n > 0 && !utf8.RuneStart(line[n]) {
		n--
	}
	return line[:n] + "…"
}

// invalid is a refusal the agent can fix, wrapping errdefs.ErrInvalid.
func invalid(format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, errdefs.ErrInvalid)...)
}

// tooLarge is a size refusal, wrapping errdefs.ErrTooLarge and errdefs.ErrInvalid.
func tooLarge(format string, args ...any) error {
	return fmt.Errorf(format+": %w (%w)", append(args, errdefs.ErrTooLarge, errdefs.ErrInvalid)...)
}

// IsBidiControl reports whether r is a bidirectional text control (the
// embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, and
// the marks U+200E, U+200F and U+061C), which make text display in an
// order other than the one it has.
func IsBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// isForbiddenInTitle is a control character other than tab, newline and
// carriage return.
func isForbiddenInTitle(r rune) bool {
	return unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r'
}
