package acp_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"trestle/app/acp"
	"trestle/app/permission"
	"trestle/app/project"
	"trestle/app/sandbox"
	"trestle/internal/testfix"
)

// host starts the scripted agent in a sandbox on a small project; the
// transcript collects its messages.
func host(t *testing.T, opts acp.Options) (*acp.Session, *transcript, string) {
	t.Helper()
	testfix.RequireBwrap(t)
	dir := testfix.Project(t, map[string]string{"go.mod": "module p\n\ngo 1.22\n", "p.go": "package p\n"})
	p, err := project.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	stage, err := sandbox.NewStage(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stage.Close() })
	marker := "acp-test-linger-" + strconv.Itoa(time.Now().Nanosecond())
	tr := &transcript{}
	opts.Command = []string{testfix.ACPAgent(t)}
	opts.Env = append(opts.Env, "TRESTLE_TEST_MARKER="+marker, "TRESTLE_TEST_PROJECT="+dir)
	opts.Stage = stage
	opts.OnUpdate = tr.update
	s, err := acp.Start(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, tr, marker
}

type transcript struct {
	mu   sync.Mutex
	text strings.Builder
}

func (tr *transcript) update(n sdk.SessionNotification) {
	if c := n.Update.AgentMessageChunk; c != nil && c.Content.Text != nil {
		tr.mu.Lock()
		tr.text.WriteString(c.Content.Text.Text)
		tr.mu.Unlock()
	}
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.text.String()
}

// TestCancelEndsTheTurnAndLeavesNoProcess: a turn cancelled while the
// agent waits ends as cancelled, and closing the session takes down the
// process the agent started in a session of its own.
func TestCancelEndsTheTurnAndLeavesNoProcess(t *testing.T) {
	s, tr, marker := host(t, acp.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		reason sdk.StopReason
		err    error
	}
	done := make(chan result, 1)
	go func() {
		reason, err := s.Prompt(ctx, "hang")
		done <- result{reason, err}
	}()
	testfix.Wait(t, 20*time.Second, "the agent waits for cancel", func() bool {
		return strings.Contains(tr.String(), "waiting for cancel") && len(testfix.Processes(marker)) > 0
	})
	cancel()
	r := <-done
	if r.err != nil || r.reason != sdk.StopReasonCancelled {
		t.Fatalf("cancelled turn: %q, %v; want cancelled", r.reason, r.err)
	}
	s.Close()
	testfix.WaitNoProcess(t, 15*time.Second, marker)
}

// TestReadServesTheEditorTextOfAnUntouchedFile: fs/read_text_file of a
// file the agent has not changed answers the person's editor text.
func TestReadServesTheEditorTextOfAnUntouchedFile(t *testing.T) {
	s, tr, _ := host(t, acp.Options{Editor: func(rel string) (string, bool) {
		return "package p // unsaved in " + rel + "\n", rel == "p.go"
	}})
	if reason, err := s.Prompt(context.Background(), "read"); err != nil || reason != sdk.StopReasonEndTurn {
		t.Fatalf("turn: %q, %v", reason, err)
	}
	if want := "read: package p // unsaved in p.go"; !strings.Contains(tr.String(), want) {
		t.Fatalf("the agent read %q; want %q", tr.String(), want)
	}
}

// TestPermissionDenyAlwaysWins: the person's answer reaches the agent;
// under deny nobody is asked; an allow given after the policy turned to
// deny is a rejection.
func TestPermissionDenyAlwaysWins(t *testing.T) {
	var mu sync.Mutex
	policy, asked := permission.PolicyAsk, 0
	var turnDeny bool
	s, tr, _ := host(t, acp.Options{
		Policy: func() string { mu.Lock(); defer mu.Unlock(); return policy },
		Ask: func(ctx context.Context, req sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
			mu.Lock()
			defer mu.Unlock()
			asked++
			if turnDeny {
				policy = permission.PolicyDeny
			}
			return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{
				Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: "allow"}}}, nil
		},
	})
	for i, tc := range []struct {
		name, policy string
		turnDeny     bool
		want         string
		asked        int
	}{
		{"the person allows", permission.PolicyAsk, false, "permission: allowed", 1},
		{"deny asks nobody", permission.PolicyDeny, false, "permission: rejected", 1},
		{"deny set while asking", permission.PolicyAsk, true, "permission: rejected", 2},
	} {
		mu.Lock()
		policy, turnDeny = tc.policy, tc.turnDeny
		mu.Unlock()
		if _, err := s.Prompt(context.Background(), "ask"); err != nil {
			t.Fatal(err)
		}
		answers := strings.Split(strings.TrimSpace(tr.String()), "\n")
		mu.Lock()
		n := asked
		mu.Unlock()
		if len(answers) != i+1 || answers[i] != tc.want || n != tc.asked {
			t.Errorf("%s: the agent heard %q, asked %d times; want %q, %d", tc.name, answers, n, tc.want, tc.asked)
		}
	}
}
