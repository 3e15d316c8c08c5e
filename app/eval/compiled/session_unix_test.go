//go:build unix

package compiled

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunCompiledLeavesNoChildren: a process the program started is killed
// with its group when main returns.
func TestRunCompiledLeavesNoChildren(t *testing.T) {
	s, _ := newSession(t)
	res := run(t, s, "import \"os/exec\"\ncmd := exec.Command(\"sleep\", \"60\")\n_ = cmd.Start()\ncmd.Process.Pid")
	pid, err := strconv.Atoi(res.Value)
	if err != nil {
		t.Fatalf("no pid: %+v", res)
	}
	deadline := time.Now().Add(30 * time.Second)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the program's child %d outlived it", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// zombie: killed but not yet reaped by init.
func zombie(pid int) bool {
	var b [256]byte
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY, 0)
	if err != nil {
		return true
	}
	defer syscall.Close(fd)
	n, _ := syscall.Read(fd, b[:])
	return strings.Contains(string(b[:max(n, 0)]), ") Z ")
}
