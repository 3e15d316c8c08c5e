package watch

// Op is what happened to a path.
type Op uint8

const (
	// Created: the path appeared. A file renamed over an existing one (an
	// atomic save) is also reported as Created, so a reader of file content
	// treats Created and Changed alike.
	Created Op = iota + 1
	// Changed: a file's content was written, or the path was removed and
	// created again within one batch.
	Changed
	// Removed: the path was deleted or renamed away.
	Removed
)

// String returns the name of o, e.g. "created".
func (o Op) String() string {
	switch o {
	case Created:
		return "created"
	case Changed:
		return "changed"
	case Removed:
		return "removed"
	}
	return "unknown"
}

// All is the Path of a Changed event that means "events were lost (the
// kernel queue overflowed): re-read everything".
const All = "."

// Event is one change in a batch.
type Event struct {
	Path string // project-relative, slash separated; All after lost events
	Op   Op
}

// batch gathers events until they are delivered, one per path in the order
// each path first appeared. Used by the watcher's goroutine only.
type batch struct {
	order []string
	ops   map[string]Op
}

// add records op for p, merged with what p already has in the batch.
func (b *batch) add(p string, op Op) {
	if b.ops == nil {
		b.ops = map[string]Op{}
	}
	old, ok := b.ops[p]
	if !ok {
		b.order = append(b.order, p)
		b.ops[p] = op
		return
	}
	b.ops[p] = merge(old, op)
}

// merge combines two ops on one path, earlier first: what the receiver
// must do is decided by the state before the batch and after it.
func merge(old, op Op) Op {
	switch {
	case old == Created && op == Changed:
		return Created // new, with content: still new
	case old == Removed && op == Created:
		return Changed // there before and there after
	default:
		return op
	}
}

func (b *batch) empty() bool { return len(b.order) == 0 }

// take returns the batch's events and empties it.
func (b *batch) take() []Event {
	events := make([]Event, len(b.order))
	for i, p := range b.order {
		events[i] = Event{Path: p, Op: b.ops[p]}
	}
	b.order, b.ops = nil, nil
	return events
}
