package evalworker

import (
	"fmt"
	"syscall"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER from <linux/prctl.h>.
const prSetChildSubreaper = 36

// applyLimits caps the worker's address space (its children inherit the
// limit) and makes the worker the subreaper of its descendants: a process
// that an evaluation started and that left its session (setsid) or lost
// its parent is reparented to the worker instead of init, so the manager
// still finds it among the worker's descendants and kills it with the
// worker. Failures are notes, not errors.
func applyLimits(opts Options) []string {
	var notes []string
	if opts.MemoryLimit > 0 {
		lim := syscall.Rlimit{Cur: uint64(opts.MemoryLimit), Max: uint64(opts.MemoryLimit)}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			notes = append(notes, fmt.Sprintf("could not set the memory limit of %d bytes: %v", opts.MemoryLimit, err))
		}
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		notes = append(notes, fmt.Sprintf("could not become the subreaper of evaluated processes: %v", errno))
	}
	return notes
}
