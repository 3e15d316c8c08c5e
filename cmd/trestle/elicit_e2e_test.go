package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"trestle/internal/testfix"
)

// TestHeadlessAsksThroughTheGoSDK: `trestle --mcp --agent-policy ask`, with
// no window to ask in, asks the person through the official Go SDK
// client's elicitation, both with the SDK's default protocol (2026-07-28:
// the question comes back as an input_required result) and with a
// 2025-11-25 initialize (the server sends elicitation/create); an allowed
// run runs, a declined one is refused. The legacy client also offers a
// root elsewhere, which the server warns about on stderr.
func TestHeadlessAsksThroughTheGoSDK(t *testing.T) {
	for _, version := range []string{"", "2025-11-25"} {
		for _, allow := range []bool{true, false} {
			name := map[string]string{"": "sdk-default", "2025-11-25": "2025-11-25"}[version]
			name += map[bool]string{true: "/allowed", false: "/declined"}[allow]
			t.Run(name, func(t *testing.T) { testHeadlessAsks(t, version, allow) })
		}
	}
}

func testHeadlessAsks(t *testing.T, version string, allow bool) {
	project := clientProject(t)
	elsewhere := t.TempDir()
	var asked atomic.Int32
	var question atomic.Value
	c := sdk.NewClient(&sdk.Implementation{Name: "go-sdk-asked", Version: "1.0"}, &sdk.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked.Add(1)
			question.Store(req.Params.Message)
			if !allow {
				return &sdk.ElicitResult{Action: "decline"}, nil
			}
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"decision": "allow_once"}}, nil
		},
	})
	// Roots are deprecated as of protocol 2026-07-28 but still sent by clients
	// on the earlier protocols this test also covers.
	//lint:ignore SA1019 the roots warning is what this test checks
	c.AddRoots(&sdk.Root{URI: "file://" + elsewhere, Name: "elsewhere"})
	stderr := &syncBuffer{}
	cmd := exec.Command(trestleBin(t), "--mcp", "--agent-policy", "ask", "--trust", project)
	cmd.Env = append(os.Environ(), "TRESTLE_CONFIG_DIR="+t.TempDir(), "DISPLAY=")
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	var opts *sdk.ClientSessionOptions
	if version != "" {
		opts = &sdk.ClientSessionOptions{ProtocolVersion: version}
	}
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, opts)
	if err != nil {
		t.Fatalf("connect: %v\nstderr: %s", err, stderr.String())
	}
	defer cs.Close()
	if v := cs.InitializeResult().ProtocolVersion; (version == "") != (v >= "2026-07-28") {
		t.Fatalf("negotiated protocol %s; want 2026-07-28 or later exactly for the SDK's default", v)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "trestle_run", Arguments: map[string]any{"task": "quick"}})
	if err != nil {
		t.Fatalf("trestle_run: %v\nstderr: %s", err, stderr.String())
	}
	sc, _ := res.StructuredContent.(map[string]any)
	want := map[bool]string{true: "done", false: "refused"}[allow]
	if sc["state"] != want || asked.Load() != 1 {
		t.Fatalf("trestle_run: %s %v, asked %d times; want %s after one question\nstderr: %s", goSDKText(res), sc, asked.Load(), want, stderr.String())
	}
	if q, _ := question.Load().(string); !strings.Contains(q, "go-sdk-asked asks Trestle to run this command") || !strings.Contains(q, "echo quick") {
		t.Fatalf("the question %q does not say who asks to run what", q)
	}
	if version != "" {
		testfix.Wait(t, 30*time.Second, "stderr warns of the root elsewhere", func() bool {
			return strings.Contains(stderr.String(), "works in file://"+elsewhere+", which is not this Trestle project")
		})
	}
}
