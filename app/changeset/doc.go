// Package changeset holds proposals an agent makes to change files of a
// project, and applies, rejects or reverts them for the person. A change set
// is validated when proposed (paths inside the project, edits that apply,
// sizes within limits), stored in the app store so a window and headless
// servers see the same proposals, checked against its base hashes before
// anything is written, and applied through temporary files and renames that
// are all rolled back if any one fails.
//
// changeset never imports Fyne, builds with CGO_ENABLED=0 and writes nothing
// to os.Stdout. It never writes a project file except through Apply and
// Revert, which the person asks for.
package changeset
