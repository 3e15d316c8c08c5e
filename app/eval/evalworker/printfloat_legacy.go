//go:build !go1.26

package evalworker

// runtimePrintsShortest: the runtime before Go 1.26 prints floats as
// "+1.500000e+000" (printFloat).
const runtimePrintsShortest = false
