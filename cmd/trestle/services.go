package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"

	"trestle/app/changeset"
	"trestle/app/eval"
	"trestle/app/lsp"
	"trestle/app/permission"
	"trestle/app/projconf"
	"trestle/app/project"
	"trestle/app/services"
	"trestle/app/store"
	"trestle/app/task"
	"trestle/app/trust"
)

// newServices builds the project's evaluator, task runner, permission gate
// and, with a store, change sets. ask puts a request to the person: the
// window's dialog, or for the headless server the client's elicitation. tr is the project's trust: .trestle.json's tasks and
// environment reach the runner and the evaluator only while it is
// trusted. Close the evaluator when done.
func newServices(p *project.Project, store *store.Store, policy string, ask func(context.Context, permission.Request) (permission.Decision, error),
	tr *trust.Project) services.Services {
	conf := projconf.NewCache(p.Root)
	c, _ := conf.Get()
	var changes *changeset.Manager
	if store != nil {
		changes = changeset.NewManager(store, p)
	}
	var memory int64 // 0: a quarter of the machine's
	if store != nil {
		if s, err := store.Settings(); err == nil {
			memory = int64(s.EvalMemoryMiB) << 20
		}
	}
	evals := eval.NewManager(eval.ManagerOptions{
		Root: p.Root, Module: p.Module, Selections: tr.Selections(c), WorkerCommand: workerCommand,
		Native: nativeEval(), MemoryLimit: memory, ProjectTrusted: tr.Trusted,
	})
	conf.OnReload(func(c projconf.Config) { evals.SetSelections(tr.Selections(c)) })
	tr.OnChange(func(bool) {
		c, _ := conf.Get()
		evals.SetSelections(tr.Selections(c))
		// A worker keeps the environment it started with: restart those
		// whose .trestle.json environment or preloads the change gives or
		// takes away (a revoke must not leave CC=./cc.sh in a worker).
		if w := c.Untrusted().Withheld; w != nil {
			for name := range w.Selections {
				evals.Restart(name)
			}
		}
	})
	return services.Services{
		LSP:        newLSP(p),
		ChangeSets: changes,
		Eval:       evals,
		Tasks:      task.NewRunner(p.Root),
		Gate:       permission.NewGate(policy, ask),
		Config:     tr.Config(conf.Get),
		Trust:      tr,
	}
}

// loadTrust is the project's trust as the store remembers it, or trusted
// for this run when forRun (--trust). A store it cannot read leaves the
// project untrusted, and says so.
func loadTrust(p *project.Project, db *store.Store, forRun bool, logger *log.Logger) *trust.Project {
	tr, err := trust.Load(p.Root, db, forRun)
	if err != nil {
		logger.Printf("%v; the project is untrusted this run", err)
	}
	return tr
}

// startChangeSets runs what a process does first with the project's change
// sets (see changeset.Manager.Start): above all, rolling back an apply a
// crash interrupted, before anything reads the files. It logs what it
// recovered, and returns it for the person to hear.
func startChangeSets(m *changeset.Manager, logger *log.Logger) []changeset.Recovery {
	if m == nil {
		return nil
	}
	rec, err := m.Start()
	for _, r := range rec {
		logger.Printf("change set %s: %s", r.ID, r.What)
	}
	if err != nil {
		logger.Printf("change sets: %v", err)
	}
	return rec
}

// nativeEvalEnv turns the native evaluator workers off when set to "off":
// every selection is then served by this binary's interpreter (yaegi's own
// go1.22 standard library tables, dependencies interpreted from source).
const nativeEvalEnv = "TRESTLE_EVAL_NATIVE"

// nativeEval reports whether selections get native workers (the default).
func nativeEval() bool { return os.Getenv(nativeEvalEnv) != "off" }

// newLSP is the project's gopls client; gopls starts on first use. It is
// found on PATH, in $(go env GOPATH)/bin or in Trestle's per-user bin
// folder, where the window installs it on the person's consent.
func newLSP(p *project.Project) *lsp.Client {
	return lsp.New(lsp.Config{Root: p.Root, Logger: newLogger(), Find: func(ctx context.Context) (string, error) {
		return lsp.Find(ctx, goplsBin())
	}})
}

// goplsBin is Trestle's per-user folder for the gopls it installs.
func goplsBin() string {
	paths, err := userPaths()
	if err != nil {
		return ""
	}
	return filepath.Join(paths.root, "bin")
}

// workerCommand starts this binary as an evaluator worker: the fallback
// interpreter, serving until a selection's native worker is built.
func workerCommand(string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return exec.Command(exe, "--eval-worker")
}

// runWorker is the hidden --eval-worker mode: one evaluator for the
// evaluator manager that started this process, over stdin and stdout.
func runWorker() int {
	opts, err := eval.WorkerOptionsFromEnv()
	if err == nil {
		err = eval.RunWorker(context.Background(), os.Stdin, os.Stdout, opts)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "trestle eval worker: %v\n", err)
		return 1
	}
	return 0
}
