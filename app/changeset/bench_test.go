package changeset

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkApply200Files applies a change set editing 200 files of about
// 4 KB each (target: 200 ms or less per apply).
func BenchmarkApply200Files(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		files := map[string]string{}
		var in Proposal
		in.Title = "rename everywhere"
		for i := range MaxFiles {
			name := fmt.Sprintf("pkg%d/file%d.go", i%10, i)
			files[name] = fmt.Sprintf("package pkg\n\n// file %d\n", i) + strings.Repeat("func f() { oldName() }\n", 170)
			in.Changes = append(in.Changes, Change{Path: name, Action: ActionEdit,
				Edits: []Edit{{OldText: fmt.Sprintf("// file %d\n", i), NewText: fmt.Sprintf("// file %d, renamed\n", i)}}})
		}
		p := newProject(b, files)
		m := newManager(b, p)
		cs, err := m.Propose(diskReader(p), in)
		if err != nil {
			b.Fatal(err)
		}
		syscall.Sync() // the project's files are on disk, as they would be
		b.StartTimer()
		if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProposeEdit1MB validates one edit of a 1 MB file: locating
// old_text, computing the new content and the diff stats.
func BenchmarkProposeEdit1MB(b *testing.B) {
	var body strings.Builder
	for i := 0; body.Len() < 1<<20; i++ {
		fmt.Fprintf(&body, "\tx%d := compute(%d) // some code on line %d\n", i, i, i)
	}
	base := "package big\n\nfunc f() {\n" + body.String() + "}\n"
	p := newProject(b, map[string]string{"big.go": base})
	read := func(string) (string, bool, error) { return base, true, nil }
	in := Proposal{Title: "t", Changes: []Change{{Path: "big.go", Action: ActionEdit,
		Edits: []Edit{{OldText: "x15000 := compute(15000)", NewText: "x15000 := computeFaster(15000)"}}}}}
	b.SetBytes(int64(len(base)))
	for b.Loop() {
		if _, err := Propose(p, read, in); err != nil {
			b.Fatal(err)
		}
	}
}
