package compiled

import (
	"os"
	"regexp"
	"sync"
	"time"

	"trestle/app/eval/internal/sweep"
)

// The supervisor binaries of the user's cache (trestle/eval-supervise):
// one folder per supervisor source and toolchain, so every Go upgrade and
// every change of superviseSource adds one. A process sweeps the folder
// once, in the background, when it first uses it: what no process has
// used for unusedSupervisor goes, and of the rest only the newest
// keepSupervisors stay. A process marks the folder it uses at most every
// touchEvery, so a folder in use by a running Trestle is never older than
// that and never removed (recentlyUsed protects it from the cap too).

const (
	// unusedSupervisor is how long a supervisor stays after its last use:
	// long enough for a Go version someone switches back to now and then.
	unusedSupervisor = 30 * 24 * time.Hour
	// keepSupervisors caps the folders that stay (each holds a binary of
	// about 2 MB): a few toolchains in use at once.
	keepSupervisors = 4
	// recentlyUsed is the age below which the cap removes nothing: a
	// running process marks its folder more often than that.
	recentlyUsed = 24 * time.Hour
	// touchEvery is how often a process marks the folder it uses.
	touchEvery = time.Hour
	// staleBuild is the age past which a build folder ("build-*") is what
	// a killed build left: a build takes seconds.
	staleBuild = 24 * time.Hour
)

// supervisorEntry is a folder name sharedSupervisor makes: hex of 8 bytes.
var supervisorEntry = regexp.MustCompile(`^[0-9a-f]{16}$`)

// buildEntry is a folder name of a build in progress (os.MkdirTemp).
var buildEntry = regexp.MustCompile(`^build-\d+$`)

// sweeps tracks the background sweeps: one per cache folder per process.
var sweeps struct {
	mu   sync.Mutex
	done map[string]bool
	wg   sync.WaitGroup
}

// sweepSupervisorsOnce sweeps parent in the background unless this
// process did already; inUse is the folder this process uses.
func sweepSupervisorsOnce(parent, inUse string) {
	sweeps.mu.Lock()
	defer sweeps.mu.Unlock()
	if sweeps.done[parent] {
		return
	}
	if sweeps.done == nil {
		sweeps.done = map[string]bool{}
	}
	sweeps.done[parent] = true
	sweeps.wg.Add(1)
	go func() {
		defer sweeps.wg.Done()
		sweepSupervisors(parent, inUse, time.Now())
	}()
}

// sweepSupervisors removes from parent the supervisor folders unused for
// unusedSupervisor, the oldest beyond keepSupervisors that were not used
// recently, and build folders left by killed builds; never inUse, and
// nothing it does not recognise.
func sweepSupervisors(parent, inUse string, now time.Time) {
	sweep.Folder{Dir: parent, InUse: []string{inUse}, Classes: []sweep.Class{
		{Match: buildEntry.MatchString, Kind: sweep.Folders, Unused: staleBuild},
		{Match: supervisorEntry.MatchString, Kind: sweep.Folders, Unused: unusedSupervisor, Keep: keepSupervisors, Recent: recentlyUsed},
	}}.Sweep(now)
}

// touches are when this process last marked each supervisor folder.
var touches struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// markUsed sets dir's modification time to now, at most every touchEvery:
// the sweeps of other processes read it as the folder's last use.
func markUsed(dir string) {
	touches.mu.Lock()
	defer touches.mu.Unlock()
	now := time.Now()
	if now.Sub(touches.last[dir]) < touchEvery {
		return
	}
	if touches.last == nil {
		touches.last = map[string]time.Time{}
	}
	if sweep.MarkUsed(dir, now) {
		touches.last[dir] = now
	}
}

// isFile reports whether path is a regular file.
func isFile(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.Mode().IsRegular()
}
