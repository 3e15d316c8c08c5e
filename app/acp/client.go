package acp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/permission"
)

// client is Trestle's side of the connection (sdk.Client).
type client struct {
	s *Session

	rootOnce sync.Once
	root     *os.Root // the staging copy
	rootErr  error

	mu        sync.Mutex
	terminals map[string]*terminal
	nextTerm  int
	closed    bool
}

var _ sdk.Client = (*client)(nil)

func newClient(s *Session) *client { return &client{s: s, terminals: map[string]*terminal{}} }

// stage returns the staging copy opened as an os.Root, which refuses any
// path, symlink included, that leads outside it.
func (c *client) stage() (*os.Root, error) {
	c.rootOnce.Do(func() { c.root, c.rootErr = os.OpenRoot(c.s.opts.Stage.Dir) })
	return c.root, c.rootErr
}

// refused is an error the agent reads: what it asked, and why not.
func refused(format string, args ...any) error {
	return sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf(format, args...)})
}

// stageRel turns an agent's absolute path into a path relative to the
// staging copy, refusing a path elsewhere or with a ".." in it.
func (c *client) stageRel(what, p string) (string, error) {
	st := c.s.opts.Stage
	if !filepath.IsAbs(p) {
		return "", refused("%s %s: the path must be absolute, under the working folder %s", what, p, st.Dir)
	}
	if slices.Contains(strings.Split(filepath.ToSlash(p), "/"), "..") {
		return "", refused("%s %s: a path may not hold \"..\"; name the file under %s", what, p, st.Dir)
	}
	rel, err := filepath.Rel(st.Dir, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		if r, err := filepath.Rel(st.Project, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", refused("%s %s: that is the real project, which agents never write; work on the copy at %s",
				what, p, filepath.Join(st.Dir, r))
		}
		return "", refused("%s %s: outside the working folder %s", what, p, st.Dir)
	}
	return rel, nil
}

// ReadTextFile serves the staging copy's text, or the person's editor text
// for a file the agent has not changed.
func (c *client) ReadTextFile(ctx context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	rel, err := c.stageRel("read", p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	text, ok := "", false
	if ed := c.s.opts.Editor; ed != nil && c.s.opts.Stage.Unchanged(filepath.ToSlash(rel)) {
		text, ok = ed(filepath.ToSlash(rel))
	}
	if !ok {
		root, err := c.stage()
		if err != nil {
			return sdk.ReadTextFileResponse{}, err
		}
		data, err := root.ReadFile(rel)
		if err != nil {
			return sdk.ReadTextFileResponse{}, refused("read %s: %v", p.Path, err)
		}
		text = string(data)
	}
	return sdk.ReadTextFileResponse{Content: lines(text, p.Line, p.Limit)}, nil
}

// lines is text from line (1-based, nil for the first) for at most limit lines (nil for all).
func lines(text string, line, limit *int) string {
	if line == nil && limit == nil {
		return text
	}
	all := strings.SplitAfter(text, "\n")
	from := 0
	if line != nil && *line > 1 {
		from = min(*line-1, len(all))
	}
	to := len(all)
	if limit != nil && *limit >= 0 {
		to = min(from+*limit, len(all))
	}
	return strings.Join(all[from:to], "")
}

// WriteTextFile writes into the staging copy only.
func (c *client) WriteTextFile(ctx context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	rel, err := c.stageRel("write", p.Path)
	if err != nil {
		return sdk.WriteTextFileResponse{}, err
	}
	root, err := c.stage()
	if err != nil {
		return sdk.WriteTextFileResponse{}, err
	}
	if dir := filepath.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return sdk.WriteTextFileResponse{}, refused("write %s: %v", p.Path, err)
		}
	}
	if err := root.WriteFile(rel, []byte(p.Content), 0o644); err != nil {
		return sdk.WriteTextFileResponse{}, refused("write %s: %v", p.Path, err)
	}
	return sdk.WriteTextFileResponse{}, nil
}

// RequestPermission answers under the policy: deny rejects without
// asking, allow takes the first allow option, ask asks the person.
func (c *client) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	switch c.s.policy() {
	case permission.PolicyDeny:
		return reject(p), nil
	case permission.PolicyAllow:
		if o, ok := option(p, sdk.PermissionOptionKindAllowOnce, sdk.PermissionOptionKindAllowAlways); ok {
			return selected(o), nil
		}
		return reject(p), nil
	}
	if c.s.opts.Ask == nil {
		return reject(p), nil
	}
	resp, err := c.s.opts.Ask(ctx, p)
	if err != nil || c.s.policy() == permission.PolicyDeny {
		return reject(p), nil
	}
	return resp, nil
}

// reject picks the request's reject option, or cancels when it offers none.
func reject(p sdk.RequestPermissionRequest) sdk.RequestPermissionResponse {
	if o, ok := option(p, sdk.PermissionOptionKindRejectOnce, sdk.PermissionOptionKindRejectAlways); ok {
		return selected(o)
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
}

func selected(o sdk.PermissionOptionId) sdk.RequestPermissionResponse {
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: o}}}
}

// option is the first option of one of kinds, in the order of kinds.
func option(p sdk.RequestPermissionRequest, kinds ...sdk.PermissionOptionKind) (sdk.PermissionOptionId, bool) {
	for _, k := range kinds {
		for _, o := range p.Options {
			if o.Kind == k {
				return o.OptionId, true
			}
		}
	}
	return "", false
}

// SessionUpdate hands the notification to OnUpdate.
func (c *client) SessionUpdate(ctx context.Context, n sdk.SessionNotification) error {
	if f := c.s.opts.OnUpdate; f != nil {
		f(n)
	}
	return nil
}

// errNoTerminal is the answer for a terminal id this session does not have.
func errNoTerminal(id string) error {
	return refused("terminal %q: no such terminal in this session (released, or never created)", id)
}

var errClosed = errors.New("the session is closed")
