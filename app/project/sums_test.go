package project

import (
	"os"
	"strings"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// bigText is about 7 MiB of Go-like lines (MaxReadBytes is 8 MiB).
func bigText(word string) string {
	line := "\tx := " + word + " // a line of a generated file, long enough to count\n"
	return strings.Repeat(line, 7<<20/len(line))
}

// settled waits until the file at path last changed sumCutoff ago, so
// that a read of it may be remembered.
func settled(t *testing.T, path string) {
	t.Helper()
	testfix.WaitFor(t, time.Minute, path+" to be unchanged for "+sumCutoff.String(), func() (time.Duration, bool) {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		v, ok := versionOf(info)
		if !ok {
			t.Skip("this system gives no change time: Sums remembers nothing")
		}
		age := time.Since(v.lastChange())
		return age, age > sumCutoff
	}, testfix.Every(100*time.Millisecond))
}

// readBig opens a project with big.txt holding text, resolves it and
// waits until a read of it may be remembered.
func readBig(t *testing.T, text string) (*Project, Path) {
	t.Helper()
	p, err := Open(testfix.Project(t, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n", "big.txt": text}))
	if err != nil {
		t.Fatal(err)
	}
	cp, err := p.ResolveShown("big.txt")
	if err != nil {
		t.Fatal(err)
	}
	settled(t, cp.abs)
	return p, cp
}

// readAs reads cp with sums and fails unless the answer is what a read
// that hashes gives for want.
func readAs(t *testing.T, p *Project, cp Path, sums *Sums, want string) {
	t.Helper()
	got, err := p.ReadSummed(cp, sums)
	if err != nil {
		t.Fatal(err)
	}
	if w := NewFileText("big.txt", want); got != w {
		t.Fatalf("read %s (%d bytes, %d lines, sha256 %s), want %d bytes, %d lines, sha256 %s",
			got.Path, len(got.Text), got.Lines, got.SHA256, len(w.Text), w.Lines, w.SHA256)
	}
}

// TestSumsSpareHashingAnUnchangedFile: the second read of an unchanged
// 7 MiB file gives the same answer without hashing it again.
func TestSumsSpareHashingAnUnchangedFile(t *testing.T) {
	text := bigText("1")
	p, cp := readBig(t, text)
	var sums Sums
	readAs(t, p, cp, &sums, text)
	readAs(t, p, cp, &sums, text)
	readAs(t, p, cp, nil, text)
	if sums.hashed != 1 {
		t.Fatalf("two reads of an unchanged file hashed %d times, want once", sums.hashed)
	}
}

// TestSumsSeeAChangeThatKeepsSizeAndTimes: a rewrite of the same size
// whose modification time is set back (cp -p, rsync -t) is hashed again,
// and a file changed within sumCutoff of its read is hashed at every read.
func TestSumsSeeAChangeThatKeepsSizeAndTimes(t *testing.T) {
	before := bigText("1")
	p, cp := readBig(t, before)
	var sums Sums
	readAs(t, p, cp, &sums, before)
	info, err := os.Stat(cp.abs)
	if err != nil {
		t.Fatal(err)
	}
	after := bigText("2")
	if err := os.WriteFile(cp.abs, []byte(after), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(cp.abs, info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	changed, _ := os.Stat(cp.abs)
	if changed.Size() != info.Size() || !changed.ModTime().Equal(info.ModTime()) {
		t.Fatalf("the rewrite changed size or time: %d %v, was %d %v", changed.Size(), changed.ModTime(), info.Size(), info.ModTime())
	}
	readAs(t, p, cp, &sums, after)
	readAs(t, p, cp, &sums, after)
	v, _ := versionOf(changed)
	if recent := time.Since(v.lastChange()) < sumCutoff; recent && sums.hashed != 3 {
		t.Fatalf("reads within %s of a change hashed %d times in all, want 3 (each read)", sumCutoff, sums.hashed)
	}
}

// TestSumsAreBounded: Sums remembers at most maxSums files.
func TestSumsAreBounded(t *testing.T) {
	var sums Sums
	for i := range maxSums + 10 {
		sums.hash("/p/"+string(rune('a'+i%26))+strings.Repeat("x", i/26), "f", "text", fileVersion{ino: uint64(i), size: 4})
	}
	if n := len(sums.byPath); n != maxSums {
		t.Fatalf("Sums remembers %d files, want %d", n, maxSums)
	}
}
