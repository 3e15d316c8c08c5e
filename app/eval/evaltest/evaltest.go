// Package evaltest writes fixture projects for the evaluator's tests: a
// module that imports real dependencies from the module cache (bbolt,
// fsnotify, golang.org/x/sys/unix, segmentio/asm) and has packages of its
// own that yaegi can and cannot interpret (assembly at the module root and
// in an internal package below it, unsafe). It is used by tests only and
// never writes to os.Stdout.
package evaltest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/mod/modfile"
)

// Module is the fixture's module path.
const Module = "example.com/nativefix"

// fixtureDeps are the modules the fixture requires, at trestle's versions
// (so that trestle's go.sum covers their whole graph and the module cache
// has them).
var fixtureDeps = []string{"go.etcd.io/bbolt", "github.com/fsnotify/fsnotify", "golang.org/x/sys", "github.com/segmentio/asm"}

// files are the fixture's own packages.
var files = map[string]string{
	"store/store.go": `package store

import bolt "go.etcd.io/bbolt"

// RoundTrip opens a bbolt file, puts a value and reads it back.
func RoundTrip(path string) (string, error) {
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return "", err
	}
	defer db.Close()
	var got string
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists([]byte("b"))
		if err != nil {
			return err
		}
		if err := b.Put([]byte("k"), []byte("v")); err != nil {
			return err
		}
		got = string(b.Get([]byte("k")))
		return nil
	})
	return got, err
}
`,
	"watch/watch.go": `package watch

import "github.com/fsnotify/fsnotify"

// New returns a watcher.
func New() (*fsnotify.Watcher, error) { return fsnotify.NewWatcher() }
`,
	"sys/sys.go": `package sys

import "golang.org/x/sys/unix"

// PageSize is the memory page size.
func PageSize() int { return unix.Getpagesize() }
`,
	"text/text.go": `package text

import "github.com/segmentio/asm/ascii"

// Plain reports whether s is ASCII (segmentio/asm, assembly on amd64).
func Plain(s string) bool { return ascii.ValidString(s) }
`,
	"calc/calc.go": `package calc

// Add adds.
func Add(a, b int) int { return double(a+b) / 2 }

func double(n int) int { return 2 * n }
`,
	"fast/fast.go": `package fast

// Add adds, in assembly on amd64.
func Add(a, b int64) int64 { return add(a, b) }
`,
	"fast/add_amd64.go": `package fast

func add(a, b int64) int64
`,
	"fast/add_amd64.s": `#include "textflag.h"

// func add(a, b int64) int64
TEXT ·add(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), AX
	ADDQ b+8(FP), AX
	MOVQ AX, ret+16(FP)
	RET
`,
	"fast/add_other.go": `//go:build !amd64

package fast

func add(a, b int64) int64 { return a + b }
`,
	"raw/raw.go": `package raw

import (
	"unsafe"

	"example.com/nativefix/shared"
)

// IntSize is the size of an int in bytes.
func IntSize() int { return int(unsafe.Sizeof(0)) }

// Greet uses the shared package, which is compiled in with raw.
func Greet(n shared.Name) string { return "hello " + string(n) }
`,
	"shared/shared.go": `package shared

// Name is a name; raw takes one, so interpreted and compiled code must
// agree on the type.
type Name string
`,
	"broken/broken.go": `package broken

import "example.com/nativefix/calc"

// X does not compile: an import of this package fails.
var X int = "not an int"

// F would add.
func F() int { return calc.Add(1, 2) }
`,
	"lib/lib.go": `package lib

import "example.com/nativefix/lib/internal/fastsum"

// Sum sums with the internal package's assembly.
func Sum(a, b int64) int64 { return fastsum.Sum(a, b) }
`,
	"lib/internal/fastsum/sum.go": `package fastsum

// Sum adds, in assembly on amd64: an internal package below the module
// root that needs native linking.
func Sum(a, b int64) int64 { return sum(a, b) }
`,
	"lib/internal/fastsum/sum_amd64.go": `package fastsum

func sum(a, b int64) int64
`,
	"lib/internal/fastsum/sum_amd64.s": `#include "textflag.h"

// func sum(a, b int64) int64
TEXT ·sum(SB), NOSPLIT, $0-24
	MOVQ a+0(FP), AX
	ADDQ b+8(FP), AX
	MOVQ AX, ret+16(FP)
	RET
`,
	"lib/internal/fastsum/sum_other.go": `//go:build !amd64

package fastsum

func sum(a, b int64) int64 { return a + b }
`,
	"cmd/tool/main.go": `package main

func main() {}
`,
}

// Write writes the fixture module into dir. trestleRoot is trestle's own
// module root: its go.mod gives the dependency versions and its go.sum is
// the fixture's.
func Write(dir, trestleRoot string) error {
	data, err := os.ReadFile(filepath.Join(trestleRoot, "go.mod"))
	if err != nil {
		return err
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return err
	}
	var req strings.Builder
	for _, dep := range fixtureDeps {
		v := ""
		for _, r := range mf.Require {
			if r.Mod.Path == dep {
				v = r.Mod.Version
			}
		}
		if v == "" {
			return fmt.Errorf("trestle's go.mod does not require %s", dep)
		}
		fmt.Fprintf(&req, "\t%s %s\n", dep, v)
	}
	// The go line is trestle's: a module may not require a dependency
	// whose go line is newer than its own (bbolt's is 1.25).
	goLine := "1.22"
	if mf.Go != nil {
		goLine = mf.Go.Version
	}
	all := map[string]string{"go.mod": "module " + Module + "\n\ngo " + goLine + "\n\nrequire (\n" + req.String() + ")\n"}
	sum, err := os.ReadFile(filepath.Join(trestleRoot, "go.sum"))
	if err != nil {
		return err
	}
	all["go.sum"] = string(sum)
	for name, text := range files {
		all[name] = text
	}
	for name, text := range all {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// HasAssembly reports whether the fixture's fast package is assembly here.
func HasAssembly() bool { return runtime.GOARCH == "amd64" }

// CacheDir is the worker build cache the evaluator's tests share, across
// test packages and runs, like the Go build cache: builds are keyed by
// everything that goes into them, so a stale entry cannot be used, and a
// cold build (minutes on a small machine) happens once.
func CacheDir() string { return filepath.Join(os.TempDir(), "trestle-test-eval-cache") }
