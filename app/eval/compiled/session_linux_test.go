package compiled

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitGone waits until pid is gone (or a zombie), killing it and failing
// after a minute.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for syscall.Kill(pid, 0) == nil && !zombie(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s: process %d outlived the compiled program", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCompiledSetsidChildrenDie (issue 20): a process the program started
// in a session of its own (setsid: out of the process group) is killed
// when the program ends, and when the deadline kills it.
func TestCompiledSetsidChildrenDie(t *testing.T) {
	s, _ := newSession(t)
	// The input waits until the child has left (it is sleep once setsid
	// has called setsid and exec'd), so that the group kill cannot reach it.
	res := run(t, s, "import \"os/exec\"\nimport \"os\"\nimport \"fmt\"\ncmd := exec.Command(\"setsid\", \"sleep\", \"300\")\n_ = cmd.Start()\n"+
		"for { b, _ := os.ReadFile(fmt.Sprintf(\"/proc/%d/comm\", cmd.Process.Pid)); if string(b) == \"sleep\\n\" { break } }\ncmd.Process.Pid")
	pid, err := strconv.Atoi(res.Value)
	if err != nil {
		t.Fatalf("no pid: %+v", res)
	}
	waitGone(t, pid, "after main returned")

	res, err = s.Run(context.Background(), "import \"os/exec\"\nimport \"fmt\"\nimport \"time\"\ncmd := exec.Command(\"setsid\", \"sleep\", \"300\")\n_ = cmd.Start()\nfmt.Println(\"pid\", cmd.Process.Pid)\ntime.Sleep(time.Hour)", 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`pid (\d+)`).FindStringSubmatch(res.Output)
	if m == nil || !strings.Contains(res.Err, "deadline") {
		t.Fatalf("want the pid and the deadline, got %+v", res)
	}
	pid, _ = strconv.Atoi(m[1])
	waitGone(t, pid, "after the deadline")
}

// TestCompiledMemoryLimit (issue 20): the compiled program has the
// evaluator's address-space limit.
func TestCompiledMemoryLimit(t *testing.T) {
	root := writeModule(t, iterFiles)
	s := New(Options{Root: root, MemoryLimit: 256 << 20})
	t.Cleanup(s.Close)
	res := run(t, s, "b := make([]byte, 2<<30)\nfor i := range b { b[i] = 1 }\nlen(b)")
	if res.Value != "" || res.Err == "" {
		t.Fatalf("a 2 GiB allocation under a 256 MiB limit succeeded: %+v", res)
	}
	want(t, run(t, s, "b := make([]byte, 16<<20)\nb[0] = 1\nlen(b)"), "16777216", "int")
}
