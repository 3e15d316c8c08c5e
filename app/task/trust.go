package task

import (
	"errors"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/projconf"
)

// ErrUntrusted is wrapped by the refusal of a task that runs the
// project's own code while the project is untrusted.
var ErrUntrusted = errors.New("the person must trust the project first")

// CheckTrust returns nil when t may run with args, else, for a task that
// runs the project's own code in an untrusted project (its NeedsTrust is
// set), an error wrapping errdefs.ErrRefused and ErrUntrusted that says
// what would run and why it does not. Runner.Start checks it; callers
// that ask the person first check it before asking.
func CheckTrust(t projconf.Task, args []string) error {
	if t.NeedsTrust == "" {
		return nil
	}
	return errdefs.Errorf(errdefs.ErrRefused, "run task %q: %s %s and the project is untrusted: %w",
		t.Name, strings.Join(Argv(t, args), " "), t.NeedsTrust, ErrUntrusted)
}
