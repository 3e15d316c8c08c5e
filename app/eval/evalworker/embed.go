package evalworker

import "embed"

// Source is this package's own source. The native worker build writes it
// into a generated module so that the worker binary, built with the
// project's toolchain, runs exactly this loop. Test files are skipped by
// the writer.
//
//go:embed *.go
var Source embed.FS
