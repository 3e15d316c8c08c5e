package agent

import (
	"context"
	"path/filepath"
	"strings"

	"trestle/app/errdefs"
)

// MaxNotifyBytes bounds a message to the person.
const MaxNotifyBytes = 2000

// Notify shows the person message from who in the window, without
// interrupting them. It needs a window.
func (a *Agent) Notify(ctx context.Context, who Caller, message string) error {
	msg := strings.TrimSpace(message)
	switch {
	case msg == "":
		return errdefs.Errorf(errdefs.ErrInvalid, "message is empty; say what the person should know")
	case len(msg) > MaxNotifyBytes:
		return errdefs.Errorf(errdefs.ErrInvalid, "message is %d bytes, over the %d byte limit; shorten it", len(msg), MaxNotifyBytes)
	}
	return a.cfg.Window.Notice(ctx, who.Name(), msg)
}

// Warn shows the person a notice from Trestle itself, not from an agent:
// something about who is attached that they should know. Without a window
// it does nothing.
func (a *Agent) Warn(ctx context.Context, message string) error {
	if a.cfg.Window == nil {
		return nil
	}
	return a.cfg.Window.Notice(ctx, "Trestle", message)
}

// Overlaps reports whether one of dirs, the folders a client says it works
// in, is the project folder, holds it or lies inside it. A client that
// works elsewhere is most likely attached to the wrong project: the paths
// it sends are not the project's, and the adapter warns it and the person
// (Warn).
func (a *Agent) Overlaps(dirs []string) bool {
	root := a.cfg.Project.Root
	for _, dir := range dirs {
		dir = filepath.Clean(dir)
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		if within(root, dir) || within(dir, root) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
