package ui

// A hosted agent's sessions in the store: each session is recorded (its
// agent, the agent's session id, the end of its transcript) when it opens
// and after each turn; the Agent pane lists them while stopped, and
// Resume starts the agent in a new staging copy and resumes the session
// there where the agent can (session/load).

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/app/sandbox"
	"trestle/ui/agent"
)

// connect sets the MCP servers hosted agents get and lists the project's
// stored sessions (New's last step, once the store is known). Main
// goroutine only.
func (h *agentHost) connect(mcp func(*sandbox.Stage) []acpsdk.McpServer) {
	h.mcp = mcp
	h.listEarlier()
	h.loadAgents()
}

// open opens the agent's session: resumes resume's where the agent can,
// else a new one. Off the main goroutine.
func (h *agentHost) open(ctx context.Context, s *acp.Session, resume *acp.Saved) error {
	if resume == nil {
		return s.Open(ctx)
	}
	if s.CanLoad() {
		return s.Load(ctx, resume.SessionID)
	}
	h.do(func() {
		h.pane.Note("The agent cannot resume a session (it offers no session/load): a new session starts. What the earlier one showed:\n" + resume.Transcript)
	})
	return s.Open(ctx)
}

// record is the store's record of the session just opened: resume's
// when it was resumed (the agent kept its session id), else a new one,
// stored at once. nil when the window keeps no store. Off the main
// goroutine.
func (h *agentHost) record(command, name string, s *acp.Session, resume *acp.Saved) *acp.Saved {
	st := h.w.actions.Store
	if st == nil {
		return nil
	}
	rec := &acp.Saved{Project: h.w.project.Root, Command: command, Started: time.Now()}
	if resume != nil && resume.SessionID == s.ID() {
		*rec = *resume
	}
	rec.Agent, rec.SessionID, rec.CanLoad, rec.Updated = name, s.ID(), s.CanLoad(), time.Now()
	if err := acp.SaveSession(st, rec); err != nil {
		h.do(func() { h.pane.Note("The session is not kept: " + changeset.EscapeControls(err.Error(), "")) })
	}
	return rec
}

// saveTurn stores the session's transcript after a turn, with its first
// prompt as its title. Main goroutine only; the store is written off it.
func (h *agentHost) saveTurn(cur *hosted, prompt string) {
	st := h.w.actions.Store
	if st == nil || cur.saved == nil {
		return
	}
	h.mu.Lock()
	rec := *cur.saved
	if rec.Title == "" {
		rec.Title = agentTitle(prompt)
	}
	rec.Transcript, rec.Updated = h.pane.Text(), time.Now()
	*cur.saved = rec
	h.mu.Unlock()
	h.turns.Go(func() {
		if err := acp.SaveSession(st, &rec); err != nil {
			h.do(func() { h.pane.Note("The session is not kept: " + changeset.EscapeControls(err.Error(), "")) })
		}
	})
}

// listEarlier lists the project's stored sessions in the pane, off the
// main goroutine. Any goroutine.
func (h *agentHost) listEarlier() {
	st := h.w.actions.Store
	h.mu.Lock()
	closed := h.closed
	h.mu.Unlock()
	if st == nil || closed {
		return
	}
	h.turns.Go(func() {
		saved, err := acp.SavedSessions(st, h.w.project.Root)
		if err != nil {
			return
		}
		byID := make(map[string]acp.Saved, len(saved))
		opts := make([]agent.Option, len(saved))
		for i, s := range saved {
			id := strconv.FormatUint(s.ID, 10)
			byID[id] = s
			title := strings.TrimPrefix(s.Title, "Agent: ")
			if title == "" {
				title = "(no prompt)"
			}
			opts[i] = agent.Option{ID: id, Name: fmt.Sprintf("%s %s: %s", s.Updated.Format("Jan 2 15:04"), s.Agent, title)}
		}
		h.do(func() {
			h.earlier = byID
			h.pane.SetEarlier(opts)
		})
	})
}

// resume resumes the stored session id the person chose. Main goroutine only.
func (h *agentHost) resume(id string) {
	if saved, ok := h.earlier[id]; ok && h.pane.State() == agent.Stopped {
		h.resumeWith(saved)
	}
}
