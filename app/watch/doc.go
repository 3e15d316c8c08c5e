// Package watch reports changes in a project folder tree, in debounced
// batches of project-relative events. fsnotify is not recursive, so the
// watcher walks the tree at start and adds every folder as it appears.
//
// It skips .git, never follows symlinked folders, never imports Fyne and
// never writes to os.Stdout. A Watcher owns its goroutines: Close stops and
// waits for them.
package watch
