package eval

import (
	"encoding/json"
	"fmt"
	"os"
)

// WorkerOptionsEnv is the environment variable through which Manager hands
// WorkerOptions (as JSON) to the worker process it starts.
const WorkerOptionsEnv = "TRESTLE_EVAL_OPTIONS"

// maxLine bounds one protocol line: a request's code or a result's output
// and value, with room for JSON escaping.
const maxLine = 16 << 20

// MaxCodeBytes bounds the source of one evaluation.
const MaxCodeBytes = 1 << 20

// WorkerOptions configures RunWorker: the project and the selection the
// worker evaluates for.
type WorkerOptions struct {
	Root      string            `json:"root"`                // project root; the worker's working folder
	Module    string            `json:"module,omitempty"`    // the project's module path
	Selection string            `json:"selection,omitempty"` // selection name, for messages
	Tags      []string          `json:"tags,omitempty"`      // build tags
	Env       map[string]string `json:"env,omitempty"`       // set in the worker's environment
	Preload   []string          `json:"preload,omitempty"`   // import paths imported at start
	// GoPath is a GOPATH tree prepared with BuildGoPath. Empty: RunWorker
	// builds one in a temporary folder and removes it when it returns.
	GoPath string `json:"gopath,omitempty"`
	// ModCache is the module cache (GOMODCACHE). Empty: asked of `go env`.
	ModCache string `json:"modcache,omitempty"`
}

// WorkerOptionsFromEnv decodes the WorkerOptions that Manager put in the
// environment of the worker process. The --eval-worker mode calls it and
// passes the result to RunWorker.
func WorkerOptionsFromEnv() (WorkerOptions, error) {
	var opts WorkerOptions
	raw := os.Getenv(WorkerOptionsEnv)
	if raw == "" {
		return opts, fmt.Errorf("eval worker: %s is not set; the worker is started by the evaluator manager", WorkerOptionsEnv)
	}
	if err := json.Unmarshal([]byte(raw), &opts); err != nil {
		return opts, fmt.Errorf("eval worker: decode %s: %w", WorkerOptionsEnv, err)
	}
	return opts, nil
}

// request asks the worker to evaluate Code.
type request struct {
	ID   uint64 `json:"id"`
	Code string `json:"code"`
}

// Message kinds sent by the worker.
const (
	kindReady  = "ready"  // sent once, after start-up and preloading
	kindResult = "result" // the answer to one request
)

// response is one line from the worker.
type response struct {
	Kind          string   `json:"kind"`
	ID            uint64   `json:"id,omitempty"`
	Value         string   `json:"value,omitempty"`
	Type          string   `json:"type,omitempty"`
	Output        string   `json:"output,omitempty"`
	OutputDropped int64    `json:"output_dropped,omitempty"`
	Error         string   `json:"error,omitempty"`
	Notes         []string `json:"notes,omitempty"`
	DurationNS    int64    `json:"duration_ns,omitempty"`
}
