package agent

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2/widget"
)

// What the pane offers to choose: the agents, and the modes, models and
// earlier sessions of a session.

// Choice is an agent the pane offers: a name and its command line, and
// how to install its program when it is missing.
type Choice struct {
	Name, Command string
	// Install installs the program (argv, run on the person's consent);
	// nil when there is nothing Trestle can run.
	Install []string
	// Missing says how to get the program when Install cannot run.
	Missing string
}

// Custom is the choice whose command line the person types.
const Custom = "Custom command"

// nodeMissing is how to get npx and npm.
const nodeMissing = "install Node.js, which brings npx and npm (Debian and Ubuntu: sudo apt-get install nodejs npm; elsewhere https://nodejs.org)"

// known are the agents the pane knows, then Custom (read through Known,
// so no importer can change the table).
var known = []Choice{
	{Name: "Claude Code", Command: "npx @zed-industries/claude-code-acp", Missing: nodeMissing},
	{Name: "Codex", Command: "npx @zed-industries/codex-acp", Missing: nodeMissing},
	{Name: "Gemini CLI", Command: "gemini --experimental-acp",
		Install: []string{"npm", "install", "-g", "@google/gemini-cli"}, Missing: nodeMissing},
	{Name: Custom},
}

// Known are the agents the pane knows, then Custom: a copy the caller owns.
func Known() []Choice { return slices.Clone(known) }

// choiceNames are the names of choices.
func choiceNames(choices []Choice) []string {
	names := make([]string, len(choices))
	for i, c := range choices {
		names[i] = c.Name
	}
	return names
}

// SetAgents offers the person's own agents (names made safe and short)
// after the known ones and before Custom.
func (p *Pane) SetAgents(own []Choice) {
	choices := Known()
	custom := choices[len(choices)-1]
	choices = choices[:len(choices)-1]
	for _, c := range own {
		name := Short(c.Name, MaxWordRunes)
		if name == "" || name == Custom || slices.ContainsFunc(choices, func(k Choice) bool { return k.Name == name }) {
			continue
		}
		choices = append(choices, Choice{Name: name, Command: c.Command})
	}
	p.choices = append(choices, custom)
	p.Agent.Options = choiceNames(p.choices)
	p.Agent.Selected = p.choiceOf(p.Command.Text)
	p.Agent.Refresh()
}

// Choices are the agents the pane offers now.
func (p *Pane) Choices() []Choice { return slices.Clone(p.choices) }

// ChoiceFor is the known agent whose command line is command.
func ChoiceFor(command string) (Choice, bool) {
	for _, c := range known {
		if c.Command != "" && c.Command == strings.TrimSpace(command) {
			return c, true
		}
	}
	return Choice{}, false
}

// Option is a mode or model the agent offers: its id and its name.
type Option struct{ ID, Name string }

// SetModes offers the agent's modes with current selected; none hides the choice.
func (p *Pane) SetModes(opts []Option, current string) { p.modeIDs = offer(p.Mode, opts, current) }

// SetModels offers the agent's models with current selected; none hides the choice.
func (p *Pane) SetModels(opts []Option, current string) { p.modelIDs = offer(p.Model, opts, current) }

// offer fills sel with the options' names (made safe, short and unique),
// selects current without calling OnChanged, and returns the ids in the
// order of sel's options.
func offer(sel *widget.Select, opts []Option, current string) []string {
	ids := make([]string, 0, len(opts))
	names := make([]string, 0, len(opts))
	for _, o := range opts {
		name := Short(o.Name, MaxWordRunes)
		if name == "" || slices.Contains(names, name) {
			name = Short(o.Name+" ("+o.ID+")", MaxTitleRunes)
		}
		ids, names = append(ids, o.ID), append(names, name)
	}
	sel.Options = names
	sel.Selected = ""
	if i := slices.Index(ids, current); i >= 0 {
		sel.Selected = names[i]
	}
	if len(opts) == 0 {
		sel.Hide()
	} else {
		sel.Show()
	}
	sel.Refresh()
	return ids
}

// SetEarlier lists the project's stored sessions (the host's ids, names
// of its making, shown short); none hides the list.
func (p *Pane) SetEarlier(opts []Option) {
	p.earlierIDs = offer(p.Earlier, opts, "")
	p.Earlier.Hidden = p.state != Stopped || len(opts) == 0
	p.Resume.Hidden = p.Earlier.Hidden
	p.Earlier.Refresh()
	p.Resume.Refresh()
	enable(p.Resume, p.state == Stopped && p.Earlier.SelectedIndex() >= 0)
}

// chosen calls on with the id of sel's option the person chose.
func (p *Pane) chosen(sel *widget.Select, ids []string, on func(string)) {
	if i := sel.SelectedIndex(); i >= 0 && i < len(ids) && on != nil {
		on(ids[i])
	}
}

// showMode selects the mode id the agent says it is in now.
func (p *Pane) showMode(id string) {
	if i := slices.Index(p.modeIDs, id); i >= 0 && i < len(p.Mode.Options) && p.Mode.Selected != p.Mode.Options[i] {
		p.Mode.Selected = p.Mode.Options[i]
		p.Mode.Refresh()
	}
}
