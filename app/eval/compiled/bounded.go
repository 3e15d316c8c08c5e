package compiled

import (
	"bytes"
	"strings"
	"sync"
)

// boundedBuffer keeps the first max bytes written to it, after skipTo
// when that is set. Safe for concurrent use (stdout and stderr share it).
type boundedBuffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	max     int
	dropped int64
	skipTo  []byte // drop everything up to and including this mark
	skipped []byte // the tail of what was dropped, where the mark may begin
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.skipTo != nil {
		b.skipped = append(b.skipped, p...)
		i := bytes.Index(b.skipped, b.skipTo)
		if i < 0 {
			if keep := len(b.skipTo) - 1; len(b.skipped) > keep {
				b.skipped = append(b.skipped[:0], b.skipped[len(b.skipped)-keep:]...)
			}
			return n, nil
		}
		p = b.skipped[i+len(b.skipTo):]
		b.skipTo, b.skipped = nil, nil
	}
	room := b.max - b.buf.Len()
	if room < len(p) {
		b.dropped += int64(len(p) - max(room, 0))
		p = p[:max(room, 0)]
	}
	b.buf.Write(p)
	return n, nil
}

func (b *boundedBuffer) text() (string, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.ToValidUTF8(b.buf.String(), "\uFFFD"), b.dropped
}
