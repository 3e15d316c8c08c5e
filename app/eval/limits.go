package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// DefaultMemoryLimit is a worker's address-space limit when the settings
// give none: a quarter of the machine's memory, so that a runaway
// evaluation dies alone instead of pushing the window into swap. 0 (no
// limit) where the memory size is unknown.
func DefaultMemoryLimit() int64 { return totalMemory() / 4 }

// memoryLimit is the limit handed to workers, 0 for none.
func (m *Manager) memoryLimit() int64 {
	switch {
	case m.opts.MemoryLimit < 0:
		return 0
	case m.opts.MemoryLimit == 0:
		return DefaultMemoryLimit()
	}
	return m.opts.MemoryLimit
}

// newerNative returns the selection's native worker binary when it is not
// the one p runs, "" otherwise.
func (m *Manager) newerNative(name string, p *process) string {
	if !m.opts.Native {
		return ""
	}
	ns := m.native(name)
	ns.mu.Lock()
	defer ns.mu.Unlock()
	base := p.bin
	if len(p.link) > 0 {
		base = p.base // built for its inputs' imports on top of that build
	}
	if ns.ready != "" && ns.ready != base {
		return ns.ready
	}
	return ""
}

// tempPrefix names a Manager's temporary folder after its process, so that
// a later start can tell whether the owner is still alive.
func tempPrefix() string { return fmt.Sprintf("trestle-eval-%d-", os.Getpid()) }

// deadTree matches the temporary folders of tempPrefix.
var deadTree = regexp.MustCompile(`^trestle-eval-(\d+)-`)

// removeDeadTrees removes the temporary evaluator folders (GOPATH trees)
// that a killed Trestle left in dir: only folders of ours whose owner pid
// is no longer running.
func removeDeadTrees(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		sub := deadTree.FindStringSubmatch(e.Name())
		if sub == nil || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(sub[1])
		if err != nil || pid == os.Getpid() || !ownedByUs(filepath.Join(dir, e.Name())) || pidAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
