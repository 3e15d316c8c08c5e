package projconf

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// FileName is the project configuration file, in the project root.
const FileName = ".trestle.json"

// DefaultSelection is the selection that always exists.
const DefaultSelection = "default"

// MaxFileBytes bounds .trestle.json: anything bigger is not a hand-written config.
const MaxFileBytes = 1 << 20

// Selection is one named evaluator and task environment.
type Selection struct {
	Tags    []string          `json:"tags,omitempty"`    // build tags
	Env     map[string]string `json:"env,omitempty"`     // extra environment
	Preload []string          `json:"preload,omitempty"` // import paths imported when an evaluator starts
	// Interpret leaves packages out of the evaluator's native set: they are
	// interpreted from source instead (a dependency whose native link fails).
	Interpret []string `json:"interpret,omitempty"`
}

// Task is one named command the runner can start.
type Task struct {
	Name    string        // the key in "tasks"
	Command []string      // argv; Command[0] is looked up in PATH
	Dir     string        // working folder relative to the project root, "" or "." for the root
	Timeout time.Duration // 0 means no timeout
	// NeedsTrust, when set, says why the task may not run while the
	// project is untrusted: it runs the project's own code (go test). Only
	// Untrusted sets it; the task runner refuses such a task.
	NeedsTrust string
}

// Config is the parsed .trestle.json merged over the defaults. It is a plain
// value: copy it freely; do not mutate the maps of a shared Config.
type Config struct {
	Selections map[string]Selection
	Tasks      map[string]Task
	// Withheld is what an untrusted project's .trestle.json asked for and
	// did not get (see Untrusted); nil when nothing was withheld.
	Withheld *Withheld
}

// Defaults returns the configuration of a project without .trestle.json: the
// default selection and the build, test and vet tasks.
func Defaults() Config {
	return Config{
		Selections: map[string]Selection{DefaultSelection: {}},
		Tasks: map[string]Task{
			"build": {Name: "build", Command: []string{"go", "build", "./..."}},
			"test":  {Name: "test", Command: []string{"go", "test", "./..."}},
			"vet":   {Name: "vet", Command: []string{"go", "vet", "./..."}},
		},
	}
}

// Load reads root/.trestle.json. A missing file returns the defaults and no
// error; an unreadable or malformed one returns the defaults and an error that
// names the file and what is wrong. It is safe for concurrent use.
func Load(root string) (Config, error) {
	path := filepath.Join(root, FileName)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Defaults(), nil
	case err != nil:
		return Defaults(), fmt.Errorf("read %s: %w", path, err)
	case info.Size() > MaxFileBytes:
		return Defaults(), fmt.Errorf("read %s: %d bytes is over the %d byte limit", path, info.Size(), MaxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Defaults(), fmt.Errorf("read %s: %w", path, err)
	}
	return Parse(path, data)
}

// Selection returns the named selection; "" means DefaultSelection.
func (c Config) Selection(name string) (Selection, bool) {
	if name == "" {
		name = DefaultSelection
	}
	s, ok := c.Selections[name]
	return s, ok
}

// Task returns the named task.
func (c Config) Task(name string) (Task, bool) {
	t, ok := c.Tasks[name]
	return t, ok
}

// SelectionNames returns the selection names, DefaultSelection first, then sorted.
func (c Config) SelectionNames() []string {
	names := []string{DefaultSelection}
	for name := range c.Selections {
		if name != DefaultSelection {
			names = append(names, name)
		}
	}
	slices.Sort(names[1:])
	return names
}

// TaskNames returns the task names sorted.
func (c Config) TaskNames() []string {
	names := make([]string, 0, len(c.Tasks))
	for name := range c.Tasks {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}
