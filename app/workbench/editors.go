package workbench

// EditorSelection is the active editor's selection as the window shows
// it. Lines and columns are 1-based; columns count runes. With nothing
// selected, Text is "" and the range is the caret.
type EditorSelection struct {
	Path      string `json:"path"` // project-relative, forward slashes
	Text      string `json:"text"`
	StartLine int    `json:"start_line"`
	StartCol  int    `json:"start_column"`
	EndLine   int    `json:"end_line"`
	EndCol    int    `json:"end_column"`
}

// Tab is one open editor as the window shows it.
type Tab struct {
	Path   string `json:"path"` // project-relative, forward slashes
	Active bool   `json:"active"`
	Dirty  bool   `json:"dirty"`
	// Version names the tab's text (textbuf.Buffer.Version; 0 when it
	// holds none): unchanged, a reader that saw the text need not read it
	// again.
	Version uint64 `json:"-"`
}
