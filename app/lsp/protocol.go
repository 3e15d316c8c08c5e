package lsp

import "encoding/json"

// The subset of LSP 3.17 that Trestle speaks, as gopls sends it. The
// protocol's own JSON names are kept; positions here are the protocol's
// (0-based, UTF-16 columns) and never leave the package.

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

type location struct {
	URI   string   `json:"uri"`
	Range lspRange `json:"range"`
}

type textDocumentID struct {
	URI string `json:"uri"`
}

type textDocumentPosition struct {
	TextDocument textDocumentID `json:"textDocument"`
	Position     position       `json:"position"`
}

type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

type versionedID struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

type contentChange struct {
	Text string `json:"text"` // the whole document: no range
}

type didChangeParams struct {
	TextDocument   versionedID     `json:"textDocument"`
	ContentChanges []contentChange `json:"contentChanges"`
}

type didCloseParams struct {
	TextDocument textDocumentID `json:"textDocument"`
}

type didSaveParams struct {
	TextDocument textDocumentID `json:"textDocument"`
}

type publishDiagnosticsParams struct {
	URI         string          `json:"uri"`
	Version     int             `json:"version,omitempty"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

type lspDiagnostic struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity,omitempty"`
	Code     any      `json:"code,omitempty"`
	Source   string   `json:"source,omitempty"`
	Message  string   `json:"message"`
}

type referenceParams struct {
	textDocumentPosition
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    *lspRange     `json:"range,omitempty"`
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

type completionItem struct {
	Label         string          `json:"label"`
	Kind          int             `json:"kind,omitempty"`
	Detail        string          `json:"detail,omitempty"`
	Documentation json.RawMessage `json:"documentation,omitempty"`
	SortText      string          `json:"sortText,omitempty"`
	FilterText    string          `json:"filterText,omitempty"`
	InsertText    string          `json:"insertText,omitempty"`
	TextEdit      *textEdit       `json:"textEdit,omitempty"`
}

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

type renameParams struct {
	textDocumentPosition
	NewName string `json:"newName"`
}

type textDocumentEdit struct {
	TextDocument versionedID `json:"textDocument"`
	Edits        []textEdit  `json:"edits"`
	Kind         string      `json:"kind,omitempty"` // set on create/rename/delete file operations
}

type workspaceEdit struct {
	Changes         map[string][]textEdit `json:"changes,omitempty"`
	DocumentChanges []textDocumentEdit    `json:"documentChanges,omitempty"`
}

type symbolInformation struct {
	Name          string   `json:"name"`
	Kind          int      `json:"kind"`
	Location      location `json:"location"`
	ContainerName string   `json:"containerName,omitempty"`
}

type documentSymbol struct {
	Name           string           `json:"name"`
	Detail         string           `json:"detail,omitempty"`
	Kind           int              `json:"kind"`
	Range          lspRange         `json:"range"`
	SelectionRange lspRange         `json:"selectionRange"`
	Children       []documentSymbol `json:"children,omitempty"`
}

type formattingParams struct {
	TextDocument textDocumentID `json:"textDocument"`
	Options      struct {
		TabSize      int  `json:"tabSize"`
		InsertSpaces bool `json:"insertSpaces"`
	} `json:"options"`
}

type codeActionParams struct {
	TextDocument textDocumentID `json:"textDocument"`
	Range        lspRange       `json:"range"`
	Context      struct {
		Diagnostics []lspDiagnostic `json:"diagnostics"`
		Only        []string        `json:"only,omitempty"`
	} `json:"context"`
}

type codeAction struct {
	Title string         `json:"title"`
	Kind  string         `json:"kind,omitempty"`
	Edit  *workspaceEdit `json:"edit,omitempty"`
}

// symbolKinds names the protocol's SymbolKind numbers.
var symbolKinds = map[int]string{
	1: "file", 2: "module", 3: "namespace", 4: "package", 5: "class", 6: "method", 7: "property",
	8: "field", 9: "constructor", 10: "enum", 11: "interface", 12: "function", 13: "variable",
	14: "constant", 15: "string", 16: "number", 17: "boolean", 18: "array", 19: "object", 20: "key",
	21: "null", 22: "enum member", 23: "struct", 24: "event", 25: "operator", 26: "type parameter",
}

// completionKinds names the protocol's CompletionItemKind numbers.
var completionKinds = map[int]string{
	1: "text", 2: "method", 3: "function", 4: "constructor", 5: "field", 6: "variable", 7: "class",
	8: "interface", 9: "module", 10: "property", 11: "unit", 12: "value", 13: "enum", 14: "keyword",
	15: "snippet", 16: "color", 17: "file", 18: "reference", 19: "folder", 20: "enum member",
	21: "constant", 22: "struct", 23: "event", 24: "operator", 25: "type parameter",
}

// severities names the protocol's DiagnosticSeverity numbers.
var severities = map[int]string{1: "error", 2: "warning", 3: "information", 4: "hint"}

// FileChangeType: a watched file was created, changed or deleted.
const (
	fileCreated = 1
	fileChanged = 2
	fileDeleted = 3
)

type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}
