// Package projconf reads a project's optional .trestle.json: the selections
// (build tags, environment and packages to preload for the evaluator) and the
// tasks (commands the task runner may start).
//
// A missing file gives the defaults; a malformed one gives the defaults and an
// error that names the file, the line and column, and what is wrong, so the
// window can show one clear message and carry on. Nothing here runs commands or
// writes to os.Stdout.
package projconf
