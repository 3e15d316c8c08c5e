package lsp

// Why github.com/sourcegraph/jsonrpc2: it is a maintained, small JSON-RPC
// 2.0 library (no dependencies beyond the standard library) with the LSP's
// Content-Length framing built in (VSCodeObjectCodec), calls that give up
// with their context, and a connection that reports its own end. The LSP
// type packages we could pair it with (go.lsp.dev/protocol) have not had a
// release since 2022 and predate LSP 3.17, and gopls's own protocol package
// is internal; golang.org/x/exp/jsonrpc2 is an unversioned experiment. So
// the framing and dispatch are the library's, and protocol.go declares the
// few LSP structures Trestle reads.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"trestle/app/procgroup"
)

// session is one gopls process and its connection.
type session struct {
	c       *Client
	cmd     *exec.Cmd
	conn    *jsonrpc2.Conn
	started time.Time

	ready    chan struct{} // closed when initialized, or when starting failed (err set)
	err      error
	wasReady bool
	exited   chan struct{} // closed when the process has exited
	gone     chan struct{} // closed when the client has let the session go
	kickc    chan struct{} // documents changed: sync them
	stopOnce sync.Once
	stopping atomic.Bool              // shutdown was called
	proc     atomic.Pointer[exec.Cmd] // cmd, for a shutdown before ready

	nextID   atomic.Uint64
	lastRecv atomic.Int64 // unix nanos of the last message from gopls
	pmu      sync.Mutex
	pending  map[uint64]time.Time // sent, unanswered requests

	docMu sync.Mutex
	sent  map[string]int // rel -> version gopls has
}

func newSession(c *Client) *session {
	return &session{c: c, started: time.Now(), ready: make(chan struct{}), exited: make(chan struct{}), gone: make(chan struct{}),
		kickc: make(chan struct{}, 1), pending: map[uint64]time.Time{}, sent: map[string]int{}}
}

// run starts gopls, initializes it, and serves until it exits.
func (s *session) run() {
	err := s.start()
	if err != nil {
		s.err = fmt.Errorf("start the Go language server: %w", err)
		close(s.ready)
		if s.cmd != nil {
			procgroup.Kill(s.cmd)
			<-s.exited
		}
		s.c.ended(s, s.err)
		return
	}
	s.wasReady = true
	close(s.ready)
	s.c.ready(s)
	done := make(chan struct{})
	go s.watch(done)
	go s.syncLoop(done)
	select {
	case <-s.exited:
	case <-s.conn.DisconnectNotify(): // its stdout closed: it is as good as gone
		procgroup.Kill(s.cmd)
		<-s.exited
	}
	close(done)
	s.conn.Close()
	s.c.ended(s, errors.New("gopls exited"))
}

func (s *session) start() error {
	c := s.c
	findCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	path, err := c.cfg.Find(findCtx)
	cancel()
	if err != nil {
		return err
	}
	cmd := exec.Command(path, c.cfg.Args...)
	cmd.Dir = c.root
	cmd.Env = c.cfg.Env
	cmd.Stderr = logWriter{c.cfg.Logger}
	procgroup.Set(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run %s: %w", path, err)
	}
	s.cmd = cmd
	s.proc.Store(cmd)
	if s.stopping.Load() { // Close came while it was starting
		procgroup.Kill(cmd)
	}
	go func() {
		cmd.Wait()
		close(s.exited)
	}()
	stream := jsonrpc2.NewBufferedStream(pipeRWC{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{})
	s.lastRecv.Store(time.Now().UnixNano())
	s.conn = jsonrpc2.NewConn(context.Background(), stream, jsonrpc2.HandlerWithError(s.handle).SuppressErrClosed(),
		jsonrpc2.OnRecv(s.received), jsonrpc2.SetLogger(c.cfg.Logger))
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.StartTimeout)
	defer cancel()
	var res json.RawMessage
	if err := s.call(ctx, "initialize", initializeParams(c.root), &res); err != nil {
		return fmt.Errorf("initialize gopls: %w", err)
	}
	if err := s.conn.Notify(ctx, "initialized", struct{}{}); err != nil {
		return fmt.Errorf("initialize gopls: %w", err)
	}
	s.syncDocs(ctx)
	return nil
}

// received notes every message from gopls: it is alive, and a response
// ends its request's wait.
func (s *session) received(req *jsonrpc2.Request, resp *jsonrpc2.Response) {
	s.lastRecv.Store(time.Now().UnixNano())
	if resp != nil && !resp.ID.IsString {
		s.pmu.Lock()
		delete(s.pending, resp.ID.Num)
		s.pmu.Unlock()
	}
}

// watch kills a gopls that has left a request unanswered for HangAfter
// while sending nothing at all.
func (s *session) watch(done <-chan struct{}) {
	hang := s.c.cfg.HangAfter
	t := time.NewTicker(max(hang/8, 100*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if time.Since(time.Unix(0, s.lastRecv.Load())) < hang {
			continue
		}
		s.pmu.Lock()
		var oldest time.Time
		for _, at := range s.pending {
			if oldest.IsZero() || at.Before(oldest) {
				oldest = at
			}
		}
		s.pmu.Unlock()
		if !oldest.IsZero() && time.Since(oldest) > hang {
			s.c.cfg.Logger.Printf("gopls: no answer for %s; killing it (pid %d) to restart it", hang, s.cmd.Process.Pid)
			procgroup.Kill(s.cmd)
			return
		}
	}
}

// call sends one request and waits for its answer within ctx; when ctx
// ends first gopls is told to cancel it.
func (s *session) call(ctx context.Context, method string, params, result any) error {
	id := s.nextID.Add(1)
	s.pmu.Lock()
	s.pending[id] = time.Now()
	s.pmu.Unlock()
	err := s.conn.Call(ctx, method, params, result, jsonrpc2.PickID(jsonrpc2.ID{Num: id}))
	if ctx.Err() != nil {
		go s.notify("$/cancelRequest", map[string]uint64{"id": id})
	}
	return err
}

// notify sends a notification, bounded so a hung gopls cannot hold the
// caller (the write itself ends when the process is killed).
func (s *session) notify(method string, params any) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.conn.Notify(ctx, method, params); err != nil && !errors.Is(err, jsonrpc2.ErrClosed) {
		s.c.cfg.Logger.Printf("gopls: %s: %v", method, err)
	}
}

// dead reports whether the process exited or its connection ended.
func (s *session) dead() bool {
	select {
	case <-s.exited:
		return true
	case <-s.conn.DisconnectNotify():
		return true
	default:
		return false
	}
}

// kick asks the sync loop to send changed documents.
func (s *session) kick() {
	select {
	case s.kickc <- struct{}{}:
	default:
	}
}

func (s *session) syncLoop(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-s.kickc:
			s.syncDocs(context.Background())
		}
	}
}

// syncDocs brings gopls's open documents in line with the client's: one
// didOpen, didChange or didClose per difference, in version order.
func (s *session) syncDocs(ctx context.Context) {
	s.docMu.Lock()
	defer s.docMu.Unlock()
	docs := s.c.docsSnapshot()
	for rel, d := range docs {
		v, ok := s.sent[rel]
		uri := fileURI(s.c.abs(rel))
		switch {
		case !ok:
			s.notify("textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: uri, LanguageID: languageID(rel), Version: d.version, Text: d.text}})
		case v != d.version:
			s.notify("textDocument/didChange", didChangeParams{TextDocument: versionedID{URI: uri, Version: d.version},
				ContentChanges: []contentChange{{Text: d.text}}})
		default:
			continue
		}
		s.sent[rel] = d.version
	}
	for rel := range s.sent {
		if _, ok := docs[rel]; !ok {
			s.notify("textDocument/didClose", didCloseParams{TextDocument: textDocumentID{URI: fileURI(s.c.abs(rel))}})
			delete(s.sent, rel)
		}
	}
}

func languageID(rel string) string {
	switch {
	case hasSuffix(rel, ".mod"):
		return "go.mod"
	case hasSuffix(rel, ".sum"):
		return "go.sum"
	case hasSuffix(rel, ".work"):
		return "go.work"
	}
	return "go"
}

func hasSuffix(s, suf string) bool { return len(s) >= len(suf) && s[len(s)-len(suf):] == suf }

// shutdown asks a ready gopls to exit politely, then kills it; one still
// starting is killed at once (its initialize then fails and run ends).
func (s *session) shutdown() {
	s.stopOnce.Do(func() {
		s.stopping.Store(true)
		select {
		case <-s.ready:
		default:
			if cmd := s.proc.Load(); cmd != nil {
				procgroup.Kill(cmd)
			}
			return
		}
		if s.err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			if s.call(ctx, "shutdown", nil, nil) == nil {
				s.conn.Notify(ctx, "exit", nil)
			}
			cancel()
			select {
			case <-s.exited:
			case <-time.After(2 * time.Second):
			}
		}
		if s.cmd != nil {
			procgroup.Kill(s.cmd)
		}
	})
}

// handle answers gopls's requests to the client and takes its notifications.
func (s *session) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
	switch req.Method {
	case "textDocument/publishDiagnostics":
		var p publishDiagnosticsParams
		if req.Params != nil && json.Unmarshal(*req.Params, &p) == nil {
			s.c.publish(p)
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		if req.Params != nil {
			json.Unmarshal(*req.Params, &p)
		}
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = map[string]any{}
		}
		return out, nil
	case "workspace/applyEdit":
		return map[string]any{"applied": false, "failureReason": "Trestle applies edits only through the person's review"}, nil
	case "window/showMessage", "window/logMessage":
		var p struct {
			Type    int    `json:"type"`
			Message string `json:"message"`
		}
		if req.Params != nil && json.Unmarshal(*req.Params, &p) == nil && p.Type <= 2 {
			s.c.cfg.Logger.Printf("gopls: %s", p.Message)
		}
		return nil, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "workspace/diagnostic/refresh", "workspace/semanticTokens/refresh",
		"workspace/codeLens/refresh", "workspace/inlayHint/refresh", "$/progress", "telemetry/event":
		return nil, nil
	}
	if req.Notif {
		return nil, nil
	}
	return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "Trestle does not handle " + req.Method}
}

func initializeParams(root string) any {
	uri := fileURI(root)
	return map[string]any{
		"processId":        nil,
		"clientInfo":       map[string]string{"name": "trestle"},
		"rootUri":          uri,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": "project"}},
		"capabilities": map[string]any{
			"general": map[string]any{"positionEncodings": []string{"utf-16"}},
			"workspace": map[string]any{
				"configuration":    true,
				"workspaceFolders": true,
				"workspaceEdit":    map[string]any{"documentChanges": true},
				"symbol":           map[string]any{},
			},
			"textDocument": map[string]any{
				"synchronization":    map[string]any{"didSave": true},
				"publishDiagnostics": map[string]any{"versionSupport": true},
				"hover":              map[string]any{"contentFormat": []string{"plaintext"}},
				"completion": map[string]any{
					"completionItem": map[string]any{"snippetSupport": false, "documentationFormat": []string{"plaintext"}},
				},
				"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
				"rename":         map[string]any{"prepareSupport": true},
				"definition":     map[string]any{"linkSupport": false},
				"codeAction": map[string]any{"codeActionLiteralSupport": map[string]any{
					"codeActionKind": map[string]any{"valueSet": []string{"source.organizeImports", "quickfix"}}}},
			},
			"window": map[string]any{"workDoneProgress": false},
		},
		"initializationOptions": map[string]any{},
	}
}

// pipeRWC joins gopls's stdout and stdin into one stream.
type pipeRWC struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (p pipeRWC) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p pipeRWC) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipeRWC) Close() error {
	werr := p.w.Close()
	rerr := p.r.Close()
	return errors.Join(werr, rerr)
}

// logWriter sends gopls's stderr to the logger a line at a time.
type logWriter struct {
	l interface{ Printf(string, ...any) }
}

func (w logWriter) Write(b []byte) (int, error) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		w.l.Printf("gopls stderr: %s", sc.Text())
	}
	return len(b), nil
}
