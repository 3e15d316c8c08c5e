package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"trestle/app/changeset"
	"trestle/app/project"
	"trestle/app/store"
	"trestle/internal/testfix"
)

// BenchmarkApplyCLI is `trestle changes apply` of a set that edits 200
// files of about 4 KB, the whole process, beside `git apply` of the same
// edits as a patch to a copy of the same files, interleaved: trestle first
// in even iterations, git first in odd ones, since the first to run after
// the sync finds the file system in another state than the second. The
// store already holds 20 such sets, applied, as a person's store would
// after a while (pruning and recovery must not make an apply pay for
// them). trestle-ms and git-ms are the mean times, ratio their quotient;
// trestle-cpu-ms and git-cpu-ms the mean CPU time (user and system) of
// each process, which a shared machine's load moves less.
func BenchmarkApplyCLI(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	bin := trestleBin(b)
	config := b.TempDir()
	db, err := store.Open(filepath.Join(config, "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	env := []string{"TRESTLE_CONFIG_DIR=" + config, "DISPLAY=", "LANG=en_US.UTF-8", "LC_ALL=", "LC_MESSAGES="}
	for range 20 { // a store with history
		m, in, _ := applyBenchSet(b, db)
		cs, err := m.Propose(diskText(m.Project()), in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := m.Apply(cs.ID, nil, diskText(m.Project()), nil); err != nil {
			b.Fatal(err)
		}
	}
	var tr, gr, tc, gc time.Duration
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		m, in, patch := applyBenchSet(b, db)
		cs, err := m.Propose(diskText(m.Project()), in)
		if err != nil {
			b.Fatal(err)
		}
		gitDir := testfix.Project(b, applyBenchFiles())
		patchFile := filepath.Join(b.TempDir(), "rename.patch")
		if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
			b.Fatal(err)
		}
		syscall.Sync() // both projects on disk, as they would be
		b.StartTimer()
		trestle := exec.Command(bin, "changes", "apply", cs.ID, m.Project().Root)
		trestle.Env = append(os.Environ(), env...)
		git := exec.Command("git", "apply", patchFile)
		git.Dir = gitDir
		if i%2 == 1 {
			gr += runApplyCmd(b, git, "")
		}
		tr += runApplyCmd(b, trestle, "Applied "+cs.ID)
		if i%2 == 0 {
			gr += runApplyCmd(b, git, "")
		}
		tc += trestle.ProcessState.UserTime() + trestle.ProcessState.SystemTime()
		gc += git.ProcessState.UserTime() + git.ProcessState.SystemTime()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(ms(tr), "trestle-ms")
	b.ReportMetric(ms(gr), "git-ms")
	b.ReportMetric(float64(tr)/float64(gr), "ratio")
	b.ReportMetric(ms(tc), "trestle-cpu-ms")
	b.ReportMetric(ms(gc), "git-cpu-ms")
}

// runApplyCmd runs cmd, failing b unless it succeeds and says want, and
// returns how long it took.
func runApplyCmd(b *testing.B, cmd *exec.Cmd, want string) time.Duration {
	t0 := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(t0)
	if err != nil || !strings.Contains(string(out), want) {
		b.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
	return took
}

// applyBenchFiles are 200 Go files of about 4 KB in ten folders.
func applyBenchFiles() map[string]string {
	files := map[string]string{}
	for i := range changeset.MaxFiles {
		files[fmt.Sprintf("pkg%d/file%d.go", i%10, i)] = fmt.Sprintf("package pkg\n\n// file %d\n", i) +
			strings.Repeat("func f() { oldName() }\n", 170)
	}
	return files
}

// applyBenchSet is a fresh project of applyBenchFiles with its Manager in
// db, the proposal that edits one line of each file, and the same edits
// as a patch for git apply.
func applyBenchSet(b testing.TB, db *store.Store) (*changeset.Manager, changeset.Proposal, string) {
	p, err := project.Open(testfix.Project(b, applyBenchFiles()))
	if err != nil {
		b.Fatal(err)
	}
	in := changeset.Proposal{Title: "rename everywhere", Client: "bench"}
	var patch strings.Builder
	for i := range changeset.MaxFiles {
		name := fmt.Sprintf("pkg%d/file%d.go", i%10, i)
		in.Changes = append(in.Changes, changeset.Change{Path: name, Action: changeset.ActionEdit,
			Edits: []changeset.Edit{{OldText: fmt.Sprintf("// file %d\n", i), NewText: fmt.Sprintf("// file %d, renamed\n", i)}}})
		fmt.Fprintf(&patch, "--- a/%s\n+++ b/%s\n@@ -1,6 +1,6 @@\n package pkg\n \n-// file %d\n+// file %d, renamed\n%s",
			name, name, i, i, strings.Repeat(" func f() { oldName() }\n", 3))
	}
	return changeset.NewManager(db, p), in, patch.String()
}
