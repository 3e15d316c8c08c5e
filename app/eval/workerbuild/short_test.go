package workerbuild

import (
	"strings"
	"testing"
)

// TestBuildErrorShortIsTheCause (issue 21): a failed link is said in one
// short line with the cause's last lines, never gcc's command line.
func TestBuildErrorShortIsTheCause(t *testing.T) {
	gcc := "/usr/bin/gcc -m64 -o $WORK/b001/exe/a.out -rdynamic -Wl,--compress-debug-sections=zlib " + strings.Repeat("/tmp/go-link-1/go.o ", 120)
	be := &BuildError{Output: strings.Join([]string{
		"example.com/m/trestle_eval_worker",
		"# example.com/m/trestle_eval_worker",
		"/usr/local/go/pkg/tool/linux_amd64/link: running gcc failed: exit status 1",
		gcc,
		"/usr/bin/ld: /tmp/go-link-1/go.o: in function `modernc.org/libc.Xsigaction':",
		"/root/go/pkg/mod/modernc.org/libc@v1.66.3/libc_linux.go:1234: undefined reference to `modernc.org/libc.X__libc_sigaction'",
		"collect2: error: ld returned 1 exit status",
	}, "\n")}
	s := be.Short()
	if strings.Contains(s, "\n") || len(s) > 320 || strings.Contains(s, "-rdynamic") || !strings.Contains(s, "undefined reference to `modernc.org/libc.X__libc_sigaction'") {
		t.Fatalf("Short() = %q", s)
	}
	groups := []*tableGroup{{module: "trestle.invalid/evaltables/x", paths: []string{"modernc.org/libc"}}}
	got := dropUnlinked(be.Output, groups)
	if len(got) != 1 || !strings.HasPrefix(got[0], "modernc.org/libc: its symbol table did not link") || !groups[0].dropped {
		t.Fatalf("dropUnlinked = %q, dropped %v", got, groups[0].dropped)
	}
}
