package changeset

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"trestle/app/project"
	"trestle/app/store"
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
	read := func(project.Path) (string, bool, error) { return base, true, nil }
	in := Proposal{Title: "t", Changes: []Change{{Path: "big.go", Action: ActionEdit,
		Edits: []Edit{{OldText: "x15000 := compute(15000)", NewText: "x15000 := computeFaster(15000)"}}}}}
	b.SetBytes(int64(len(base)))
	for b.Loop() {
		if _, err := Propose(p, read, in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkList20BigProposals lists a project holding 20 proposals of two
// 7.9 MB files each (the store-bloat attack): "legacy layout" as List read
// them before (every record of every project decoded, bodies included),
// "current" as it reads them now (the project's small records only).
func BenchmarkList20BigProposals(b *testing.B) {
	p := newProject(b, map[string]string{"main.go": "package main\n"})
	full, err := Propose(p, diskReader(p), Proposal{Title: "big", Client: "agent", Changes: []Change{
		{Path: "gen/a.go", Action: ActionCreate, Content: bigText(1, 7_900_000)},
		{Path: "gen/b.go", Action: ActionCreate, Content: bigText(2, 7_900_000)},
	}})
	if err != nil {
		b.Fatal(err)
	}
	db, err := store.Open(filepath.Join(b.TempDir(), "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	for range 20 {
		putLegacy(b, db, full)
	}
	b.Run("legacy layout", func(b *testing.B) {
		for b.Loop() {
			recs, err := db.ListRecords(legacyBucket)
			if err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, r := range recs {
				var cs ChangeSet
				if err := json.Unmarshal(r.Value, &cs); err != nil {
					b.Fatal(err)
				}
				if cs.Project == p.Root {
					n++
				}
			}
			if n != 20 {
				b.Fatalf("%d sets", n)
			}
		}
	})
	m := NewManager(db, p)
	if _, err := m.Start(); err != nil { // moves the sets to the current layout
		b.Fatal(err)
	}
	b.Run("current", func(b *testing.B) {
		for b.Loop() {
			if list, err := m.List(""); err != nil || len(list) != 20 {
				b.Fatalf("%d sets, %v", len(list), err)
			}
		}
	})
}
