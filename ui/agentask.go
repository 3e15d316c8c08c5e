package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	udiff "github.com/aymanbagabas/go-udiff"
	acpsdk "github.com/coder/acp-go-sdk"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"trestle/ui/agent"
)

// ask shows a hosted agent's permission request in the window's ask
// dialog (one at a time, bounded by AskBound like the MCP ones) and
// returns the person's choice; no choice rejects. The caller (package
// acp) applies the policy first and again after: deny always wins. Off the
// main goroutine (the ACP connection's).
func (h *agentHost) ask(ctx context.Context, name string, req acpsdk.RequestPermissionRequest) (acpsdk.RequestPermissionResponse, error) {
	h.stream.flush() // the transcript shows what led to the request
	return askModal(ctx, h.w, rejectResponse(req), func(answer chan<- acpsdk.RequestPermissionResponse) dialog.Dialog {
		return h.showAsk(name, req, answer)
	})
}

// rejectResponse picks the request's reject option, or cancels when it offers none.
func rejectResponse(req acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
	for _, o := range req.Options {
		if o.Kind == acpsdk.PermissionOptionKindRejectOnce || o.Kind == acpsdk.PermissionOptionKindRejectAlways {
			return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}}
		}
	}
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Cancelled: &acpsdk.RequestPermissionOutcomeCancelled{Outcome: "cancelled"}}}
}

// isAllow reports whether an option grants something.
func isAllow(o acpsdk.PermissionOption) bool {
	return o.Kind == acpsdk.PermissionOptionKindAllowOnce || o.Kind == acpsdk.PermissionOptionKindAllowAlways
}

// showAsk builds and shows the dialog of a hosted agent's request:
// who asks, the tool call's title and kind, all of its content (diffs,
// commands, raw input) in the ask view, and one button per option of the
// agent's; the options that allow are armed after askArm, and only offered
// when the content is small enough to show in full. Closing it without a
// choice rejects. Main goroutine only.
func (h *agentHost) showAsk(name string, req acpsdk.RequestPermissionRequest, answer chan<- acpsdk.RequestPermissionResponse) dialog.Dialog {
	w := h.w
	var d dialog.Dialog
	var arm *time.Timer
	send := func(r acpsdk.RequestPermissionResponse) {
		if arm != nil {
			arm.Stop()
		}
		select {
		case answer <- r:
		default:
		}
	}
	detail := permissionDetail(req.ToolCall)
	shown, hidden := visibleText(detail)
	tooBig := len(detail) > maxAskBytes
	buttons := container.New(layout.NewRowWrapLayout()) // many options wrap, never widen the dialog
	var allows []*escButton
	for _, o := range req.Options {
		if tooBig && isAllow(o) {
			continue
		}
		o := o
		b := newEscButton(agent.Short(o.Name, agent.MaxWordRunes)+" ("+agent.Short(string(o.Kind), agent.MaxWordRunes)+")", func() {
			send(acpsdk.RequestPermissionResponse{Outcome: acpsdk.RequestPermissionOutcome{Selected: &acpsdk.RequestPermissionOutcomeSelected{OptionId: o.OptionId}}})
			d.Hide()
		})
		if isAllow(o) {
			b.Disable()
			allows = append(allows, b)
			if o.Kind == acpsdk.PermissionOptionKindAllowOnce {
				b.Importance = widget.HighImportance
			}
		}
		buttons.Add(b)
	}
	if len(allows) > 0 {
		arm = w.main.after(askArm, func() {
			for _, b := range allows {
				b.Enable()
			}
		})
	}
	title := "a tool call"
	if t := req.ToolCall.Title; t != nil && *t != "" {
		title = agent.Short(*t, agent.MaxTitleRunes)
	}
	if k := req.ToolCall.Kind; k != nil {
		title += " (" + agent.Short(string(*k), agent.MaxWordRunes) + ")"
	}
	asks := widget.NewLabel(fmt.Sprintf("The hosted agent %s asks permission for %s:", agent.Short(name, agent.MaxTitleRunes), title))
	asks.Wrapping = fyne.TextWrapWord // the title may still be wider than the dialog
	top := container.NewVBox(asks)
	if tooBig {
		top.Add(warning(fmt.Sprintf("This request is %s, more than the %s this dialog can show in full, so it can only be rejected.",
			byteSize(len(detail)), byteSize(maxAskBytes))))
	}
	what := "What it would do"
	if hidden > 0 {
		what += fmt.Sprintf(" (%d invisible or control character%s shown in «»)", hidden, plural(hidden))
	}
	top.Add(widget.NewLabel(what + "; it works in its sandboxed copy, and what it writes comes to you as a change set:"))
	body := container.NewBorder(top, buttons, nil, nil, newAskView(shown, true))
	d = dialog.NewCustomWithoutButtons("Agent permission", body, w.win)
	waiting := agent.Short(name, agent.MaxTitleRunes) + " is waiting for your answer"
	d.SetOnClosed(func() {
		send(rejectResponse(req)) // closed without a choice: rejected
		if w.status.message.Text == waiting {
			w.status.message.SetText("")
		}
	})
	d.Resize(askDialogSize(w.win.Canvas().Size()))
	w.dialogs.show(d)
	w.status.notify(waiting)
	return d
}

// permissionDetail is everything a permission request's tool call says it
// would do, as text: the files it names, each diff in unified form, the
// terminals and text it shows, and its raw input.
func permissionDetail(tc acpsdk.ToolCallUpdate) string {
	var b strings.Builder
	for _, l := range tc.Locations {
		fmt.Fprintf(&b, "at %s\n", l.Path)
	}
	for _, c := range tc.Content {
		switch {
		case c.Diff != nil:
			old := ""
			if c.Diff.OldText != nil {
				old = *c.Diff.OldText
			}
			fmt.Fprintf(&b, "diff %s\n%s", c.Diff.Path, udiff.Unified("a/"+c.Diff.Path, "b/"+c.Diff.Path, old, c.Diff.NewText))
		case c.Terminal != nil:
			fmt.Fprintf(&b, "the output of terminal %s\n", c.Terminal.TerminalId)
		case c.Content != nil && c.Content.Content.Text != nil:
			fmt.Fprintf(&b, "%s\n", c.Content.Content.Text.Text)
		}
	}
	if tc.RawInput != nil {
		if raw, err := json.MarshalIndent(tc.RawInput, "", "  "); err == nil {
			fmt.Fprintf(&b, "input:\n%s\n", raw)
		}
	}
	if b.Len() == 0 {
		return "(the agent sent no detail)"
	}
	return b.String()
}
