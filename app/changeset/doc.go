// Package changeset holds proposals an agent makes to change files of a
// project, and applies, rejects or reverts them for the person. A change set
// is validated when proposed (paths inside the project, edits that apply,
// sizes within limits), stored in the app store so a window and headless
// servers see the same proposals, checked against its base hashes before
// anything is written, and applied through temporary files and renames that
// are all rolled back if any one fails.
//
// Review is per hunk. Hunks(fc) returns a file's hunks, numbered from 1;
// each FileChange carries a HunkState per hunk. ApplySelection applies
// exactly the hunks a Selection accepts (a hunk whose file changed since is
// a conflict, never forced) and leaves the rest pending, to apply later;
// RejectSelection rejects some with a reason; EditFile puts the person's
// text in place of a proposed one before it applies; Revert and UndoRevert
// take an applied set back and forth. Every decision is a HistoryEntry of
// the set, which the agent reads.
//
// changeset never imports Fyne, builds with CGO_ENABLED=0 and writes nothing
// to os.Stdout. It never writes a project file except through
// ApplySelection (Apply), Revert and UndoRevert, which the person asks for.
package changeset
