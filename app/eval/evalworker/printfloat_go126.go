//go:build go1.26

package evalworker

// runtimePrintsShortest: the runtime of Go 1.26 and later prints floats
// as strconv's shortest 'g' (printFloat).
const runtimePrintsShortest = true
