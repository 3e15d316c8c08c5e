package ui

// A hosted agent's turns: a prompt sent off the main goroutine, the change
// set each turn's writes become, and the end of a session.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"trestle/app/acp"
	"trestle/app/changeset"
	"trestle/app/errdefs"
	"trestle/app/watch"
	"trestle/app/workbench"
	"trestle/ui/agent"
)

// send runs a prompt turn off the main goroutine. Main goroutine only.
func (h *agentHost) send(text string) {
	h.mu.Lock()
	cur := h.cur
	if cur == nil || cur.ended || cur.turn {
		h.mu.Unlock()
		return
	}
	cur.turn = true
	h.mu.Unlock()
	h.pane.SetState(agent.Working, changeset.EscapeControls(cur.name, "")+" is working…")
	h.turns.Go(func() { h.runTurn(cur, text) })
}

// runTurn runs one turn, then proposes what the session wrote.
func (h *agentHost) runTurn(cur *hosted, text string) {
	reason, err := cur.sess.Prompt(context.Background(), text)
	end := fmt.Sprintf("The turn ended: %s.", reason)
	if err != nil {
		end = "The turn failed: " + changeset.EscapeControls(err.Error(), "")
	}
	note := h.propose(cur, text)
	h.mu.Lock()
	cur.turn = false
	ended := cur.ended
	h.mu.Unlock()
	if ended {
		h.closeStage(cur, note)
	}
	name := changeset.EscapeControls(cur.name, "")
	h.doInOrder(func() { // after the turn's last messages
		h.pane.Note(end)
		if note != "" {
			h.pane.Note(note)
		}
		h.saveTurn(cur, text)
		if ended {
			h.listEarlier()
		}
		switch {
		case ended:
			h.pane.SetState(agent.Stopped, "The session ended.")
		case err != nil:
			h.pane.SetState(agent.Ready, "The turn failed; you may try again, or Stop.")
		default:
			h.pane.SetState(agent.Ready, name+" is ready.")
		}
	})
}

// propose makes the session's writes so far one pending change set,
// replacing the session's last pending one, and shows it in the review;
// it returns what to tell the person. When the writes cannot be stored,
// the session is marked to keep its staging copy.
func (h *agentHost) propose(cur *hosted, prompt string) string {
	m := h.w.services.ChangeSets
	if m == nil {
		h.mu.Lock()
		cur.keep = true
		h.mu.Unlock()
		return "This window keeps no change sets, so the agent's writes stay in " + cur.stage.Dir
	}
	session := "acp:" + cur.sess.ID()
	read := h.w.review.currentReader()
	if h.w.main.closed() { // the main goroutine is closing the window: no editor to ask
		read = workbench.Reader{Project: h.w.project}.Func(context.Background())
	}
	cs, skipped, err := cur.stage.Propose(context.Background(), m, read,
		changeset.Proposal{Title: agentTitle(prompt), Client: cur.name, Session: session,
			Description: "What the agent " + cur.name + " wrote in this session, last for the prompt:\n\n" + prompt})
	var note strings.Builder
	for _, s := range skipped {
		fmt.Fprintf(&note, "Not in the change set: %s\n", changeset.EscapeControls(s, ""))
	}
	switch {
	case errors.Is(err, errdefs.ErrNotFound):
		note.WriteString("The agent changed no file.")
	case err != nil:
		h.mu.Lock()
		cur.keep = true
		h.mu.Unlock()
		fmt.Fprintf(&note, "The agent's writes could not be proposed: %s", changeset.EscapeControls(err.Error(), ""))
	default:
		h.mu.Lock()
		prev := cur.lastSet
		cur.lastSet = cs.ID
		h.mu.Unlock()
		if prev != "" {
			m.Withdraw(prev, session) // replaced; an error means it was decided already
		}
		added, removed := cs.Stats()
		fmt.Fprintf(&note, "Change set %s: %d file%s, +%d −%d, waiting for you in Change Sets.", cs.ID, len(cs.Files), plural(len(cs.Files)), added, removed)
		h.do(func() {
			if v := h.w.review.view; v != nil {
				v.Proposed(cs)
			}
		})
	}
	return strings.TrimSuffix(note.String(), "\n")
}

// agentTitle is the change set's title: the prompt's first line, shortened.
func agentTitle(prompt string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	return "Agent: " + changeset.EscapeControls(line, "")
}

// sawFiles brings the person's changes to the project (their saves, a
// change set applied) into the session's staging copy, and says in the
// pane which of those files the agent has changed too, once a file: the
// copy keeps the agent's version. On the watcher's goroutine.
func (h *agentHost) sawFiles(events []watch.Event) {
	for _, h := range h.group.hosts() {
		h.follow(events)
	}
}

// follow brings the person's changes into this pane's session's copy (see sawFiles).
func (h *agentHost) follow(events []watch.Event) {
	h.mu.Lock()
	cur := h.cur
	h.mu.Unlock()
	if cur == nil {
		return
	}
	rels := make([]string, len(events))
	for i, e := range events {
		rels[i] = e.Path // watch.All is ".": every file
	}
	kept, err := cur.stage.Follow(context.Background(), h.w.project, rels)
	h.mu.Lock()
	ended := cur.ended
	var news []string
	for _, rel := range kept {
		if !cur.told[rel] {
			cur.told[rel] = true
			news = append(news, rel)
		}
	}
	h.mu.Unlock()
	var note string
	switch {
	case ended:
		return
	case err != nil:
		note = "The agent's copy could not follow your change: " + changeset.EscapeControls(err.Error(), "")
	case len(news) > 0:
		note = fmt.Sprintf("You changed %s, which the agent has changed too: its copy keeps its version, "+
			"and its change set shows that version against yours.", changeset.EscapeControls(strings.Join(news, ", "), ""))
	default:
		return
	}
	h.doInOrder(func() { h.pane.Note(note) })
}

// agentSetBound is how long the agent may take to switch mode or model.
const agentSetBound = 30 * time.Second

// choose asks the session's agent, off the main goroutine, for the mode or
// model id the person chose (what names which), and says how that went.
// Main goroutine only.
func (h *agentHost) choose(what, id string, set func(*acp.Session, context.Context, string) error) {
	h.mu.Lock()
	cur := h.cur
	h.mu.Unlock()
	if cur == nil {
		return
	}
	h.turns.Go(func() {
		ctx, cancel := context.WithTimeout(h.life, agentSetBound)
		defer cancel()
		note := fmt.Sprintf("The agent now works with the %s %s.", what, agent.Short(id, agent.MaxTitleRunes))
		if err := set(cur.sess, ctx, id); err != nil {
			note = fmt.Sprintf("The %s was not changed: %s", what, changeset.EscapeControls(err.Error(), ""))
		}
		h.doInOrder(func() { h.pane.Note(note) })
	})
}

// cancel asks the agent to end the turn. Main goroutine only.
func (h *agentHost) cancel() {
	h.mu.Lock()
	cur := h.cur
	h.mu.Unlock()
	if cur != nil {
		h.pane.Note("Cancelling the turn…")
		go cur.sess.Cancel()
	}
}

// stop ends the session: the agent's process group is killed, and the
// staging copy removed (by the running turn, once it has proposed what
// the agent wrote, when there is one). Any goroutine but the main one.
func (h *agentHost) stop() {
	h.mu.Lock()
	if h.abortStart != nil {
		h.abortStart()
	}
	cur := h.cur
	h.cur = nil
	turn := cur != nil && cur.turn
	if cur != nil {
		cur.ended = true
	}
	h.mu.Unlock()
	if cur == nil {
		return
	}
	cur.sess.Close()
	if !turn {
		note := h.closeStage(cur, "")
		h.doInOrder(func() {
			if note != "" {
				h.pane.Note(note)
			}
			h.pane.Note("The session ended.")
			h.pane.SetState(agent.Stopped, "The session ended.")
			h.listEarlier()
		})
	}
}

// closeStage removes the staging copy, unless its writes could not be
// proposed: then it is kept, and the note says where.
func (h *agentHost) closeStage(cur *hosted, note string) string {
	h.mu.Lock()
	keep := cur.keep
	h.mu.Unlock()
	if keep {
		return strings.TrimSpace(note + "\nThe agent's work is kept in " + cur.stage.Dir)
	}
	cur.stage.Close()
	return note
}

// stopAndWait ends every Agent pane's session and waits, up to
// agentStopBound, for their last turns to propose what the agents wrote:
// the window is closing. Any goroutine.
func (h *agentHost) stopAndWait() {
	hosts := h.group.hosts()
	for _, h := range hosts {
		h.mu.Lock()
		h.closed = true
		h.mu.Unlock()
		h.endLife()
		h.stop()
	}
	done := make(chan struct{})
	go func() {
		for _, h := range hosts {
			h.turns.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(agentStopBound):
	}
}

// tailBuffer keeps the last max bytes written to it: the agent's stderr.
// Safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return changeset.EscapeControls(string(b.buf), "\n")
}
