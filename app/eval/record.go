package eval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"trestle/app/eval/internal/sweep"
	"trestle/app/eval/workerbuild"
)

// The per-user record of a selection's last native build, so that the
// next start of Trestle starts that worker at once, and the compile-in
// choices that still hold.

// dropNative forgets a native worker binary that did not start.
func (m *Manager) dropNative(name, bin string) {
	ns := m.native(name)
	ns.mu.Lock()
	if ns.ready == bin {
		ns.ready = ""
	}
	ns.mu.Unlock()
	if m.loadRecord(name).Binary == bin {
		os.Remove(m.recordPath(name))
	}
}

// record is the last native worker built for a project selection, so that
// the next start of Trestle starts it at once.
type record struct {
	Binary  string            `json:"binary"`
	Compile map[string]string `json:"compile,omitempty"` // nativeSlot.compile
	// Sources are the folder and source hash of each package of Compile
	// when the interpreter failed on it: the choice is kept for the next
	// start only while the source is the same (an edit may well have
	// removed what yaegi could not run).
	Sources map[string]compiledSource `json:"sources,omitempty"`
}

// compiledSource is a package's folder and the hash of its Go files.
type compiledSource struct {
	Dir string `json:"dir"`
	Sum string `json:"sum"`
}

// stillFailing is Compile without the packages whose source changed since
// the failure (or that the record cannot vouch for).
func (r record) stillFailing() map[string]string {
	out := map[string]string{}
	for path, why := range r.Compile {
		if src, ok := r.Sources[path]; ok && src.Dir != "" && sourceSum(src.Dir) == src.Sum {
			out[path] = why
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sourceSum hashes the Go files of a folder (names and contents).
func sourceSum(dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return ""
		}
		fmt.Fprintf(h, "%s %x\x00", e.Name(), sha256.Sum256(data))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (m *Manager) recordPath(name string) string {
	dir := m.opts.CacheDir
	if dir == "" {
		var err error
		if dir, err = workerbuild.DefaultCacheDir(); err != nil {
			return ""
		}
	}
	sum := sha256.Sum256([]byte(m.opts.Root + "\x00" + name))
	return filepath.Join(dir, "selections", hex.EncodeToString(sum[:12])+".json")
}

func (m *Manager) loadRecord(name string) record {
	path := m.recordPath(name)
	if path == "" {
		return record{}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return record{}
	}
	var r record
	if json.Unmarshal(data, &r) != nil {
		return record{}
	}
	if info, err := os.Stat(r.Binary); err != nil || !info.Mode().IsRegular() {
		r.Binary = ""
	}
	return r
}

func (m *Manager) saveRecord(name, bin string) {
	path := m.recordPath(name)
	if path == "" {
		return
	}
	if os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	ns := m.native(name)
	ns.mu.Lock()
	r := record{Binary: bin, Compile: ns.compile, Sources: map[string]compiledSource{}}
	for path := range ns.compile {
		if ns.plan == nil {
			break
		}
		for _, p := range ns.plan.Packages {
			if p.Path == path && p.Dir != "" {
				r.Sources[path] = compiledSource{Dir: p.Dir, Sum: sourceSum(p.Dir)}
			}
		}
	}
	data, _ := json.Marshal(r)
	ns.mu.Unlock()
	tmp := path + ".tmp-" + strings.ReplaceAll(fmt.Sprint(time.Now().UnixNano()), "-", "")
	if os.WriteFile(tmp, data, 0o644) == nil {
		if os.Rename(tmp, path) != nil {
			os.Remove(tmp)
		}
	}
}

// The records of every project and selection opened on this machine stay
// in one folder; the first build of a Manager sweeps it (in the build's
// background goroutine): a record not written for unusedRecord goes (a
// build writes its selection's record, a start builds), of the rest only
// the newest keepRecords stay (never one written in the last day), and
// so do the temporary files of writes that were killed. The Manager's own
// selections' records always stay.
const (
	unusedRecord = 90 * 24 * time.Hour
	keepRecords  = 256
	recentRecord = 24 * time.Hour
)

// sweepRecords sweeps the folder of the selection records (see above).
func (m *Manager) sweepRecords() {
	m.mu.Lock()
	names := slices.Collect(maps.Keys(m.opts.Selections))
	m.mu.Unlock()
	var own []string
	for _, name := range names {
		own = append(own, m.recordPath(name))
	}
	if len(own) == 0 || own[0] == "" {
		return
	}
	sweep.Folder{Dir: filepath.Dir(own[0]), InUse: own, Classes: []sweep.Class{
		{Match: isRecordTemp, Kind: sweep.Files, Unused: recentRecord},
		{Match: isRecord, Kind: sweep.Files, Unused: unusedRecord, Keep: keepRecords, Recent: recentRecord},
	}}.Sweep(time.Now())
}

// isRecord and isRecordTemp tell a record's file name and that of a
// write of one under way (saveRecord).
func isRecord(name string) bool     { return strings.HasSuffix(name, ".json") }
func isRecordTemp(name string) bool { return strings.Contains(name, ".json.tmp-") }
