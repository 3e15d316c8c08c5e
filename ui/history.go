package ui

// history is an input line's history, walked with Up and Down like a
// shell's. It is plain data, used on the main goroutine.
type history struct {
	items []string
	pos   int    // len(items) when not walking
	draft string // what was typed before walking started
}

// maxHistory bounds what an input line remembers.
const maxHistory = 500

// add records a submitted line (not blank, not a repeat of the last) and
// stops walking.
func (h *history) add(line string) {
	if line != "" && (len(h.items) == 0 || h.items[len(h.items)-1] != line) {
		h.items = append(h.items, line)
		if len(h.items) > maxHistory {
			h.items = h.items[len(h.items)-maxHistory:]
		}
	}
	h.pos = len(h.items)
	h.draft = ""
}

// prev returns the line before the current one; current is what the input
// shows now, kept as the draft when walking starts.
func (h *history) prev(current string) string {
	if h.pos == len(h.items) {
		h.draft = current
	}
	if h.pos > 0 {
		h.pos--
	}
	if len(h.items) == 0 {
		return current
	}
	return h.items[h.pos]
}

// next returns the line after the current one, or the draft past the end.
func (h *history) next() string {
	if h.pos < len(h.items) {
		h.pos++
	}
	if h.pos == len(h.items) {
		return h.draft
	}
	return h.items[h.pos]
}
