package eval

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// totalMemory is the machine's RAM in bytes.
func totalMemory() int64 {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) != nil {
		return 0
	}
	return int64(info.Totalram) * int64(info.Unit)
}

// pidAlive reports whether a process with that pid exists.
func pidAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByUs reports whether path belongs to the current user.
func ownedByUs(path string) bool {
	info, err := os.Lstat(path)
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// maxKillRounds bounds the descendant sweeps: each round kills what it
// found; a process forked meanwhile is found by the next.
const maxKillRounds = 8

// killDescendants SIGKILLs every descendant of pid, found through /proc.
// The worker is their subreaper (evalworker), so a process that left the
// worker's process group with setsid, or whose parent died, is still below
// the worker until the worker itself dies; that is why this runs before the
// worker is killed.
func killDescendants(pid int) {
	for range maxKillRounds {
		found := descendants(pid)
		if len(found) == 0 {
			return
		}
		for _, d := range found {
			syscall.Kill(d, syscall.SIGKILL)
		}
	}
}

// descendants lists the live descendants of pid (zombies excluded).
func descendants(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		rest := string(data)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) < 2 || f[0] == "Z" {
			continue
		}
		ppid, err := strconv.Atoi(f[1])
		if err == nil {
			children[ppid] = append(children[ppid], p)
		}
	}
	var out []int
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}
