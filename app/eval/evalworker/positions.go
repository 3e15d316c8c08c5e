package evalworker

import (
	"regexp"
	"strconv"
)

// wrapOffset is how many bytes yaegi puts before the first line of a piece
// it evaluates: "package main; func main() {" around statements and
// "package main;" before declarations (interp/ast.go). Only line 1 of the
// Eval's source carries it; groupChunks keeps every other position.
func wrapOffset(kind chunkKind) int {
	if kind == kindStmt {
		return len("package main; func main() {")
	}
	return len("package main;")
}

// inputPosition matches a position yaegi reports in the evaluated source
// ("1:28: " or "_.go:1:28: ") at the start of a line of the message.
var inputPosition = regexp.MustCompile(`(?m)^((?:_\.go)?:?)(\d+):(\d+)(: )`)

// positionedError is an evaluation error whose positions were moved back
// onto the person's input; it unwraps to yaegi's error.
type positionedError struct {
	msg string
	err error
}

func (e positionedError) Error() string { return e.msg }
func (e positionedError) Unwrap() error { return e.err }

// inputPositions maps the line-1 columns of err's message back to the
// input, so that `undefinedThing + 1` is reported at 1:1 and not 1:28.
// lead is what the group put before its first line (group.lead).
func inputPositions(err error, kind chunkKind, lead int) error {
	msg := err.Error()
	off := wrapOffset(kind) + lead
	mapped := inputPosition.ReplaceAllStringFunc(msg, func(m string) string {
		sub := inputPosition.FindStringSubmatch(m)
		line, _ := strconv.Atoi(sub[2])
		col, _ := strconv.Atoi(sub[3])
		if line == 1 && col > off {
			col -= off
		}
		return sub[1] + sub[2] + ":" + strconv.Itoa(col) + sub[4]
	})
	if mapped == msg {
		return err
	}
	return positionedError{msg: mapped, err: err}
}
