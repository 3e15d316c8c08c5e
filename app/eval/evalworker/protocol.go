package evalworker

import (
	"encoding/json"
	"fmt"
	"os"
)

// OptionsEnv is the environment variable through which the evaluator
// manager hands Options (as JSON) to the worker process it starts.
const OptionsEnv = "TRESTLE_EVAL_OPTIONS"

// MaxLine bounds one protocol line: a request's code or a result's output
// and value, with room for JSON escaping.
const MaxLine = 16 << 20

// Options configures Run: the project and the selection the worker
// evaluates for.
type Options struct {
	Root      string            `json:"root"`                // project root; the worker's working folder
	Module    string            `json:"module,omitempty"`    // the project's module path
	Selection string            `json:"selection,omitempty"` // selection name, for messages
	Tags      []string          `json:"tags,omitempty"`      // build tags
	Env       map[string]string `json:"env,omitempty"`       // set in the worker's environment
	Preload   []string          `json:"preload,omitempty"`   // import paths imported at start
	// GoPath is the GOPATH tree yaegi imports interpreted packages from
	// (the project and its module dependencies, linked).
	GoPath string `json:"gopath,omitempty"`
	// ModCache is the module cache (GOMODCACHE).
	ModCache string `json:"modcache,omitempty"`
	// MemoryLimit is the worker's address-space limit in bytes; 0 is none.
	MemoryLimit int64 `json:"memory_limit,omitempty"`
}

// OptionsFromEnv decodes the Options that the manager put in the worker
// process's environment.
func OptionsFromEnv() (Options, error) {
	var opts Options
	raw := os.Getenv(OptionsEnv)
	if raw == "" {
		return opts, fmt.Errorf("eval worker: %s is not set; the worker is started by the evaluator manager", OptionsEnv)
	}
	if err := json.Unmarshal([]byte(raw), &opts); err != nil {
		return opts, fmt.Errorf("eval worker: decode %s: %w", OptionsEnv, err)
	}
	return opts, nil
}

// Request asks the worker to evaluate Code.
type Request struct {
	ID   uint64 `json:"id"`
	Code string `json:"code"`
}

// Message kinds sent by the worker.
const (
	KindReady  = "ready"  // sent once, after start-up and preloading
	KindResult = "result" // the answer to one request
)

// Response is one line from the worker.
type Response struct {
	Kind          string   `json:"kind"`
	ID            uint64   `json:"id,omitempty"`
	Value         string   `json:"value,omitempty"`
	Type          string   `json:"type,omitempty"`
	Output        string   `json:"output,omitempty"`
	OutputDropped int64    `json:"output_dropped,omitempty"`
	Error         string   `json:"error,omitempty"`
	Notes         []string `json:"notes,omitempty"`
	// Trace is the interpreter's line for each interpreted frame a panic
	// passed through ("1:34: panic: main(...)"), taken out of Output: go
	// run prints none. The evaluator reads in it which project packages
	// an interpreter failure went through.
	Trace      string `json:"trace,omitempty"`
	DurationNS int64  `json:"duration_ns,omitempty"`
	// Defines is set when the input declared, assigned or imported
	// something: replaying it rebuilds state a killed worker lost.
	Defines bool `json:"defines,omitempty"`
	// Native lists, in the ready message, the import paths whose symbols
	// are linked into the worker (besides the standard library).
	Native []string `json:"native,omitempty"`
	// Std says, in the ready message, which standard library the worker
	// links: "go1.26.8" for a native worker, "yaegi go1.22" for the
	// interpreter's bundled tables.
	Std string `json:"std,omitempty"`
}
