package mcpbridge

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"trestle/app/services"
)

// The message loop under hostile input: FuzzSessionLines feeds arbitrary
// bytes into one initialized session and then requires a ping and a
// trestle_files call to be answered correctly. Its seed corpus lives in
// testdata/fuzz/FuzzSessionLines (plain `go test` runs it);
// UPDATE_FUZZ_CORPUS=true go test -run TestFuzzCorpus ./mcpbridge rewrites it
// from fuzzSeeds. `make fuzz` runs the fuzzer for a bounded time.

const (
	initializeLine  = `{"jsonrpc":"2.0","id":"fuzz-init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// sessionEndGrace is what sessionSurvives leaves of the test's
	// deadline, to report a session that never answered by name before
	// go test's timeout ends the binary.
	sessionEndGrace = 30 * time.Second
)

// checkSeq makes the check calls' ids unique, so no input can guess them.
var checkSeq atomic.Uint64

// newFuzzServer is a headless server over the test project.
func newFuzzServer(tb testing.TB) *Server {
	return NewServer(testAgent(newTestProject(tb), nil, services.Services{}), quiet())
}

// sessionSurvives serves one session over pipes: initialize, the hostile
// input (ended by a newline), then a ping and a trestle_files call. It
// returns an error unless every line the server wrote is a JSON object and
// both checks got their correct answers; stdin closes after the checks and
// the session must end.
//
// It returns only once the session has ended, so the next session on srv
// (ServeStdio's id is always "stdio") never overlaps it: a session still
// registered under that id made every later one fail at once.
//
// It has no clock of its own: a hostile line is work for the CPU (a 16
// MiB line is scanned and decoded several times over, by the dispatcher
// and by mcp-go), which under -race on a loaded two-core machine took
// longer than any fixed bound. A session that never answers is still
// reported, by name, sessionEndGrace before the test's deadline.
func sessionSurvives(t *testing.T, srv *Server, input []byte) error {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(context.Background(), srv, inR, outW)
		outW.Close()
	}()
	n := checkSeq.Add(1)
	pingID, filesID := fmt.Sprintf("check-ping-%d-%d", os.Getpid(), n), fmt.Sprintf("check-files-%d-%d", os.Getpid(), n)

	answers := make(chan error, 1)
	go func() { answers <- readAnswers(outR, pingID, filesID) }()
	go func() {
		defer inW.Close()
		for _, chunk := range [][]byte{[]byte(initializeLine + "\n" + initializedLine + "\n"), input, []byte("\n"),
			fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%q,"method":"ping"}`+"\n", pingID),
			fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%q,"method":"tools/call","params":{"name":"trestle_files","arguments":{"glob":"*.go"}}}`+"\n", filesID),
		} {
			if _, err := inW.Write(chunk); err != nil {
				return
			}
		}
	}()
	var expired <-chan time.Time
	if deadline, ok := t.Deadline(); ok {
		timer := time.NewTimer(time.Until(deadline) - sessionEndGrace)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case err := <-answers: // readAnswers reads to EOF: the session has ended
		if serveErr := <-served; err == nil {
			err = serveErr
		}
		return err
	case <-expired:
		inR.CloseWithError(io.ErrUnexpectedEOF)
		outR.Close()
		<-served
		return fmt.Errorf("no answer to the check calls before the test's deadline (less %v)", sessionEndGrace)
	}
}

// readAnswers reads every line the server writes until EOF, checking each is
// a JSON-RPC object, and reports whether the ping and the files call were
// answered correctly.
func readAnswers(r io.Reader, pingID, filesID string) error {
	br := bufio.NewReaderSize(r, 1<<20)
	var pinged, listed bool
	var firstErr error
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && firstErr == nil {
			firstErr = checkLine(line, pingID, filesID, &pinged, &listed)
		}
		if err != nil {
			break
		}
	}
	switch {
	case firstErr != nil:
		return firstErr
	case !pinged || !listed:
		return fmt.Errorf("the session ended without answering the checks (ping %v, files %v)", pinged, listed)
	}
	return nil
}

func checkLine(line []byte, pingID, filesID string, pinged, listed *bool) error {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      any             `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &m); err != nil || m.JSONRPC != "2.0" {
		return fmt.Errorf("the server wrote a line that is not JSON-RPC: %.300q", line)
	}
	if (m.ID == pingID || m.ID == filesID) && queueRefusal(m.Error) {
		// A flood of requests fills the session's queue: the check is
		// answered under its id with the refusal, and the session lives on.
		*pinged, *listed = *pinged || m.ID == pingID, *listed || m.ID == filesID
		return nil
	}
	switch m.ID {
	case pingID:
		if string(m.Result) != "{}" {
			return fmt.Errorf("ping answer: %.300s", line)
		}
		*pinged = true
	case filesID:
		var res struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Files []string `json:"files"`
			} `json:"structuredContent"`
		}
		if json.Unmarshal(m.Result, &res) != nil || res.IsError || !slices.Equal(res.StructuredContent.Files, []string{"main.go", "pkg/util.go"}) {
			return fmt.Errorf("trestle_files answer: %.300s", line)
		}
		*listed = true
	}
	return nil
}

// queueRefusal reports whether a JSON-RPC error is the refusal of a
// request because the session's queue is full.
func queueRefusal(raw json.RawMessage) bool {
	var e struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	return json.Unmarshal(raw, &e) == nil && e.Code == codeRefused && strings.Contains(e.Message, "waiting for an answer")
}

func FuzzSessionLines(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s.data)
	}
	srv := newFuzzServer(f) // sessionSurvives ends each session before the next
	f.Fuzz(func(t *testing.T, input []byte) {
		if err := sessionSurvives(t, srv, input); err != nil {
			t.Fatalf("input %.200q: %v", input, err)
		}
	})
}

// fuzzSeed is one named hostile input.
type fuzzSeed struct {
	name string
	data []byte
}

func rpcLine(id any, method, params string) string {
	idJSON, _ := json.Marshal(id)
	if params == "" {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q}`, idJSON, method)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":%s}`, idJSON, method, params)
}

// fuzzSeeds are the hand-written hostile inputs of the corpus (the
// wrong-type seeds come from the tools' schemas, see wrongTypeCalls).
func fuzzSeeds() []fuzzSeed {
	nested := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	lines := func(ls ...string) []byte { return []byte(strings.Join(ls, "\n")) }
	return []fuzzSeed{
		{"empty", nil},
		{"malformed-unterminated", []byte(`{"jsonrpc":"2.0","id":`)},
		{"malformed-trailing-garbage", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}}}`)},
		{"malformed-not-json", []byte("hello world")},
		{"malformed-bare-values", lines("null", "true", "42", `"str"`, "[]", "{}")},
		{"invalid-utf8", []byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"trestle_read\",\"arguments\":{\"path\":\"\xff\xfe\xc0\xaf\"}}}")},
		{"invalid-utf8-raw", []byte("\xff\xfe\xfd\x00\x80\n\xc3\x28")},
		{"nul-bytes", []byte("\x00\x00{\"jsonrpc\":\"2.0\"}\x00")},
		{"huge-number-id", []byte(rpcLine(json.Number("1e400"), "ping", ""))},
		{"huge-number-2p63", []byte(rpcLine(json.Number("9223372036854775808"), "ping", ""))},
		{"huge-number-arguments", lines(
			rpcLine(1, "tools/call", `{"name":"trestle_read","arguments":{"path":"main.go","start_line":1e400}}`),
			rpcLine(2, "tools/call", `{"name":"trestle_read","arguments":{"path":"main.go","start_line":9223372036854775808,"end_line":-9223372036854775809}}`),
			rpcLine(3, "tools/call", `{"name":"trestle_files","arguments":{"limit":1e308}}`),
			rpcLine(4, "tools/call", `{"name":"trestle_search","arguments":{"pattern":"x","limit":-1e400}}`))},
		{"deeply-nested-10000", []byte(rpcLine(1, "tools/call", `{"name":"trestle_files","arguments":{"glob":`+nested(10000)+`}}`))},
		{"deeply-nested-bare", []byte(nested(10000))},
		{"empty-lines-10000", bytes.Repeat([]byte("\n"), 10000)},
		{"whitespace-lines", lines("   ", "\t", "\r", "\r\n", " \r ")},
		{"before-initialize", lines(
			`{"jsonrpc":"2.0","id":"b1","method":"tools/call","params":{"name":"trestle_files","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":"b2","method":"tools/list"}`)},
		{"second-initialize", []byte(initializeLine)},
		{"duplicate-ids", lines(
			rpcLine(7, "ping", ""), rpcLine(7, "tools/call", `{"name":"trestle_files","arguments":{}}`),
			rpcLine(7, "tools/call", `{"name":"trestle_read","arguments":{"path":"main.go"}}`), rpcLine(7, "ping", ""))},
		{"client-responses", lines(`{"jsonrpc":"2.0","id":5,"result":{}}`,
			`{"jsonrpc":"2.0","id":6,"error":{"code":-32600,"message":"x"}}`, `{"jsonrpc":"2.0","id":null,"result":null}`)},
		{"batch-arrays", lines(`[`+rpcLine(1, "ping", "")+`,`+rpcLine(2, "ping", "")+`]`, `[]`, `[{}]`)},
		{"no-method", []byte(`{"jsonrpc":"2.0","id":3}`)},
		{"unknown-method", []byte(rpcLine(1, "tools/explode", `{}`))},
		{"unknown-tool", []byte(rpcLine(1, "tools/call", `{"name":"rm_rf","arguments":{}}`))},
		{"wrong-version", []byte(`{"jsonrpc":"1.0","id":1,"method":"ping"}`)},
		{"id-types", lines(rpcLine(true, "ping", ""), rpcLine([]int{1}, "ping", ""), rpcLine(map[string]int{"a": 1}, "ping", ""), rpcLine(1.5, "ping", ""), rpcLine(-0, "ping", ""))},
		{"params-wrong-shape", lines(
			rpcLine(1, "tools/call", `"trestle_files"`), rpcLine(2, "tools/call", `[1,2]`), rpcLine(3, "tools/call", `{"name":42}`),
			rpcLine(4, "tools/call", `{"name":"trestle_files","arguments":"glob"}`), rpcLine(5, "tools/call", `{"name":"trestle_files","arguments":[1]}`),
			rpcLine(6, "initialize", `[]`), rpcLine(7, "tools/list", `"x"`))},
		{"cancel-unknown", []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nope","reason":"x"}}`)},
		{"notification-junk", []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":{},"progress":"x"}}`)},
		{"paths-escape", lines(
			rpcLine(1, "tools/call", `{"name":"trestle_read","arguments":{"path":"../../../../etc/passwd"}}`),
			rpcLine(2, "tools/call", `{"name":"trestle_read","arguments":{"path":"/etc/passwd"}}`),
			rpcLine(3, "tools/call", `{"name":"trestle_files","arguments":{"under":"/"}}`),
			rpcLine(4, "tools/call", `{"name":"trestle_search","arguments":{"pattern":"root","glob":"../*"}}`))},
		{"crlf-lines", []byte(rpcLine(1, "ping", "") + "\r\n" + rpcLine(2, "ping", "") + "\r\n")},
	}
}

// wrongValues are values of another JSON type than the schema's type.
var wrongValues = map[string][]string{
	"string":  {`42`, `{"x":1}`, `["a"]`, `true`},
	"integer": {`"12"`, `{}`, `1.5`, `true`},
	"number":  {`"12"`, `{}`, `[1]`},
	"boolean": {`"true"`, `1`, `{}`},
	"array":   {`"x"`, `{}`, `7`},
	"object":  {`"x"`, `[]`, `7`},
}

// wrongTypeCall is one tools/call with one argument of the wrong type.
type wrongTypeCall struct {
	tool, prop, schemaType, value string
}

func (w wrongTypeCall) line(id int) string {
	return rpcLine(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":{%q:%s}}`, w.tool, w.prop, w.value))
}

// wrongTypeCalls lists, for every tool and every property of its input
// schema, calls that pass a value of each wrong JSON type.
func wrongTypeCalls(t *testing.T) []wrongTypeCall {
	t.Helper()
	var out []wrongTypeCall
	tools := allTools(t)
	for _, name := range slices.Sorted(maps.Keys(tools)) {
		b, err := json.Marshal(tools[name].Tool)
		if err != nil {
			t.Fatal(err)
		}
		var def struct {
			InputSchema struct {
				Properties map[string]struct {
					Type any `json:"type"`
				} `json:"properties"`
			} `json:"inputSchema"`
		}
		if err := json.Unmarshal(b, &def); err != nil {
			t.Fatal(err)
		}
		props := def.InputSchema.Properties
		for _, prop := range slices.Sorted(maps.Keys(props)) {
			typ := schemaType(props[prop].Type)
			if wrongValues[typ] == nil {
				t.Fatalf("%s.%s: schema type %v has no wrong values listed", name, prop, props[prop].Type)
			}
			for _, v := range wrongValues[typ] {
				out = append(out, wrongTypeCall{name, prop, typ, v})
			}
		}
	}
	return out
}

// schemaType is a property's JSON type: "integer", or the non-null one of
// ["null","array"].
func schemaType(t any) string {
	switch t := t.(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if s, _ := v.(string); s != "null" {
				return s
			}
		}
	}
	return ""
}

// TestWrongArgumentTypes sends, through the MCP server, a value of a wrong
// type for every property of every tool (window tools included): each call
// is isError with text starting "problem".
func TestWrongArgumentTypes(t *testing.T) {
	calls := wrongTypeCalls(t)
	srv := allToolsServer(t)
	ctx := context.Background()
	for i, c := range calls {
		t.Run(fmt.Sprintf("%s/%s=%s", c.tool, c.prop, c.value), func(t *testing.T) {
			resp := srv.MCP().HandleMessage(ctx, json.RawMessage(c.line(i)))
			b, _ := json.Marshal(resp)
			var m struct {
				Result struct {
					IsError bool `json:"isError"`
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"result"`
			}
			if err := json.Unmarshal(b, &m); err != nil || !m.Result.IsError || len(m.Result.Content) == 0 ||
				!strings.HasPrefix(m.Result.Content[0].Text, "problem") {
				t.Fatalf("%s (schema type %s): got %s", c.line(i), c.schemaType, b)
			}
		})
	}
	t.Logf("%d wrong-type calls over %d tools", len(calls), len(allTools(t)))
}

// allToolsServer is a server offering every tool: a window stub and every
// service.
func allToolsServer(t *testing.T) *Server {
	t.Helper()
	p := newTestProject(t)
	return NewServer(testAgent(p, definitionsOnly{}, everyService(t, p)), Options{Version: "test", Logger: log.New(io.Discard, "", 0), Stall: func(time.Duration) {}, ApplyAsPerson: func(context.Context, string) error { return nil }})
}

// TestSessionSurvivesHostileInput runs every seed, and the inputs too big
// for a corpus file, through a session of a server of its own.
func TestSessionSurvivesHostileInput(t *testing.T) {
	seeds := fuzzSeeds()
	var wrong []string
	for i, c := range wrongTypeCalls(t) {
		wrong = append(wrong, c.line(i))
	}
	seeds = append(seeds,
		fuzzSeed{"wrong-types-every-tool", []byte(strings.Join(wrong, "\n"))},
		fuzzSeed{"line-17MiB", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 17<<20) + `"}}`)},
		fuzzSeed{"line-17MiB-no-json", bytes.Repeat([]byte{0xff}, 17<<20)},
		fuzzSeed{"line-exactly-limit", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", MaxLineBytes-60) + `"}}`)},
		fuzzSeed{"deeply-nested-100000", []byte(rpcLine(1, "tools/call", `{"name":"trestle_files","arguments":{"glob":`+
			strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+`}}`))},
		fuzzSeed{"requests-1000", bytes.Repeat([]byte(rpcLine(1, "tools/call", `{"name":"trestle_files","arguments":{}}`)+"\n"), 1000)},
	)
	for _, s := range seeds {
		t.Run(s.name, func(t *testing.T) {
			if err := sessionSurvives(t, newFuzzServer(t), s.data); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFuzzCorpus checks the committed seed corpus holds every seed (and
// the wrong-type calls, one file per tool), so `go test` runs them.
// UPDATE_FUZZ_CORPUS=true rewrites it.
func TestFuzzCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzSessionLines")
	want := map[string][]byte{}
	for _, s := range fuzzSeeds() {
		want[s.name] = s.data
	}
	// Ids count within each tool's file, so that a file does not change
	// with the other tools (the test hooks exist only with -tags
	// trestle_testhooks).
	byTool := map[string][]string{}
	for _, c := range wrongTypeCalls(t) {
		byTool[c.tool] = append(byTool[c.tool], c.line(len(byTool[c.tool])))
	}
	for tool, lines := range byTool {
		want["wrong-types-"+tool] = []byte(strings.Join(lines, "\n"))
	}
	if os.Getenv("UPDATE_FUZZ_CORPUS") == "true" {
		os.MkdirAll(dir, 0o755)
		for name, data := range want {
			if err := os.WriteFile(filepath.Join(dir, name), corpusFile(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	for name, data := range want {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, corpusFile(data)) {
			t.Errorf("corpus file %s is missing or stale; run UPDATE_FUZZ_CORPUS=true go test -run TestFuzzCorpus ./mcpbridge", name)
		}
	}
}

// corpusFile is data in Go's fuzz corpus format.
func corpusFile(data []byte) []byte {
	return []byte("go test fuzz v1\n[]byte(" + strconv.Quote(string(data)) + ")\n")
}
