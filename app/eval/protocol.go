package eval

import "trestle/app/eval/evalworker"

// WorkerOptionsEnv is the environment variable through which Manager hands
// WorkerOptions (as JSON) to the worker process it starts.
const WorkerOptionsEnv = evalworker.OptionsEnv

// maxLine bounds one protocol line.
const maxLine = evalworker.MaxLine

// MaxCodeBytes bounds the source of one evaluation.
const MaxCodeBytes = 1 << 20

// MaxOutputBytes caps what one evaluation's output keeps.
const MaxOutputBytes = evalworker.MaxOutputBytes

// WorkerOptions configures RunWorker: the project and the selection the
// worker evaluates for.
type WorkerOptions = evalworker.Options

// WorkerOptionsFromEnv decodes the WorkerOptions that Manager put in the
// environment of the worker process. The --eval-worker mode calls it and
// passes the result to RunWorker.
func WorkerOptionsFromEnv() (WorkerOptions, error) { return evalworker.OptionsFromEnv() }

type (
	request  = evalworker.Request
	response = evalworker.Response
)

const (
	kindReady  = evalworker.KindReady
	kindResult = evalworker.KindResult
)
