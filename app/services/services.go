package services

import (
	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/lsp"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/task"
	"trestle/app/trust"
)

// Services are one project's running parts. Each is safe for concurrent
// use; a nil one is not available (the tools that need it are not offered).
type Services struct {
	Eval  *eval.Manager
	Tasks *task.Runner
	Gate  *permission.Gate
	// ChangeSets stores agents' proposals for the person to review.
	ChangeSets *changeset.Manager
	// LSP is the project's gopls, for the Go intelligence tools and the editor.
	LSP *lsp.Client
	// Config is .trestle.json merged over the defaults, and the file's
	// problem if it has one (the defaults are used then).
	Config func() (projconf.Config, error)
	// Trust is whether the person trusts the project (package trust); nil
	// is untrusted. Config already follows it.
	Trust *trust.Project
}

// ProjectConfig returns the configuration, or the defaults without a Config func.
func (s Services) ProjectConfig() (projconf.Config, error) {
	if s.Config == nil {
		return projconf.Defaults(), nil
	}
	return s.Config()
}
