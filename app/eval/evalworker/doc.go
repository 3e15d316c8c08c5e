// Package evalworker is the worker side of the evaluator: a yaegi
// interpreter serving JSON-line requests, with the packages it is given
// linked natively and everything else interpreted from source.
//
// It imports only the standard library and yaegi's interp package, because
// its source (Source) is also compiled into each project's native worker
// binary with the project's own toolchain and module graph. Nothing here
// writes to os.Stdout except Run's protocol stream, the writer handed to it;
// the evaluated code's output is captured per evaluation.
package evalworker
