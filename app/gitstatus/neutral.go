package gitstatus

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// An untrusted project's git runs with every setting of every config file
// neutralised except the few on keptKeys: git is asked which settings its
// config files hold (`git config --list --show-scope`, which follows
// include.path and includeIf as every other command does) and each one
// not kept is set to "" for the command, through GIT_CONFIG_COUNT, which
// wins over every file. No list of dangerous keys is needed, so a key
// nobody thought of (a filter driver's clean or process, a diff driver's
// textconv or command, diff.external, core.sshCommand, credential.helper,
// a driver in an included file, a subsection holding '=' that a -c cannot
// name) cannot slip through. An empty value turns each of them off.
// A setting git then cannot read as empty (a number, say) makes the
// command fail rather than run anything: fail closed.

// keptKeys are the settings an untrusted repository keeps: what git needs
// to read its format and status correctly, none of which names a program
// or a file of settings. Keys are lower case, as git lists them;
// "section.*.name" stands for any subsection.
var keptKeys = keySet(`
	core.repositoryformatversion core.bare core.worktree
	core.filemode core.symlinks core.ignorecase core.precomposeunicode core.protecthfs core.protectntfs core.longpaths
	core.autocrlf core.eol core.safecrlf core.checkroundtripencoding
	core.quotepath core.trustctime core.checkstat core.splitindex core.preloadindex
	core.sparsecheckout core.sparsecheckoutcone core.logallrefupdates core.abbrev
	core.compression core.loosecompression core.bigfilethreshold core.packedgitwindowsize core.packedgitlimit
	core.deltabasecachelimit core.excludesfile core.attributesfile core.commentchar core.warnambiguousrefs
	core.multipackindex core.commitgraph core.sharedrepository
	diff.renames diff.renamelimit diff.ignoresubmodules feature.manyfiles feature.experimental
	branch.*.remote branch.*.merge branch.*.pushremote remote.*.fetch init.defaultbranch
`)

func keySet(list string) map[string]bool {
	set := map[string]bool{}
	for _, k := range strings.Fields(list) {
		set[k] = true
	}
	return set
}

// keptSections are sections whose every setting is kept: the repository's
// format extensions (a wrong one misreads the repository), the index's
// format, and status's own options. None names a program.
var keptSections = map[string]bool{"extensions": true, "index": true, "status": true}

// probeKey is set through GIT_CONFIG_COUNT when the settings are listed:
// a git that does not list it ignores GIT_CONFIG_COUNT (older than 2.31),
// so nothing could be neutralised and no command is run.
const probeKey = "trestle.neutralised"

// kept reports whether an untrusted repository keeps key.
func kept(key string) bool {
	section, rest, ok := strings.Cut(key, ".")
	if !ok {
		return false
	}
	if keptSections[section] || keptKeys[key] {
		return true
	}
	if i := strings.LastIndexByte(rest, '.'); i >= 0 { // section.subsection.name
		return keptKeys[section+".*."+rest[i+1:]]
	}
	return false
}

// never neutralised: include keys (an include cannot be undone, and what
// it includes is listed with the rest) and the settings of our own
// command line.
func skipped(key string) bool {
	return key == "include.path" || strings.HasPrefix(key, "includeif.")
}

// neutralEnv lists the settings git would read for repo and returns the
// environment that sets each one not kept to "", after env.
func neutralEnv(ctx context.Context, repo Repository, env []string) ([]string, error) {
	cmd := command(ctx, repo, append(slices.Clip(env), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0="+probeKey, "GIT_CONFIG_VALUE_0=true"),
		"config", "--list", "--name-only", "--show-scope", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the git settings of %s: %v: %s", repo.WorkTree, err, strings.TrimSpace(stderr.String()))
	}
	keys, probed := neutralKeys(out)
	if !probed {
		return nil, fmt.Errorf("git does not take settings from GIT_CONFIG_COUNT (git 2.31 or newer does), so the settings of %s "+
			"cannot be turned off: git is not run for an untrusted project; install a newer git or trust the project", repo.WorkTree)
	}
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(keys)))
	for i, k := range keys {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+k, "GIT_CONFIG_VALUE_"+n+"=")
	}
	return env, nil
}

// neutralKeys reads `git config --list --name-only --show-scope -z`
// ("scope\0key\0" pairs) and returns each key to neutralise once, and
// whether the probe was listed.
func neutralKeys(out []byte) (keys []string, probed bool) {
	seen := map[string]bool{}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		scope, key := fields[i], fields[i+1]
		switch {
		case scope == "command" && key == probeKey:
			probed = true
		case scope == "command", seen[key], kept(key), skipped(key):
		default:
			seen[key] = true
			keys = append(keys, key)
		}
	}
	return keys, probed
}
