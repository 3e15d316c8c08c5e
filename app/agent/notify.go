package agent

import (
	"context"
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
