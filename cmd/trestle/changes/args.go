package changes

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// Command is a `trestle changes ...` command line: the review path for
// people without the window. Parse makes one; Run runs it.
type Command struct {
	action string    // list, show, apply, reject, revert, undo-revert or help
	id     string    // every action but list and help
	reason string    // reject --reason
	files  []string  // apply and reject --file PATH
	hunks  []string  // apply and reject --hunk PATH:N
	yes    bool      // revert --yes: no confirmation
	topic  string    // help: the action to explain, "" for all
	dir    string    // "" for the current folder
	in     io.Reader // where a revert reads the person's answer (set by Run)
}

// changesActions are the actions, in the order help lists them.
var changesActions = []string{"list", "show", "apply", "reject", "revert", "undo-revert"}

// changesUsage is each action's usage, for `trestle changes help ACTION`.
var changesUsage = map[string]string{
	"list": `trestle changes list [DIR]
  Lists the change sets agents proposed for the project in DIR (default: the
  current folder), newest first: id, state, files, lines, age, client, title.
`,
	"show": `trestle changes show ID [DIR]
  Prints change set ID: its description, history and each file's hunks,
  numbered per file as --hunk PATH:N names them, with each hunk's state.
  Text an agent wrote is printed with control characters escaped.
`,
	"apply": `trestle changes apply ID [--file PATH]... [--hunk PATH:N]... [DIR]
  Applies change set ID: with no --file or --hunk, every hunk still pending;
  else just the files (every pending hunk of each) and hunks named. What is
  not applied stays pending, to apply or reject later. Refused, naming the
  files and writing nothing, when any changed since the proposal (or since
  the last apply of the set). PATH is as show prints it.
`,
	"reject": `trestle changes reject ID [--reason R] [--file PATH]... [--hunk PATH:N]... [DIR]
  Rejects change set ID, with a reason the agent can read: with no --file or
  --hunk, everything of it still pending; else just the files and hunks named.
`,
	"revert": `trestle changes revert ID [--yes] [DIR]
  Puts back every file change set ID applied as it was before, provided none
  changed since. It says what it will do and asks first; --yes skips the
  question, and without a terminal to ask on it is refused unless --yes.
  trestle changes undo-revert ID applies the same again.
`,
	"undo-revert": `trestle changes undo-revert ID [DIR]
  Undoes the revert of change set ID: applies again what the revert put back,
  provided the files are still as the revert left them.
`,
}

// changesHelp is `trestle changes --help`.
func changesHelp() string {
	var b strings.Builder
	b.WriteString("Review change sets from a terminal. Usage:\n\n")
	for _, a := range changesActions {
		b.WriteString(changesUsage[a])
		b.WriteString("\n")
	}
	b.WriteString("trestle changes help [ACTION] and trestle changes ACTION --help print this.\n")
	return b.String()
}

// printChangesHelp prints the help for topic ("" for every action).
func printChangesHelp(w io.Writer, topic string) {
	if topic == "" {
		io.WriteString(w, changesHelp())
		return
	}
	io.WriteString(w, changesUsage[topic])
}

// Actions are the actions of `trestle changes`, in the order help lists
// them.
func Actions() []string { return slices.Clone(changesActions) }

// Parse reads a `trestle changes` command line, the arguments after
// "changes" (see changesHelp). Its errors are usage errors, in one line.
func Parse(args []string) (Command, error) {
	if len(args) == 0 {
		return Command{}, errors.New("changes: say list, show, apply, reject, revert or undo-revert (trestle changes --help explains each)")
	}
	c := Command{action: args[0]}
	switch {
	case c.action == "help" || c.action == "--help" || c.action == "-h":
		return c.parseHelp(args[1:])
	case !slices.Contains(changesActions, c.action):
		return Command{}, fmt.Errorf("changes: unknown command %q; use %s", c.action, strings.Join(changesActions, ", "))
	}
	rest, err := c.takeFlags(args[1:])
	if err != nil || c.action == "help" {
		return c, err
	}
	if c.action != "list" {
		if len(rest) == 0 {
			return Command{}, fmt.Errorf("changes %s: the change set ID is missing, e.g. cs-3", c.action)
		}
		c.id, rest = rest[0], rest[1:]
	}
	dir, err := dirArg(rest)
	if err != nil {
		return Command{}, fmt.Errorf("changes %s: %w", c.action, err)
	}
	c.dir = dir
	return c, nil
}

// dirArg takes the optional DIR argument and checks it is a folder, as
// the other modes' DIR is checked.
func dirArg(rest []string) (string, error) {
	switch {
	case len(rest) > 1:
		return "", fmt.Errorf("expected at most one DIR, got %q", rest)
	case len(rest) == 0:
		return "", nil
	case rest[0] == "":
		return "", errors.New("DIR is empty; pass a folder or leave it out")
	}
	info, err := os.Stat(rest[0])
	if err != nil {
		return "", fmt.Errorf("no such folder: %s", rest[0])
	}
	if !info.IsDir() {
		return "", fmt.Errorf("not a folder: %s", rest[0])
	}
	return rest[0], nil
}

// parseHelp reads `changes help [ACTION]`.
func (c Command) parseHelp(args []string) (Command, error) {
	c.action = "help"
	switch {
	case len(args) > 1:
		return Command{}, fmt.Errorf("changes help: one action at most, got %q", args)
	case len(args) == 1 && !slices.Contains(changesActions, args[0]):
		return Command{}, fmt.Errorf("changes help: unknown command %q; use %s", args[0], strings.Join(changesActions, ", "))
	case len(args) == 1:
		c.topic = args[0]
	}
	return c, nil
}

// changesFlags says which action takes which flag.
var changesFlags = map[string][]string{
	"reason": {"reject"},
	"file":   {"apply", "reject"},
	"hunk":   {"apply", "reject"},
	"yes":    {"revert"},
}

// takeFlags removes the flags from args (before or after the positional
// arguments; "--" ends them) and returns the rest. --help (or -h) turns
// the command into help for its action.
func (c *Command) takeFlags(args []string) ([]string, error) {
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i+1:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			rest = append(rest, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "help" || name == "h" {
			c.topic, c.action = c.action, "help"
			return nil, nil
		}
		if name == "y" {
			name = "yes"
		}
		actions, known := changesFlags[name]
		switch {
		case !known:
			return nil, fmt.Errorf("changes %s: flag provided but not defined: %s", c.action, a)
		case !slices.Contains(actions, c.action):
			return nil, fmt.Errorf("changes %s: --%s goes with %s only", c.action, name, strings.Join(actions, " and "))
		case name == "yes":
			if hasValue {
				return nil, fmt.Errorf("changes %s: --yes takes no value", c.action)
			}
			c.yes = true
			continue
		case !hasValue && i+1 < len(args):
			i++
			value = args[i]
		case !hasValue:
			return nil, fmt.Errorf("changes %s: --%s needs a value", c.action, name)
		}
		switch name {
		case "reason":
			c.reason = value
		case "file":
			c.files = append(c.files, value)
		case "hunk":
			c.hunks = append(c.hunks, value)
		}
	}
	return rest, nil
}
