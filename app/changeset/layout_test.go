package changeset

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"trestle/app/errdefs"
	"trestle/app/store"
)

// bigText is n bytes of Go-looking text.
func bigText(seed, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "var v%d_%d = %d // padding line of a large generated file\n", seed, i, i)
	}
	return b.String()[:n]
}

// proposeBig proposes two new files of size bytes each.
func proposeBig(m *Manager, client string, seed, size int) (ChangeSet, error) {
	return m.Propose(diskReader(m.Project()), Proposal{Title: fmt.Sprintf("big %d", seed), Client: client, Changes: []Change{
		{Path: fmt.Sprintf("gen/a%d.go", seed), Action: ActionCreate, Content: bigText(seed, size)},
		{Path: fmt.Sprintf("gen/b%d.go", seed), Action: ActionCreate, Content: bigText(seed+1, size)},
	}})
}

// TestListReadsOnlySmallRecords: file bodies live apart from the records
// lists read, so the database stays small however large the proposals.
func TestListReadsOnlySmallRecords(t *testing.T) {
	p := newProject(t, map[string]string{"main.go": "package main\n"})
	m := newManager(t, p)
	const size = 7_900_000
	var last ChangeSet
	for i := range 3 {
		cs, err := proposeBig(m, fmt.Sprintf("agent-%d", i), i*2, size)
		if err != nil {
			t.Fatal(err)
		}
		last = cs
	}
	list, err := m.List("")
	if err != nil || len(list) != 3 {
		t.Fatalf("list: %d, %v", len(list), err)
	}
	for _, cs := range list {
		for _, f := range cs.Files {
			if f.New != "" || f.Base != "" || f.Content != "" {
				t.Fatalf("%s %s: a list carries the file body", cs.ID, f.Path)
			}
		}
		if cs.Bytes < 2*size {
			t.Errorf("%s records %d bytes of bodies, want at least %d", cs.ID, cs.Bytes, 2*size)
		}
	}
	full, err := m.Full(last.ID)
	if err != nil || len(full.Files[0].New) != size || full.Files[1].New != bigText(5, size) {
		t.Fatalf("full: %v", err)
	}
	if got, _ := m.Get(last.ID); got.Files[0].New != "" {
		t.Fatal("Get carries the bodies")
	}
	info, err := os.Stat(m.store.Path())
	if err != nil {
		t.Fatal(err)
	}
	if info.Size() > 1<<20 {
		t.Errorf("state.db is %d bytes after 3 proposals of 2 x 7.9 MB; the bodies belong beside it", info.Size())
	}
}

// TestProposeLimitsWhatWaits: past the limits on waiting sets per project,
// per client and in bytes, a proposal is refused (errdefs.ErrRefused) saying
// what to do, nothing is stored, and a decision frees a place.
func TestProposeLimitsWhatWaits(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n"})
	m := newManager(t, p)
	propose := func(client string, i int) (ChangeSet, error) {
		return m.Propose(diskReader(p), Proposal{Title: "t", Client: client, Changes: []Change{
			{Path: fmt.Sprintf("n%d.go", i), Action: ActionCreate, Content: "package a\n"}}})
	}
	i := 0
	for range MaxPendingPerClient {
		if _, err := propose("flooder", i); err != nil {
			t.Fatal(err)
		}
		i++
	}
	_, err := propose("flooder", i)
	if !errors.Is(err, errdefs.ErrRefused) || !strings.Contains(err.Error(), "flooder already has 20 change sets waiting") {
		t.Fatalf("past the per-client limit: %v", err)
	}
	for c := 0; i < MaxPendingPerProject; c++ {
		if _, err := propose(fmt.Sprintf("agent-%d", c/10), i); err != nil {
			t.Fatal(err)
		}
		i++
	}
	_, err = propose("newcomer", i)
	if !errors.Is(err, errdefs.ErrRefused) || !strings.Contains(err.Error(), "already has 50 change sets waiting") {
		t.Fatalf("past the per-project limit: %v", err)
	}
	if list, _ := m.List(""); len(list) != MaxPendingPerProject {
		t.Fatalf("%d sets stored, want %d", len(list), MaxPendingPerProject)
	}
	list, _ := m.List("")
	if _, err := m.Reject(list[0].ID, "too many"); err != nil {
		t.Fatal(err)
	}
	if _, err := propose("newcomer", i); err != nil {
		t.Fatalf("after a decision: %v", err)
	}
	// Another project has its own places.
	other := NewManager(m.store, newProject(t, map[string]string{"b.go": "package b\n"}))
	if _, err := other.Propose(diskReader(other.Project()), Proposal{Title: "t", Client: "flooder",
		Changes: []Change{{Path: "x.go", Action: ActionCreate, Content: "x\n"}}}); err != nil {
		t.Fatalf("another project: %v", err)
	}
}

// TestProposeLimitsBytes: the file bodies waiting in one project are bounded.
func TestProposeLimitsBytes(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MB")
	}
	p := newProject(t, map[string]string{"a.go": "package a\n"})
	m := newManager(t, p)
	const size = 7_900_000
	for i := range 2 {
		if _, err := proposeBig(m, "hog", i*2, size); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	_, err := proposeBig(m, "hog", 50, size)
	if !errors.Is(err, errdefs.ErrRefused) || !strings.Contains(err.Error(), "MiB limit per client") {
		t.Fatalf("past the per-client byte limit: %v", err)
	}
	for i := 2; i < 4; i++ {
		if _, err := proposeBig(m, fmt.Sprintf("c%d", i), i*2, size); err != nil {
			t.Fatalf("set %d: %v", i, err)
		}
	}
	_, err = proposeBig(m, "c9", 100, size)
	if !errors.Is(err, errdefs.ErrRefused) || !strings.Contains(err.Error(), "MiB limit per project") {
		t.Fatalf("past the byte limit: %v", err)
	}
	blobs, _ := m.store.BlobIDs(bodiesBucket)
	if len(blobs) != 4 {
		t.Errorf("%d bodies kept, want 4", len(blobs))
	}
}

// TestPruneDecidedSets: a decided set past the person's retention is
// removed with its bodies at the next proposal; an undecided one never is.
func TestPruneDecidedSets(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n", "c.go": "c\n"})
	m := newManager(t, p)
	set := store.DefaultSettings()
	set.ChangeSetRetentionDays = 7
	if err := m.store.SaveSettings(set); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	m.now = func() time.Time { return now }
	old, waiting := proposeOne(t, m, "a.go"), proposeOne(t, m, "b.go")
	if _, err := m.Reject(old.ID, "no"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(6 * 24 * time.Hour)
	proposeOne(t, m, "c.go")
	if _, err := m.Get(old.ID); err != nil {
		t.Fatalf("pruned before its retention: %v", err)
	}
	now = now.Add(2 * 24 * time.Hour)
	proposeOne(t, m, "a.go")
	if _, err := m.Get(old.ID); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("a set rejected 8 days ago with a 7-day retention: %v", err)
	}
	n, _ := parseID(old.ID)
	if _, err := m.store.ReadBlob(bodiesBucket, n); !errors.Is(err, errdefs.ErrNotFound) {
		t.Errorf("its bodies are still there: %v", err)
	}
	if _, err := m.Full(waiting.ID); err != nil {
		t.Fatalf("an undecided set was pruned: %v", err)
	}
}

// putLegacy stores cs whole in the layout before bodies moved out, as an
// older Trestle left it, and returns its id.
func putLegacy(t testing.TB, s *store.Store, cs ChangeSet) string {
	t.Helper()
	n, err := s.NextRecordID(legacyBucket)
	if err != nil {
		t.Fatal(err)
	}
	cs.ID = idPrefix + fmt.Sprint(n)
	data, _ := json.Marshal(cs)
	if err := s.PutRecord(legacyBucket, n, data); err != nil {
		t.Fatal(err)
	}
	return cs.ID
}

// TestMigrateLegacyLayout: sets of the old layout are moved at open; their
// ids stay, new ids do not reuse them, and the old bucket goes.
func TestMigrateLegacyLayout(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n"})
	db, err := store.Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	full, err := Propose(p, diskReader(p), Proposal{Title: "old", Client: "agent", Changes: []Change{
		{Path: "a.go", Action: ActionReplace, Content: "package a // new\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	full.Created = time.Now()
	id1, id2 := putLegacy(t, db, full), putLegacy(t, db, full)
	other := full
	other.Project = "/elsewhere"
	putLegacy(t, db, other)
	m := NewManager(db, p)
	list, err := m.List("")
	if err != nil || len(list) != 2 || list[0].ID != id2 || list[1].ID != id1 {
		t.Fatalf("list after migration: %v %v", ids(list), err)
	}
	got, err := m.Full(id1)
	if err != nil || got.Files[0].New != "package a // new\n" || got.Files[0].Base != "package a\n" {
		t.Fatalf("full: %+v %v", got.Files, err)
	}
	if _, err := m.Apply(id1, nil, diskReader(p), nil); err != nil {
		t.Fatalf("apply a migrated set: %v", err)
	}
	next := proposeOne(t, m, "a.go")
	if next.ID != "cs-4" {
		t.Errorf("new id %s, want cs-4 after the three old ones", next.ID)
	}
	if recs, _ := db.ListRecords(legacyBucket); len(recs) != 0 {
		t.Errorf("%d records left in the old layout", len(recs))
	}
}

// TestPruneRunsOncePerInterval: Start and Propose prune only when no
// process sharing the store pruned in the last pruneEvery, so a CLI call
// does not decode every stored record; past it, the next one prunes.
func TestPruneRunsOncePerInterval(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "a\n", "b.go": "b\n"})
	m := newManager(t, p)
	set := store.DefaultSettings()
	set.ChangeSetRetentionDays = 1
	if err := m.store.SaveSettings(set); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	clock := func() time.Time { return now }
	m.now = clock
	old := proposeOne(t, m, "a.go") // prunes (never pruned before) and notes when
	if _, err := m.Reject(old.ID, "no"); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * 24 * time.Hour) // past the retention...
	again := NewManager(m.store, p)
	again.now = clock
	if err := m.store.UpdateRecords(func(tx *store.RecordTx) error { // ...but pruned a moment ago
		stamp, _ := now.Add(-pruneEvery / 2).MarshalText()
		return tx.Put(maintenanceBucket, lastPruneKey, stamp)
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := again.Start(); err != nil {
		t.Fatal(err)
	}
	proposeOne(t, again, "b.go")
	if _, err := again.Get(old.ID); err != nil {
		t.Fatalf("pruned again within pruneEvery: %v", err)
	}
	now = now.Add(pruneEvery)
	later := NewManager(m.store, p)
	later.now = clock
	if _, err := later.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := later.Get(old.ID); !errors.Is(err, errdefs.ErrNotFound) {
		t.Fatalf("not pruned once pruneEvery passed: %v", err)
	}
}

// TestBodiesEncodingRoundTrips: the binary encoding gives back every
// body as it was, with text JSON would escape (quotes, NULs, invalid
// UTF-8, newlines), empty strings and no edits kept apart from empty ones.
func TestBodiesEncodingRoundTrips(t *testing.T) {
	bodies := []fileBody{
		{Path: "a.go", Base: "package a\n", New: "package a // \"new\"\n",
			Edits: []Edit{{OldText: "package a", NewText: "package a \x00\xff\xfe"}, {OldText: "", NewText: "x"}}},
		{Path: "dir/ü.txt", Base: "", New: strings.Repeat("line\r\n", 1000), Edited: true, Proposed: "agent's\ttext"},
		{Path: "gone.go", Base: "bye\n"},
	}
	data := encodeBodies(bodies)
	got, err := decodeBodies(data)
	if err != nil {
		t.Fatal(err)
	}
	if want, _ := json.Marshal(bodies); !reflectEqualJSON(t, got, want) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, bodies)
	}
	if got[2].Edits != nil {
		t.Errorf("no edits came back as %#v, want nil (as JSON's omitempty left it)", got[2].Edits)
	}
	for cut := len(bodiesMagic); cut < len(data); cut += 1 + cut/3 {
		if _, err := decodeBodies(data[:cut]); err == nil {
			t.Fatalf("a blob cut at %d of %d bytes decoded", cut, len(data))
		}
	}
	if _, err := decodeBodies(append(data, 0)); err == nil {
		t.Fatal("a blob with a byte past its bodies decoded")
	}
}

// reflectEqualJSON compares got with the JSON of what was encoded, so
// nil and empty slices compare as JSON's omitempty treats them.
func reflectEqualJSON(t *testing.T, got []fileBody, want []byte) bool {
	t.Helper()
	g, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	return string(g) == string(want)
}

// TestJSONBodiesOfAnOlderStoreStillApply: a set whose bodies an older
// Trestle stored as JSON reads whole and applies, and a damaged blob is
// refused naming the set, not taken for empty files.
func TestJSONBodiesOfAnOlderStoreStillApply(t *testing.T) {
	p := newProject(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	m := newManager(t, p)
	cs, err := m.Propose(diskReader(p), Proposal{Title: "t", Changes: []Change{
		{Path: "a.go", Action: ActionEdit, Edits: []Edit{{OldText: "package a", NewText: "package a // \"edited\""}}},
		{Path: "b.go", Action: ActionDelete},
		{Path: "c.go", Action: ActionCreate, Content: "package c\n"}}})
	if err != nil {
		t.Fatal(err)
	}
	n, _ := parseID(cs.ID)
	data, err := m.store.ReadBlob(bodiesBucket, n)
	if err != nil || !strings.HasPrefix(string(data), bodiesMagic) {
		t.Fatalf("a new set's bodies are not in the binary encoding: %.20q %v", data, err)
	}
	bodies, _ := decodeBodies(data)
	old, _ := json.Marshal(bodies)
	if err := m.store.WriteBlob(bodiesBucket, n, old); err != nil {
		t.Fatal(err)
	}
	full, err := m.Full(cs.ID)
	if err != nil || full.Files[0].New != "package a // \"edited\"\n" || full.Files[2].Content != "package c\n" {
		t.Fatalf("full from JSON bodies: %+v %v", full.Files, err)
	}
	if _, err := m.Apply(cs.ID, nil, diskReader(p), nil); err != nil {
		t.Fatalf("apply from JSON bodies: %v", err)
	}
	if got := snapshot(t, p); got["a.go"].text != "package a // \"edited\"\n" || got["c.go"].text != "package c\n" {
		t.Fatalf("after the apply: %v", got)
	}
	if err := m.store.WriteBlob(bodiesBucket, n, data[:len(data)-3]); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Full(cs.ID); err == nil || !strings.Contains(err.Error(), cs.ID) {
		t.Fatalf("a damaged blob: %v", err)
	}
}
