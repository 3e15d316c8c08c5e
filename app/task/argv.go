package task

import (
	"path/filepath"
	"slices"
	"strings"

	"trestle/app/projconf"
)

// goPackageCommands are the go subcommands whose non-flag arguments are
// package patterns.
var goPackageCommands = []string{"build", "test", "vet", "install", "list", "fmt", "generate", "doc", "fix"}

// goValueFlags are the go build and test flags that take the next argument
// as their value when it is not given with "=": `-run TestX` is one flag,
// not a flag and a package.
var goValueFlags = []string{
	"asmflags", "bench", "benchtime", "blockprofile", "blockprofilerate", "buildmode", "buildvcs", "C", "compiler",
	"count", "covermode", "coverpkg", "coverprofile", "cpu", "cpuprofile", "exec", "fullpath", "fuzz",
	"fuzzminimizetime", "fuzztime", "gccgoflags", "gcflags", "installsuffix", "ldflags", "list", "memprofile",
	"memprofilerate", "mod", "modfile", "mutexprofile", "mutexprofilefraction", "o", "outputdir", "overlay", "p",
	"parallel", "pgo", "pkgdir", "run", "shuffle", "skip", "tags", "timeout", "toolexec", "trace", "vettool",
}

// Argv is the command line a run of t with args executes: args are
// appended to the task's command, except that for a go command (go build,
// test, vet, ...) package patterns in args replace the task's own, so that
// {"task":"test","args":["-run","TestX","./app/..."]} runs
// `go test -run TestX ./app/...`, not `go test ./... -run TestX ./app/...`.
// It is a pure function.
func Argv(t projconf.Task, args []string) []string {
	cmd := slices.Clone(t.Command)
	if isGoPackageCommand(cmd) && len(packageArgs(args)) > 0 {
		own := packageArgs(cmd[2:])
		kept := cmd[:2]
		for i, a := range cmd[2:] {
			if !slices.Contains(own, i) {
				kept = append(kept, a)
			}
		}
		cmd = kept
	}
	return append(cmd, args...)
}

func isGoPackageCommand(cmd []string) bool {
	if len(cmd) < 2 {
		return false
	}
	name := strings.TrimSuffix(filepath.Base(cmd[0]), ".exe")
	return name == "go" && slices.Contains(goPackageCommands, cmd[1])
}

// packageArgs returns the indexes of the package patterns among a go
// command's arguments: what is neither a flag nor a flag's value, before
// -args (after it, arguments go to the test binary).
func packageArgs(args []string) []int {
	var out []int
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-args" || a == "--args" || a == "--":
			return out
		case strings.HasPrefix(a, "-"):
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && slices.Contains(goValueFlags, strings.TrimPrefix(name, "test.")) {
				i++ // its value
			}
		default:
			out = append(out, i)
		}
	}
	return out
}
