package gitstatus

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// An untrusted project's git runs with every setting of the repository's
// own config files neutralised except the few on keptKeys: git is asked
// which settings its config files hold (`git config --list --show-scope`,
// which follows include.path and includeIf as every other command does,
// and gives an included file's settings the scope of the file that
// includes it) and each one the repository sets (scope local or worktree,
// or any scope but the person's own) and does not keep is set to "" for
// the command, through GIT_CONFIG_COUNT, which wins over every file. No
// list of dangerous keys is needed, so a key nobody thought of (a filter
// driver's clean or process, a diff driver's textconv or command,
// diff.external, core.sshCommand, credential.helper, a driver in an
// included file, a subsection holding '=' that a -c cannot name) cannot
// slip through. An empty value turns each of them off. A setting git then
// cannot read as empty (a number, say) makes the command fail rather than
// run anything: fail closed.
//
// The person's own settings (scopes system and global: /etc/gitconfig,
// ~/.gitconfig and what they include) are theirs, not the project's, and
// stay: their git-lfs filter (filter.lfs.*) keeps working. Where the
// repository redefines one of them, the "" is followed by the person's
// own values again, so the last value, which git uses, is the person's
// (and a list that "" resets, such as credential.helper, is theirs).

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

// personScopes are the scopes of the person's own config files.
var personScopes = map[string]bool{"system": true, "global": true}

// neutralEnv lists the settings git would read for repo and returns the
// environment that sets each one the repository sets and does not keep
// to "" (and back to the person's own values, where they have some),
// after env.
func neutralEnv(ctx context.Context, repo Repository, env []string) ([]string, error) {
	cmd := command(ctx, repo, append(slices.Clip(env), "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0="+probeKey, "GIT_CONFIG_VALUE_0=true"),
		"config", "--list", "--show-scope", "-z")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list the git settings of %s: %v: %s", repo.WorkTree, err, strings.TrimSpace(stderr.String()))
	}
	settings, probed := neutralSettings(out)
	if !probed {
		return nil, fmt.Errorf("git does not take settings from GIT_CONFIG_COUNT (git 2.31 or newer does), so the settings of %s "+
			"cannot be turned off: git is not run for an untrusted project; install a newer git or trust the project", repo.WorkTree)
	}
	env = append(env, "GIT_CONFIG_COUNT="+strconv.Itoa(len(settings)))
	for i, kv := range settings {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env, nil
}

// neutralSettings reads `git config --list --show-scope -z` ("scope\0key\nvalue\0",
// or "scope\0key\0" for a key without a value) and returns the settings
// to add, as {key, value}: "" for each key the repository sets and does
// not keep, then the person's own values of that key, in order. It also
// reports whether the probe was listed.
func neutralSettings(out []byte) (settings [][2]string, probed bool) {
	type entry struct{ scope, key, value string }
	var entries []entry
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		key, value, hasValue := strings.Cut(fields[i+1], "\n")
		if !hasValue {
			value = "true" // a key alone is a boolean that is on
		}
		entries = append(entries, entry{fields[i], key, value})
	}
	seen := map[string]bool{}
	for _, e := range entries {
		switch {
		case e.scope == "command" && e.key == probeKey:
			probed = true
		case e.scope == "command", personScopes[e.scope], seen[e.key], kept(e.key), skipped(e.key):
		default:
			seen[e.key] = true
			settings = append(settings, [2]string{e.key, ""})
			for _, own := range entries {
				if personScopes[own.scope] && own.key == e.key {
					settings = append(settings, [2]string{own.key, own.value})
				}
			}
		}
	}
	return settings, probed
}
