package ui

import (
	"errors"
	"path"
	"strings"

	"trestle/app/errdefs"
	"trestle/app/project"
	"trestle/app/watch"
	"trestle/ui/editor"
)

// diskFile is an open file as a watcher batch left it on disk, read off
// the main goroutine.
type diskFile struct {
	f    loaded // path always set; buf nil when gone or not text
	gone bool
	err  error // it could not be read
}

// filesChangedOnDisk is the window's onFilesChanged: it reads the open
// files a batch touched off the main goroutine, then reloads each
// unmodified editor and shows a banner over each modified one. Main
// goroutine only.
func (a *tabArea) filesChangedOnDisk(events []watch.Event) {
	paths := a.touchedBy(events)
	if len(paths) == 0 {
		return
	}
	p := a.project
	a.async(func() {
		files := readDisk(p, paths)
		a.main.do(func() {
			for _, d := range files {
				a.diskChanged(d)
			}
		})
	})
}

// readDisk reads each of paths for diskChanged. It does file I/O: never
// call it on the main goroutine.
func readDisk(p *project.Project, paths []string) []diskFile {
	out := make([]diskFile, 0, len(paths))
	for _, rel := range paths {
		f, err := loadFile(p, rel)
		d := diskFile{f: f, gone: errors.Is(err, errdefs.ErrNotFound)}
		if err != nil && !d.gone {
			d.err = err
		}
		d.f.path = rel
		out = append(out, d)
	}
	return out
}

// touchedBy returns the paths of the open editors that events may have
// changed: named by an event, inside a folder an event names, or all of
// them after watch.All.
func (a *tabArea) touchedBy(events []watch.Event) []string {
	var out []string
	for _, item := range a.docs.Items {
		t := a.byItem[item]
		if t != nil && t.view != nil && touches(events, t.path) {
			out = append(out, t.path)
		}
	}
	return out
}

func touches(events []watch.Event, rel string) bool {
	for _, ev := range events {
		if ev.Path == watch.All || ev.Path == rel || strings.HasPrefix(rel, ev.Path+"/") {
			return true
		}
	}
	return false
}

// diskChanged brings d's editor in line with the disk: nothing when the
// disk holds what the editor last read or wrote (our own save), a reload
// when the editor is unmodified, otherwise a banner that lets the person
// choose. A deleted file always gets a banner.
func (a *tabArea) diskChanged(d diskFile) {
	t := a.find(d.f.path)
	if t == nil || t.view == nil {
		return
	}
	e, name := t.view, path.Base(d.f.path)
	switch {
	case d.gone:
		e.ShowBanner(name+" was deleted on disk", editor.BannerAction{Label: "Close", Do: func() { a.remove(t.item) }}, editor.BannerAction{Label: "Keep"})
	case d.err != nil:
		a.notify(d.err.Error())
	case d.f.buf == nil:
		a.notify(d.f.path + " changed on disk and can no longer be shown as text: " + d.f.notice)
	case d.f.hash == e.DiskHash():
		e.HideBanner()
	case !e.Buffer().Modified():
		a.reload(t, d.f)
	default:
		hash := d.f.hash
		e.ShowBanner(name+" changed on disk",
			editor.BannerAction{Label: "Reload", Do: func() { a.reload(t, d.f) }},
			editor.BannerAction{Label: "Keep mine", Do: func() { e.SetDiskHash(hash) }})
	}
}

// reload shows f, just read from disk, in t's editor.
func (a *tabArea) reload(t *fileTab, f loaded) {
	t.view.SetText(f.buf, f.hl, f.hash)
	a.notify("Reloaded " + f.path + " from disk")
}
