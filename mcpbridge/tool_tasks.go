package mcpbridge

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"trestle/app/agent"
	"trestle/app/trust"
)

type tasksParams struct{}

type taskInfo struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	Dir     string `json:"dir,omitempty"`
	Timeout string `json:"timeout,omitempty"`
}

type selectionInfo struct {
	Name      string            `json:"name"`
	Tags      []string          `json:"tags,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Preload   []string          `json:"preload,omitempty"`
	Evaluator string            `json:"evaluator"` // idle, running, stopped or dead
}

type tasksResult struct {
	State       string          `json:"state"`
	Tasks       []taskInfo      `json:"tasks"`
	Selections  []selectionInfo `json:"selections"`
	ConfigError string          `json:"config_error,omitempty"`
	// Withheld is what an untrusted project's .trestle.json asks for and
	// does not get (its tasks are refused by trestle_run).
	Withheld      string     `json:"withheld,omitempty"`
	WithheldTasks []taskInfo `json:"withheld_tasks,omitempty"`
}

func (s *Server) tasksTool() server.ServerTool {
	tool := mcp.NewTool("trestle_tasks",
		mcp.WithDescription("Lists the project's tasks (for trestle_run) and selections (build tags, environment and "+
			"preloaded packages for trestle_eval and trestle_run), with each selection's evaluator state. e.g. {}"),
		mcp.WithInputSchema[tasksParams](),
		results[tasksResult](),
		hints("List tasks and selections", true, false, true),
	)
	return server.ServerTool{Tool: tool, Handler: typed(s.tasks)}
}

func (s *Server) tasks(context.Context, tasksParams) *mcp.CallToolResult {
	r := s.agent.Tasks()
	conf := r.Config
	res := tasksResult{State: stateDone, Tasks: []taskInfo{}, Selections: []selectionInfo{}}
	if r.ConfigError != nil {
		res.ConfigError = r.ConfigError.Error()
	}
	for _, name := range conf.TaskNames() {
		t, _ := conf.Task(name)
		info := taskInfo{Name: name, Command: strings.Join(t.Command, " "), Dir: t.Dir}
		if t.Timeout > 0 {
			info.Timeout = t.Timeout.String()
		}
		res.Tasks = append(res.Tasks, info)
	}
	if w := conf.Withheld; w != nil {
		res.Withheld = w.Summary()
		for _, name := range slices.Sorted(maps.Keys(w.Tasks)) {
			res.WithheldTasks = append(res.WithheldTasks, taskInfo{Name: name, Command: agent.QuotedCommand(w.Tasks[name].Command)})
		}
	}
	for _, name := range conf.SelectionNames() {
		sel, _ := conf.Selection(name)
		res.Selections = append(res.Selections, selectionInfo{Name: name, Tags: sel.Tags, Env: sel.Env,
			Preload: sel.Preload, Evaluator: string(r.Evaluators[name])})
	}
	return done(res, "%s", describeTasks(res))
}

func describeTasks(r tasksResult) string {
	var b strings.Builder
	b.WriteString("Tasks:")
	for _, t := range r.Tasks {
		fmt.Fprintf(&b, "\n  %s: %s", t.Name, t.Command)
		if t.Dir != "" {
			fmt.Fprintf(&b, " (in %s)", t.Dir)
		}
		if t.Timeout != "" {
			fmt.Fprintf(&b, " (timeout %s)", t.Timeout)
		}
	}
	b.WriteString("\nSelections:")
	sels := slices.Clone(r.Selections)
	sort.Slice(sels, func(i, j int) bool { return sels[i].Name < sels[j].Name })
	for _, s := range sels {
		fmt.Fprintf(&b, "\n  %s (evaluator %s)", s.Name, s.Evaluator)
		if len(s.Tags) > 0 {
			fmt.Fprintf(&b, " tags %s", strings.Join(s.Tags, ","))
		}
		keys := make([]string, 0, len(s.Env))
		for k := range s.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s=%s", k, s.Env[k])
		}
		if len(s.Preload) > 0 {
			fmt.Fprintf(&b, " preload %s", strings.Join(s.Preload, " "))
		}
	}
	if r.ConfigError != "" {
		fmt.Fprintf(&b, "\n.trestle.json problem (defaults used): %s", r.ConfigError)
	}
	if r.Withheld != "" {
		fmt.Fprintf(&b, "\nWithheld, because the project is untrusted (the person can %s): %s", trust.HowToTrust, r.Withheld)
		for _, t := range r.WithheldTasks {
			fmt.Fprintf(&b, "\n  %s: %s (not run)", t.Name, t.Command)
		}
	}
	return b.String()
}
