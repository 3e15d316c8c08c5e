// Package procgroup starts commands in a process group of their own and
// signals the whole group, so that stopping an evaluator or a task also stops
// whatever it started (go test's test binaries, a shell's children).
//
// On Unix the group is a POSIX process group (Setpgid) signalled with
// kill(-pgid). Elsewhere only the leader is killed. Nothing here writes to
// os.Stdout.
package procgroup
