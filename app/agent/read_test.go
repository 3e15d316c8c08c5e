package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/permission"
	"trestle/app/project"
	"trestle/internal/testfix"
)

// writeBig writes about 7 MiB of Go-like lines to the project file rel
// and waits until its last change is 3 s old: Read remembers the hashes
// of files unchanged for 2 s (project.Sums).
func writeBig(tb testing.TB, root, rel, word string) string {
	tb.Helper()
	line := "\tx := " + word + " // a line of a generated file, long enough to count\n"
	text := strings.Repeat(line, 7<<20/len(line))
	if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	written := time.Now()
	testfix.Wait(tb, time.Minute, rel+" to be unchanged for 3 s", func() bool { return time.Since(written) > 3*time.Second },
		testfix.Every(100*time.Millisecond))
	return text
}

// TestReadOfABigFileAnswersAsTheDisk: Read of an unchanged 7 MiB file
// gives the same text, line count and sha256 every time (the second from
// the hashes it remembers), and a rewrite of the same size with its
// modification time set back is read and hashed afresh.
func TestReadOfABigFileAnswersAsTheDisk(t *testing.T) {
	a, _ := newAgent(t, permission.PolicyAllow, nil)
	root, ctx := a.Project().Root, context.Background()
	check := func(text string) {
		t.Helper()
		sum := sha256.Sum256([]byte(text))
		for range 2 {
			out, err := a.Read(ctx, "big.txt", 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			if out.Text != text || out.SHA256 != hex.EncodeToString(sum[:]) || out.Lines != strings.Count(text, "\n") || out.EndLine != out.Lines {
				t.Fatalf("Read = %d bytes, %d lines (to %d), sha256 %s; want %d bytes, %d lines, sha256 %x",
					len(out.Text), out.Lines, out.EndLine, out.SHA256, len(text), strings.Count(text, "\n"), sum)
			}
		}
	}
	text := writeBig(t, root, "big.txt", "1")
	check(text)
	info, err := os.Stat(filepath.Join(root, "big.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text = writeBig(t, root, "big.txt", "2")
	if err := os.Chtimes(filepath.Join(root, "big.txt"), info.ModTime(), info.ModTime()); err != nil {
		t.Fatal(err)
	}
	check(text)
}

// BenchmarkReadUnchanged7MiB: a read of an unchanged 7 MiB file, the
// first an Agent makes (hashed) and the next ones (remembered).
func BenchmarkReadUnchanged7MiB(b *testing.B) {
	root := testfix.Project(b, map[string]string{"go.mod": "module example.com/x\n\ngo 1.22\n"})
	writeBig(b, root, "big.txt", "1")
	a := benchAgent(b, root)
	ctx := context.Background()
	b.Run("hashed", func(b *testing.B) {
		for b.Loop() {
			if _, err := benchAgent(b, root).Read(ctx, "big.txt", 0, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("remembered", func(b *testing.B) {
		for b.Loop() {
			if _, err := a.Read(ctx, "big.txt", 0, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchAgent is a headless Agent over the project at root.
func benchAgent(b *testing.B, root string) *Agent {
	p, err := project.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	return New(Config{Project: p})
}
