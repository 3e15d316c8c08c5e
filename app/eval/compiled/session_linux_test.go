package compiled

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
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

// hostEnv makes the test binary host a compiled evaluation that starts a
// setsid child, writes its pid to the file the variable names, and waits.
const hostEnv = "TRESTLE_TEST_COMPILED_HOST"

// TestCompiledHost is the process TestCompiledChildrenDieWithTheServer
// kills; it does nothing in an ordinary run.
func TestCompiledHost(t *testing.T) {
	pidFile := os.Getenv(hostEnv)
	if pidFile == "" {
		t.Skip("run by TestCompiledChildrenDieWithTheServer")
	}
	s, _ := newSession(t)
	s.Run(context.Background(), "import \"os/exec\"\nimport \"os\"\nimport \"fmt\"\nimport \"time\"\ncmd := exec.Command(\"setsid\", \"sleep\", \"300\")\n_ = cmd.Start()\n"+
		"os.WriteFile("+strconv.Quote(pidFile)+", []byte(fmt.Sprint(cmd.Process.Pid)), 0o644)\ntime.Sleep(time.Hour)", time.Hour)
}

// TestCompiledChildrenDieWithTheServer (issue 20): when the process that
// runs the evaluator dies (SIGKILL: no cleanup of its own), the compiled
// program and what it started, even with setsid, die too.
func TestCompiledChildrenDieWithTheServer(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	host := exec.Command(os.Args[0], "-test.run=^TestCompiledHost$", "-test.timeout=10m")
	host.Env = append(os.Environ(), hostEnv+"="+pidFile, "TMPDIR="+t.TempDir()) // what it leaves is removed with ours
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	var pid int
	deadline := time.Now().Add(5 * time.Minute)
	for pid == 0 {
		data, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		if pid == 0 && time.Now().After(deadline) {
			t.Fatal("the hosted program never started its child")
		}
		time.Sleep(20 * time.Millisecond)
	}
	host.Process.Kill()
	host.Wait()
	waitGone(t, pid, "after the server was killed")
}
