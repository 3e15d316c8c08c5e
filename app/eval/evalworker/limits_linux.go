package evalworker

import (
	"fmt"
	"os"
	"strconv"
	"strings"
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
		// The limit is on what evaluations add: the address space the
		// worker already holds (the Go runtime's reservations, the race
		// detector's shadow) comes on top.
		total := uint64(opts.MemoryLimit) + addressSpace()
		lim := syscall.Rlimit{Cur: total, Max: total}
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
			notes = append(notes, fmt.Sprintf("could not set the memory limit of %d bytes: %v", opts.MemoryLimit, err))
		}
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		notes = append(notes, fmt.Sprintf("could not become the subreaper of evaluated processes: %v", errno))
	}
	return notes
}

// addressSpace is the process's current virtual size (VmSize) in bytes.
func addressSpace() uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
