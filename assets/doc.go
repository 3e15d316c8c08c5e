// Package assets holds Trestle's embedded resources: the icon and the
// scratch project written on first run. It imports nothing of ours.
//
// The scratch project's files end in ".tmpl" so that the Go tool does not
// treat them as part of this module (a go.mod here would split the module
// and stop go:embed); project.WriteScratch strips the suffix.
package assets

import (
	"embed"
	"io/fs"
)

//go:embed icon.png
var Icon []byte

//go:embed all:scratch
var scratch embed.FS

// Scratch is the scratch project's files, rooted at the project folder.
func Scratch() fs.FS {
	sub, err := fs.Sub(scratch, "scratch")
	if err != nil {
		panic(err) // the folder is embedded above; this cannot fail
	}
	return sub
}
