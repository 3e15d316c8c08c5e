package lsp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"trestle/internal/testfix"
)

// TestLazyTextIsJoinedOnceAndOnlyWhenSent: a text handed over lazily is
// joined when it is read (here by a position conversion, as a request
// would), once however many read it, and never when a newer text took its
// place first; an older key than the one held is dropped.
func TestLazyTextIsJoinedOnceAndOnlyWhenSent(t *testing.T) {
	c := New(Config{Root: t.TempDir()})
	defer c.Close()
	var joins [4]atomic.Int32
	lazy := func(key uint64) func() string {
		return func() string { joins[key].Add(1); return fmt.Sprintf("package a // %d\n", key) }
	}
	c.OpenDocumentLazy("a.go", 1, lazy(1))
	c.OpenDocumentLazy("a.go", 2, lazy(2))
	if n := joins[1].Load() + joins[2].Load(); n != 0 {
		t.Fatalf("%d texts were joined before anyone read them", n)
	}
	var readers sync.WaitGroup
	for range 8 {
		readers.Go(func() {
			if text, _ := c.text("a.go"); text != "package a // 2\n" {
				t.Errorf("gopls's text %q, want version 2's", text)
			}
		})
	}
	readers.Wait()
	if joins[1].Load() != 0 || joins[2].Load() != 1 {
		t.Errorf("joined version 1 %d times (want 0: replaced before it was read) and version 2 %d times (want 1)", joins[1].Load(), joins[2].Load())
	}
	c.OpenDocumentLazy("a.go", 1, lazy(1)) // a slower goroutine's older text
	c.OpenDocumentVersion("a.go", 1, func() (string, bool) { return "package a // 1\n", true })
	if text, _ := c.text("a.go"); text != "package a // 2\n" || joins[1].Load() != 0 {
		t.Errorf("after an older text came late: gopls's text %q, version 1 joined %d times", text, joins[1].Load())
	}
	c.OpenDocumentLazy("a.go", 3, lazy(3))
	c.OpenDocumentVersion("a.go", 3, func() (string, bool) { t.Error("a text the document holds was asked for"); return "", false })
	if text, _ := c.text("a.go"); text != "package a // 3\n" {
		t.Errorf("version 3: gopls's text %q", text)
	}
}

// TestLazyTextsFromManyGoroutinesReachGoplsNewestLast: editors' texts
// handed over from several goroutines in any order never leave gopls with
// an older one. The newest text declares undefinedN for its N, so the
// real gopls's diagnostics say which text it holds last, at the place
// that text has it.
func TestLazyTextsFromManyGoroutinesReachGoplsNewestLast(t *testing.T) {
	root := copyFixture(t)
	c := newClient(t, root, Config{})
	disk, err := os.ReadFile(filepath.Join(root, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	textOf := func(n int) string {
		return string(disk) + strings.Repeat("\n", n%7) + fmt.Sprintf("\nvar _ = undefined%d\n", n)
	}
	c.Start()
	const texts = 40
	order := rand.Perm(texts)
	var senders sync.WaitGroup
	for _, n := range order {
		senders.Go(func() {
			c.OpenDocumentLazy("main.go", uint64(n+1), func() string { return textOf(n) })
			if n%5 == 0 {
				c.Hover(ctxFor(t), "main.go", Position{Line: 10, Col: 2}) // a request syncs too, on its own goroutine
			}
		})
	}
	senders.Wait()
	newest := textOf(texts - 1)
	want := posIn(t, newest, fmt.Sprintf("undefined%d", texts-1), 0, 0)
	seen := testfix.WaitFor(t, wait, "gopls's diagnostics for the newest text only", func() ([]Diagnostic, bool) {
		ds := c.Diagnostics("main.go")
		return ds, len(ds) == 1 && strings.Contains(ds[0].Message, fmt.Sprintf("undefined%d", texts-1)) && ds[0].Range.Start == want
	}, testfix.Every(20*time.Millisecond))
	if text, _ := c.text("main.go"); text != newest {
		t.Fatalf("the client holds another text than the newest (diagnostics %+v)", seen)
	}
}

// TestLateDiagnosticsAreReadOnTheirOwnText: diagnostics gopls publishes
// for a version the editor has typed past (as the notification arrives
// from gopls) get their columns from that version's text, not the newer
// one, and name it by its key; those for the current version name it.
func TestLateDiagnosticsAreReadOnTheirOwnText(t *testing.T) {
	c := New(Config{Root: t.TempDir()})
	defer c.Close()
	c.OpenDocumentLazy("a.go", 10, func() string { return "package a\n\nvar s = \"😀\" + x\n" })
	c.text("a.go") // sent to gopls: version 1
	c.OpenDocumentLazy("a.go", 11, func() string { return "package a\n\nvar s = \"hello\" + x\n" })
	c.OpenDocumentLazy("a.go", 12, func() string { return "package a\n\nvar s = \"hello, world\" + x\n" })
	c.text("a.go") // version 3
	late := publishDiagnosticsParams{URI: fileURI(c.abs("a.go")), Version: 1, Diagnostics: []lspDiagnostic{{
		Range: lspRange{Start: position{Line: 2, Character: 15}, End: position{Line: 2, Character: 16}}, Message: "undefined: x"}}}
	c.publish(late)
	ds := c.Diagnostics("a.go")
	if len(ds) != 1 || ds[0].Range.Start != (Position{Line: 3, Col: 15}) || ds[0].Key != 10 {
		t.Fatalf("diagnostics for version 1: %+v, want x at 3:15 (😀 is one rune, two UTF-16 units) on the text of key 10", ds)
	}
	now := late
	now.Version = 3
	now.Diagnostics[0].Range = lspRange{Start: position{Line: 2, Character: 25}, End: position{Line: 2, Character: 26}}
	c.publish(now)
	if ds := c.Diagnostics("a.go"); len(ds) != 1 || ds[0].Range.Start != (Position{Line: 3, Col: 26}) || ds[0].Key != 12 {
		t.Fatalf("diagnostics for version 3: %+v, want x at 3:26 on the text of key 12", ds)
	}
}
